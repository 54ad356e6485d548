/**
 * What the TUI's chat screen shows and does, without React: an adapter over the desk's
 * `tui` conversation. It keeps the transcript, the answer streaming now, the lines
 * queued behind it, the approval waiting for y/n, the pickers of `/model` and
 * `/resume`, and the status bar's facts, all drawn from the desk's events; the screen
 * subscribes to it (`useSyncExternalStore`) and tests drive it directly.
 *
 * @module
 */
import {
  type ConversationState,
  type Desk,
  type DeskConversation,
  type DeskEvent,
  deskSentence,
  fetchControl,
  followHubEvents,
  type HistoryLine,
  openState,
  type OwnerEvent,
  ownerEventLine,
  spendReport,
} from "@agent/hub";
import { type Lang, toolOutcomeLine } from "@agent/hub/base";

/** One entry of the transcript. */
export interface Entry {
  kind: "user" | "assistant" | "system" | "error";
  text: string;
}

/** An approval waiting for y or n. */
export interface PendingApproval {
  id: string;
  tool: string;
  /** What will happen, written for the owner. */
  message: string;
  /** The arguments in short. */
  summary: string;
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
  /** Lines sent while an answer runs, answered in order after it. */
  queued: string[];
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
  desk: Desk;
  conversation: DeskConversation;
  lang: Lang;
  /** Loopback port of a hub's control API, for the status bar. */
  hubPort: number;
}

/** How often streamed text is drawn, in ms (20 frames a second: smooth to read, cheap to draw). */
const FRAME_MS = 50;

/** The chat screen's state and actions. */
export class TuiController {
  #o: TuiControllerOptions;
  #state: TuiState;
  #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #streamed = "";
  /** A frame of streamed text is drawn at most this often: a long answer does not draw once a word. */
  #frame: ReturnType<typeof setTimeout> | undefined;
  /** The tool of each call running now, for its outcome line. */
  #tools = new Map<string, string>();
  #unsubscribe: () => void;
  #following = new AbortController();

  /** Makes the controller; call {@linkcode start} to begin refreshing the status. */
  constructor(options: TuiControllerOptions) {
    this.#o = options;
    this.#state = {
      entries: [],
      streaming: undefined,
      queued: [],
      busy: false,
      approval: undefined,
      picker: undefined,
      settings: false,
      status: this.#facts(),
      exit: undefined,
    };
    this.#unsubscribe = options.conversation.subscribe((event) => this.#render(event));
  }

  /** The conversation's state (for the settings screen: configuration, environment). */
  get chat(): ConversationState {
    return this.#o.conversation.state;
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

  /** Adds a session's history to the transcript. */
  showHistory(history: readonly HistoryLine[]): void {
    this.#set({
      entries: [
        ...this.#state.entries,
        ...history.map((line): Entry => ({ kind: line.role, text: line.text })),
      ],
    });
  }

  /**
   * Refreshes the status bar now and every 5 s (the hub's state, the spend), and follows
   * this home's hub's owner events as they happen.
   */
  start(): void {
    void this.refresh();
    this.#timer = setInterval(() => void this.refresh(), 5_000);
    void followHubEvents({
      port: this.#o.hubPort,
      dataDir: this.chat.paths.dataDir,
      signal: this.#following.signal,
      onEvent: (event) => this.ownerEvent(event),
    });
  }

  /** Stops refreshing and listening; a running answer is cancelled. */
  stop(): void {
    clearInterval(this.#timer);
    clearTimeout(this.#frame);
    this.#following.abort();
    this.#unsubscribe();
    this.#o.conversation.cancel();
  }

  /**
   * An owner event from the hub, shown as a line (a contact request also counts in the
   * status bar). Budget warnings are left out: the TUI tells its own before an answer.
   */
  ownerEvent(event: OwnerEvent): void {
    if (event.type === "budget.warning" || event.type === "budget.spent") return;
    this.say("system", ownerEventLine(this.#o.lang, event));
    if (event.type === "net.contact_request") {
      this.#set({ status: { ...this.#state.status, requests: this.#state.status.requests + 1 } });
    }
  }

  /** Reads the spend, the hub and the pending requests again. */
  async refresh(): Promise<void> {
    const facts = this.#facts();
    // Only this home's hub counts: another home's may hold the port (its `/health`
    // names its own data folder).
    const health = await fetchControl(this.#o.hubPort, "/health", { timeoutMs: 500 });
    const ours = health?.data_dir === this.chat.paths.dataDir;
    const hub = ours
      ? await fetchControl(this.#o.hubPort, "/status", {
        timeoutMs: 500,
        tokenFile: this.chat.paths.hubTokenFile,
      })
      : undefined;
    facts.hub = hub?.ok === true
      ? { running: true, net: (hub.net as { state?: string } | undefined)?.state }
      : { running: false };
    try {
      const chat = this.chat;
      const contacts = await openState(chat.config, chat.env, chat.paths).contacts();
      facts.requests = contacts.filter((c) => c.state === "pending_in").length;
    } catch {
      facts.requests = 0;
    }
    this.#set({ status: facts });
  }

  /**
   * Handles a submitted line: `/model`, `/resume` and `/settings` open their screens;
   * anything else goes to the desk (queued while an answer runs).
   */
  async submit(text: string): Promise<void> {
    const trimmed = text.trim();
    if (trimmed === "") return;
    const [word, ...args] = trimmed.split(/\s+/);
    if ((word === "/model" || word === "/resume") && args.length === 0) {
      this.#set({ picker: await this.#picker(word === "/model" ? "model" : "resume") });
      return;
    }
    // Keys are typed in the TUI's own settings screen, hidden.
    if (word === "/settings") {
      this.#set({ settings: true });
      return;
    }
    await this.#o.conversation.submit(text);
    this.#set({ busy: this.#o.conversation.busy, status: this.#facts() });
  }

  /** Ctrl-C: stops a running answer; at an approval the TUI closes (130). */
  interrupt(): boolean {
    if (this.#state.approval !== undefined) {
      this.#o.conversation.cancel();
      this.quit(130);
      return true;
    }
    return this.#o.conversation.cancel();
  }

  /** Answers the open approval. */
  answer(yes: boolean): void {
    const approval = this.#state.approval;
    if (approval !== undefined) this.#o.desk.decide(approval.id, yes ? "once" : "deny", "tui");
  }

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
    if (item !== undefined) await this.#o.conversation.submit(`/${picker.kind} ${item.value}`);
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
    this.#o.conversation.keySaved();
    this.#set({ status: this.#facts() });
  }

  #render(event: DeskEvent): void {
    const lang = this.#o.lang;
    switch (event.type) {
      case "RUN_STARTED": {
        this.#streamed = "";
        const queued = [...this.#state.queued];
        const at = queued.indexOf(event.metadata.text);
        if (at >= 0) queued.splice(at, 1);
        this.#set({
          entries: [...this.#state.entries, { kind: "user", text: event.metadata.text }],
          queued,
          busy: true,
          streaming: "",
        });
        return;
      }
      case "TEXT_MESSAGE_CONTENT":
        this.#streamed += event.delta;
        this.#frame ??= setTimeout(() => {
          this.#frame = undefined;
          if (this.#state.streaming !== undefined) {
            this.#set({ streaming: this.#streamed.replace(/^\s+/, "") });
          }
        }, FRAME_MS);
        return;
      case "TOOL_CALL_START":
        this.#flushStreamed();
        this.#tools.set(event.toolCallId, event.toolCallName);
        this.say("system", deskSentence(lang, "tool_call", { tool: event.toolCallName }));
        return;
      case "TOOL_CALL_RESULT": {
        const tool = this.#tools.get(event.toolCallId) ?? "";
        this.#tools.delete(event.toolCallId);
        this.say("system", toolOutcomeLine(lang, tool, event.content));
        return;
      }
      case "RUN_FINISHED":
        if (event.outcome.type === "success") {
          this.#streamed = "";
          this.#set({ streaming: undefined });
          this.say("assistant", event.result?.reply.trim() ?? "");
        } else {
          this.#flushStreamed();
          this.#set({ streaming: undefined });
          this.say("system", deskSentence(lang, "cancelled"));
        }
        this.#set({ busy: false, status: this.#facts() });
        return;
      case "RUN_ERROR":
        this.#flushStreamed();
        this.#set({ streaming: undefined });
        this.say("error", event.message);
        this.#set({ busy: false, status: this.#facts() });
        return;
      case "CUSTOM":
        return this.#custom(event);
    }
  }

  #custom(event: Extract<DeskEvent, { type: "CUSTOM" }>): void {
    const lang = this.#o.lang;
    switch (event.name) {
      case "notice":
        return this.say("system", event.value.text);
      case "input.queued":
        // Shown under the running answer until its turn comes.
        if (!event.value.text.trim().startsWith("/")) {
          this.#set({ queued: [...this.#state.queued, event.value.text] });
        }
        return;
      case "command.result":
        this.say("user", event.value.input);
        for (const line of event.value.lines) this.say("system", line);
        if (event.value.quit) this.quit(0);
        this.#set({ status: this.#facts() });
        return;
      case "session.changed":
        this.showHistory(event.value.history);
        this.#set({ status: this.#facts() });
        return;
      case "approval.requested": {
        const { id, tool, message, summary } = event.value;
        this.#set({ approval: { id, tool, message, summary } });
        return;
      }
      case "approval.decided":
        this.#set({ approval: undefined });
        if (event.value.decision === "expired") {
          this.say("system", deskSentence(lang, "approval_expired", { tool: event.value.tool }));
        }
        return;
    }
  }

  /** What streamed before a tool call or a cancel stays in the transcript. */
  #flushStreamed(): void {
    if (this.#streamed.trim() !== "") {
      this.#set({ streaming: "" });
      this.say("assistant", this.#streamed.trim());
    }
    this.#streamed = "";
  }

  async #picker(kind: "model" | "resume"): Promise<Picker> {
    const chat = this.chat;
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

  #facts(): StatusFacts {
    const chat = this.chat;
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
