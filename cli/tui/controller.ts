/**
 * What the TUI's chat screen shows and does, without React: the transcript, the turn
 * running now (streamed in place), the approval waiting for y/n, the pickers of
 * `/model` and `/resume`, and the status bar's facts. The screen subscribes to it
 * (`useSyncExternalStore`); tests drive it directly.
 *
 * One turn is chat's turn: `Agent.turn` with the same slash commands, sentences and
 * budget warnings.
 *
 * @module
 */
import {
  ApprovalInterrupted,
  budgetWarningSentence,
  budgetWarningsFor,
  chatSentence,
  type Conversation,
  fetchControl,
  openState,
  runSlashCommand,
  spendReport,
  TurnEndedError,
} from "@agent/hub";
import type { Lang } from "@agent/hub/base";

/** One entry of the transcript. */
export interface Entry {
  kind: "user" | "assistant" | "system" | "error";
  text: string;
}

/** An approval waiting for y or n. */
export interface PendingApproval {
  tool: string;
  description: string;
  args: string;
}

/** A picker open over the chat (`/model`, `/resume`). */
export interface Picker {
  kind: "model" | "resume";
  items: { value: string; label: string }[];
  index: number;
}

/** The facts of the status bar. */
export interface StatusFacts {
  role: string;
  provider: string;
  model: string;
  spentUsd: number;
  capUsd: number | null;
  period: string;
  exhausted: boolean;
  standIn: string | undefined;
  hub: { running: boolean; net?: string | undefined } | undefined;
  requests: number;
  session: string;
}

/** Everything the chat screen draws. */
export interface TuiState {
  entries: Entry[];
  /** The answer streaming now, shown in place under the transcript. */
  streaming: string | undefined;
  busy: boolean;
  approval: PendingApproval | undefined;
  picker: Picker | undefined;
  /** The settings screen is open over the chat (`/settings`). */
  settings: boolean;
  status: StatusFacts;
  /** Set when the TUI should close, with this exit code. */
  exit: number | undefined;
}

/** Options for {@linkcode TuiController}. */
export interface TuiControllerOptions {
  chat: Conversation;
  lang: Lang;
  /** Loopback port of a hub's control API, for the status bar. */
  hubPort: number;
  /** Tool descriptions by name (for approvals). */
  toolDescriptions: Record<string, string>;
}

/** The chat screen's state and actions. */
export class TuiController {
  #o: TuiControllerOptions;
  #state: TuiState;
  #listeners = new Set<() => void>();
  #abort: AbortController | undefined;
  #approval: ((answer: boolean | "interrupt") => void) | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Makes the controller; call {@linkcode start} to begin refreshing the status. */
  constructor(options: TuiControllerOptions) {
    this.#o = options;
    this.#state = {
      entries: [],
      streaming: undefined,
      busy: false,
      approval: undefined,
      picker: undefined,
      settings: false,
      status: this.#facts(),
      exit: undefined,
    };
  }

  /** The conversation (for the settings screen). */
  get chat(): Conversation {
    return this.#o.chat;
  }

  /** The current state (a new object after every change). */
  getState = (): TuiState => this.#state;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): () => void => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Adds a line to the transcript. */
  say(kind: Entry["kind"], text: string): void {
    this.#set({ entries: [...this.#state.entries, { kind, text }] });
  }

  /** Refreshes the status bar now and every 5 s (the hub's state, the spend). */
  start(): void {
    void this.refresh();
    this.#timer = setInterval(() => void this.refresh(), 5_000);
  }

  /** Stops refreshing; denies an open approval. */
  stop(): void {
    clearInterval(this.#timer);
    this.#approval?.(false);
    this.#abort?.abort();
  }

  /** Reads the spend, the hub and the pending requests again. */
  async refresh(): Promise<void> {
    const facts = this.#facts();
    const hub = await fetchControl(this.#o.hubPort, "/status", { timeoutMs: 500 });
    facts.hub = hub?.ok === true
      ? { running: true, net: (hub.net as { state?: string } | undefined)?.state }
      : { running: false };
    try {
      const chat = this.#o.chat;
      const contacts = await openState(chat.config, chat.env, chat.paths).contacts();
      facts.requests = contacts.filter((c) => c.state === "pending_in").length;
    } catch {
      facts.requests = 0;
    }
    this.#set({ status: facts });
  }

  /** Handles a submitted line: a slash command, or a message to the agent. */
  async submit(text: string): Promise<void> {
    const trimmed = text.trim();
    if (trimmed === "" || this.#state.busy) return;
    if (trimmed.startsWith("/")) return await this.#slash(trimmed);
    await this.#turn(text);
  }

  /** Ctrl-C: stops a running answer; `false` when nothing was running. */
  interrupt(): boolean {
    if (this.#approval !== undefined) {
      this.#approval("interrupt");
      return true;
    }
    if (this.#abort !== undefined) {
      this.#abort.abort();
      return true;
    }
    return false;
  }

  /** Answers the open approval. */
  answer(yes: boolean): void {
    this.#approval?.(yes);
  }

  /** The approver chat's agent asks (set up by whoever opens the conversation). */
  approve = (tool: string, args: unknown): Promise<boolean> => {
    return new Promise((resolve, reject) => {
      this.#approval = (answer) => {
        this.#approval = undefined;
        this.#set({ approval: undefined });
        if (answer === "interrupt") reject(new ApprovalInterrupted());
        else resolve(answer);
      };
      this.#set({
        approval: {
          tool,
          description: this.#o.toolDescriptions[tool] ?? "",
          args: JSON.stringify(args) ?? "",
        },
      });
    });
  };

  /** Moves the picker's cursor. */
  move(delta: number): void {
    const picker = this.#state.picker;
    if (picker === undefined || picker.items.length === 0) return;
    const index = (picker.index + delta + picker.items.length) % picker.items.length;
    this.#set({ picker: { ...picker, index } });
  }

  /** Takes the picker's choice. */
  async choose(): Promise<void> {
    const picker = this.#state.picker;
    if (picker === undefined) return;
    this.#set({ picker: undefined });
    const item = picker.items[picker.index];
    if (item !== undefined) await this.#slash(`/${picker.kind} ${item.value}`);
  }

  /** Esc: closes the picker or the settings screen. */
  closeOverlay(): void {
    this.#set({ picker: undefined, settings: false });
  }

  /** Ends the TUI with `code`. */
  quit(code: number): void {
    this.#set({ exit: code });
  }

  /** After the settings screen saved a key: the agent is built again, the bar refreshed. */
  keySaved(): void {
    const chat = this.#o.chat;
    chat.agent = chat.rebuild(chat.agent.role);
    this.#set({ status: this.#facts() });
  }

  async #slash(text: string): Promise<void> {
    const chat = this.#o.chat;
    const [word, ...args] = text.split(/\s+/);
    if ((word === "/model" || word === "/resume") && args.length === 0) {
      this.#set({ picker: await this.#picker(word === "/model" ? "model" : "resume") });
      return;
    }
    if (word === "/settings" && args.length === 0) {
      this.#set({ settings: true });
      return;
    }
    this.say("user", text);
    const result = await runSlashCommand(chat, text);
    for (const line of result.lines) this.say("system", line);
    if (result.quit) this.quit(0);
    this.#set({ status: this.#facts() });
  }

  async #picker(kind: "model" | "resume"): Promise<Picker> {
    const chat = this.#o.chat;
    if (kind === "model") {
      const items = Object.keys(chat.config.models.roles).map((role) => {
        const target = chat.agent.router.target(role);
        return { value: role, label: `${role}  ${target.provider} ${target.model_id}` };
      });
      return {
        kind,
        items,
        index: Math.max(0, items.findIndex((i) => i.value === chat.agent.role)),
      };
    }
    const sessions = await chat.sessions.listSessions(30);
    return {
      kind,
      items: sessions.map((s) => ({
        value: s.session_id,
        label: `${s.session_id}  ${s.message_count} · ${
          typeof s.meta.title === "string" ? s.meta.title : ""
        }`,
      })),
      index: 0,
    };
  }

  async #turn(text: string): Promise<void> {
    const chat = this.#o.chat;
    const lang = this.#o.lang;
    this.say("user", text);
    for (const warning of budgetWarningsFor(chat, "tui")) {
      this.say("system", budgetWarningSentence(lang, warning));
    }
    const abort = new AbortController();
    this.#abort = abort;
    this.#set({ busy: true, streaming: "" });
    let streamed = "";
    try {
      const result = await chat.agent.turn(chat.sessionId, text, {
        signal: abort.signal,
        onText: (chunk) => {
          streamed += chunk;
          this.#set({ streaming: streamed.replace(/^\s+/, "") });
        },
        onToolCall: (tool) => {
          if (streamed.trim() !== "") this.say("assistant", streamed.trim());
          streamed = "";
          this.say("system", chatSentence(lang, "chat_tool_call", { tool }));
        },
      });
      this.#set({ streaming: undefined });
      this.say("assistant", result.reply.trim());
    } catch (error) {
      this.#set({ streaming: undefined });
      if (streamed.trim() !== "") this.say("assistant", streamed.trim());
      if (error instanceof ApprovalInterrupted) {
        this.quit(130);
      } else if (error instanceof TurnEndedError) {
        this.say("error", error.sentence);
      } else if (abort.signal.aborted) {
        this.say("system", chatSentence(lang, "chat_cancelled"));
      } else {
        throw error;
      }
    } finally {
      this.#abort = undefined;
      this.#set({ busy: false, status: this.#facts() });
    }
  }

  #facts(): StatusFacts {
    const chat = this.#o.chat;
    const role = chat.agent.role;
    const target = chat.agent.router.target(role);
    let entry;
    try {
      entry = spendReport(chat.config, chat.ledger, chat.now())[role];
    } catch {
      entry = undefined;
    }
    return {
      role,
      provider: target.provider,
      model: target.model_id,
      spentUsd: entry?.spent_usd ?? 0,
      capUsd: entry?.cap_usd ?? null,
      period: entry?.period ?? "month",
      exhausted: entry?.exhausted ?? false,
      standIn: entry?.degrade_to,
      hub: this.#state?.status.hub,
      requests: this.#state?.status.requests ?? 0,
      session: chat.sessionId,
    };
  }

  #set(patch: Partial<TuiState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }
}
