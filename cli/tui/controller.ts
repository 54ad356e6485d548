/**
 * What the TUI's chat screen shows and does, without React: an adapter over the desk's
 * `tui` conversation. It keeps the transcript and the answer streaming now from the
 * conversation's events; the lines queued, the approval waiting and the status bar's
 * role, model, session and budget from its `snapshot()`; the pickers of `/model`,
 * `/resume` and `/settings` from its `choices()`; and it acts only through the
 * conversation's intents. What the hub says of itself (running, the network, contact
 * requests) comes from a {@linkcode HubWatch} the program gives it. The screen
 * subscribes to it (`useSyncExternalStore`) and tests drive it directly.
 *
 * An approval is decided only by an act made for it: Ctrl-Y (allow once), Ctrl-N
 * (deny), or Tab to its buttons, then ←/→ and Enter (Allow for this session is there).
 * None of these counts in the first {@linkcode APPROVAL_GUARD_MS} after it appears, and
 * typing goes on into the input meanwhile: a line sent waits in the queue.
 *
 * @module
 */
import {
  type ApprovalRequest,
  type Choice,
  type DeskConversation,
  type DeskEvent,
  deskSentence,
  EVENT_BOOKS,
  eventText,
  type HistoryLine,
  type OwnerEvent,
  ownerEventLine,
} from "@agent/hub/desk";
import { type Lang, toolOutcomeLine } from "@agent/hub/base";
import type { HubFacts, HubWatch } from "./hub_watch.ts";
import { APPROVAL_CHOICES, type Entry, facts, picker, type TuiState } from "./tui_state.ts";

export { type HubFacts, type HubWatch, hubWatch, type HubWatchOptions } from "./hub_watch.ts";
export {
  APPROVAL_CHOICES,
  type Entry,
  type PendingApproval,
  type Picker,
  type StatusFacts,
  type TuiState,
} from "./tui_state.ts";

/** Options for {@linkcode TuiController}. */
export interface TuiControllerOptions {
  conversation: DeskConversation;
  lang: Lang;
  /** This home's hub, for the status bar and owner events. @default none (no hub segment) */
  hub?: HubWatch | undefined;
  /** @default performance.now */
  clock?: (() => number) | undefined;
}

/** How long after an approval appears no key decides it, in ms. */
export const APPROVAL_GUARD_MS = 500;

/** How often the running hub's approvals are read, in ms. */
const HUB_APPROVALS_MS = 1_000;

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
  /** When the approval shown now appeared (the clock's ms). */
  #shownAt = 0;
  #clock: () => number;
  /** The running hub's approvals (its messenger's, e-mail's, web chat's), read every second. */
  #hubApprovals: ApprovalRequest[] = [];
  #hubPoll: ReturnType<typeof setInterval> | undefined;

  /** Makes the controller; call {@linkcode start} to begin refreshing the status. */
  constructor(options: TuiControllerOptions) {
    this.#o = options;
    this.#clock = options.clock ?? (() => performance.now());
    const now = options.conversation.snapshot();
    this.#state = {
      entries: [],
      streaming: undefined,
      queued: [],
      busy: false,
      approval: undefined,
      picker: undefined,
      settings: false,
      status: facts(now, undefined),
      exit: undefined,
    };
    this.#unsubscribe = options.conversation.subscribe((event) => this.#render(event));
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

  /** Adds a session's history to the transcript, each tool outcome as its sentence. */
  showHistory(history: readonly HistoryLine[]): void {
    const lang = this.#o.lang;
    this.#set({
      entries: [
        ...this.#state.entries,
        ...history.map((line): Entry =>
          line.role === "tool"
            ? { kind: "system", text: toolOutcomeLine(lang, line.tool, line.text) }
            : { kind: line.role, text: line.text }
        ),
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
    this.#o.hub?.follow((event) => this.ownerEvent(event), this.#following.signal);
    if (this.#o.hub !== undefined) {
      void this.pollHubApprovals();
      this.#hubPoll = setInterval(() => void this.pollHubApprovals(), HUB_APPROVALS_MS);
    }
  }

  /** Reads the running hub's approvals again (every second while the TUI runs). */
  async pollHubApprovals(): Promise<void> {
    const hub = this.#o.hub;
    if (hub === undefined) return;
    const open = await hub.approvals().catch(() => []);
    const ids = (list: ApprovalRequest[]) => list.map((a) => a.id).join(" ");
    if (ids(open) === ids(this.#hubApprovals)) return;
    this.#hubApprovals = open;
    this.#sync();
  }

  /** Stops refreshing and listening; a running answer is cancelled. */
  stop(): void {
    clearInterval(this.#timer);
    clearInterval(this.#hubPoll);
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
    if (event.type === "job.result") {
      // The job's name and cost, then its answer drawn as an answer is (Markdown).
      const [head = "", ...answer] = eventText(this.#o.lang, event, EVENT_BOOKS).split("\n");
      this.say("system", head);
      if (answer.join("\n").trim() !== "") this.say("assistant", answer.join("\n").trim());
      return;
    }
    this.say("system", ownerEventLine(this.#o.lang, event, EVENT_BOOKS));
    if (event.type === "net.contact_request") {
      this.#set({ status: { ...this.#state.status, requests: this.#state.status.requests + 1 } });
    }
  }

  /** Reads the conversation's snapshot and the hub's state again. */
  async refresh(): Promise<void> {
    const hub = await this.#o.hub?.facts();
    this.#set({ status: facts(this.#o.conversation.snapshot(), hub ?? this.#hubFacts()) });
  }

  /**
   * Handles a submitted line: `/model`, `/resume` and `/settings` open their screens;
   * anything else goes to the desk (queued while an answer runs or an approval waits).
   */
  async submit(text: string): Promise<void> {
    const trimmed = text.trim();
    if (trimmed === "") return;
    const [word, ...args] = trimmed.split(/\s+/);
    if ((word === "/model" || word === "/resume") && args.length === 0) {
      const kind = word === "/model" ? "model" : "resume";
      const items = await this.#o.conversation.choices(kind === "model" ? "roles" : "sessions");
      this.#set({ picker: picker(kind, items) });
      return;
    }
    // Keys are typed in the TUI's own settings screen, hidden.
    if (word === "/settings") {
      this.#set({ settings: true });
      return;
    }
    await this.#o.conversation.submit(text);
    this.#sync();
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

  /** Whether a key now may act on the approval: one is shown, and not just now. */
  approvalReady(): boolean {
    return this.#state.approval !== undefined &&
      this.#clock() - this.#shownAt >= APPROVAL_GUARD_MS;
  }

  /**
   * Decides the open approval (Ctrl-Y, Ctrl-N, or Enter on a focused button); `false`
   * (nothing decided) when none waits or it appeared less than 500 ms ago.
   */
  answer(decision: (typeof APPROVAL_CHOICES)[number]): boolean {
    const approval = this.#state.approval;
    if (approval === undefined || !this.approvalReady()) return false;
    if (approval.from === undefined) {
      return this.#o.conversation.decide(approval.id, decision, "tui");
    }
    // The hub's: decided over the control API; shown no more while the answer comes.
    this.#hubApprovals = this.#hubApprovals.filter((a) => a.id !== approval.id);
    this.#sync();
    void this.#o.hub?.decide(approval.id, decision).catch(() => false)
      .then(() => this.pollHubApprovals());
    return true;
  }

  /**
   * Tab: moves the focus between the input and the approval's buttons; `false` when
   * no approval waits or it appeared less than 500 ms ago.
   */
  focusApproval(on: boolean): boolean {
    const approval = this.#state.approval;
    if (approval === undefined || (on && !this.approvalReady())) return false;
    this.#set({ approval: { ...approval, focus: on ? 0 : undefined } });
    return true;
  }

  /** ←/→ on the focused approval: the next or the previous button. */
  moveApproval(delta: number): void {
    const approval = this.#state.approval;
    if (approval?.focus === undefined) return;
    const n = APPROVAL_CHOICES.length;
    this.#set({ approval: { ...approval, focus: (approval.focus + delta + n) % n } });
  }

  /** Enter on the focused approval: decides the button focused. */
  chooseApproval(): boolean {
    const focus = this.#state.approval?.focus;
    return focus !== undefined && this.answer(APPROVAL_CHOICES[focus]!);
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
    if (item === undefined) return;
    await this.#o.conversation.pick(picker.kind === "model" ? "roles" : "sessions", item.value);
    this.#sync();
  }

  /** Esc: closes the picker or the settings screen. */
  closeOverlay(): void {
    this.#set({ picker: undefined, settings: false });
  }

  /** The settings screen's lines: the conversation's `settings` choices. */
  settingLines(): Promise<Choice[]> {
    return this.#o.conversation.choices("settings");
  }

  /** Saves a key from the settings screen (`/settings set NAME`), then refreshes the bar. */
  async saveSetting(name: string, value: string): Promise<void> {
    await this.#o.conversation.command(`/settings set ${name}`, { secret: value });
    this.#sync();
  }

  /** Ends the TUI with `code`. */
  quit(code: number): void {
    this.#set({ exit: code });
  }

  #hubFacts(): HubFacts | undefined {
    const status = this.#state?.status;
    return status?.hub === undefined ? undefined : { hub: status.hub, requests: status.requests };
  }

  /** The queue, the approval and the status bar again, from the conversation's snapshot. */
  #sync(): void {
    const now = this.#o.conversation.snapshot();
    // This TUI's own approval first; else one the running hub waits on.
    const own = now.approvals[0];
    const request = own ?? this.#hubApprovals[0];
    let approval = this.#state.approval;
    if (request === undefined) approval = undefined;
    else if (approval?.id !== request.id) {
      this.#shownAt = this.#clock();
      const { id, tool, message, summary } = request;
      const from = own === undefined ? request.conversation : undefined;
      approval = { id, tool, message, summary, from, focus: undefined };
    }
    this.#set({
      queued: now.queue.map((line) => line.text),
      busy: now.busy,
      approval,
      status: facts(now, this.#hubFacts()),
    });
  }

  #render(event: DeskEvent): void {
    const lang = this.#o.lang;
    switch (event.type) {
      case "RUN_STARTED": {
        this.#streamed = "";
        this.#set({
          entries: [...this.#state.entries, { kind: "user", text: event.metadata.text }],
          streaming: "",
        });
        return this.#sync();
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
        return this.#sync();
      case "RUN_ERROR":
        this.#flushStreamed();
        this.#set({ streaming: undefined });
        this.say("error", event.message);
        return this.#sync();
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
        return this.#sync();
      case "command.result":
        this.say("user", event.value.input);
        for (const line of event.value.lines) this.say("system", line);
        if (event.value.quit) this.quit(0);
        return this.#sync();
      case "session.changed":
        this.showHistory(event.value.history);
        return this.#sync();
      case "approval.requested":
        return this.#sync();
      case "approval.decided":
        if (event.value.decision === "expired") {
          this.say("system", deskSentence(lang, "approval_expired", { tool: event.value.tool }));
        }
        return this.#sync();
      case "tool.refused":
        // The tool's outcome line says it did not run.
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

  #set(patch: Partial<TuiState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }
}
