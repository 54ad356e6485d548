/**
 * One conversation on the desk: a session, the agent that answers in it, and the
 * queue of what the person sent. Everything sent goes through {@linkcode
 * DeskConversation.submit}: a message or a slash command is handled at once when
 * nothing runs, or queued behind the running answer (kept in order, answered in
 * order, never dropped; the sender is told). Each answer is a run whose events (see
 * `events.ts`) every subscriber receives; {@linkcode DeskConversation.cancel} ends the
 * running answer, and its spend is in the ledger like any other call's.
 *
 * A channel adapter subscribes, renders the events and turns a person's input into
 * these calls; it holds no rule of its own.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { Logger } from "../log.ts";
import type { SessionMessage } from "../sessions/mod.ts";
import type { AgentTool, ToolCallCheck, ToolVerdict } from "../tools/mod.ts";
import type { Agent } from "../agent/mod.ts";
import { TurnEndedError } from "../router/mod.ts";
import { t } from "./_messages.ts";
import { type ApprovalBook, approvalSentence, summariseArgs } from "./approvals.ts";
import {
  commandOf,
  type CommandOutcome,
  commandWord,
  type ConversationState,
  runCommand,
} from "./commands.ts";
import type {
  CustomName,
  CustomValue,
  DeskEvent,
  DeskListener,
  HistoryLine,
  RunResult,
  WithoutTimestamp,
} from "./events.ts";
import { type ConversationKey, type DeskChannel, isRemembered } from "./keys.ts";
import type { ConversationBook } from "./book.ts";

/** How a submitted line ended. */
export type SubmitOutcome =
  | { kind: "empty" }
  | { kind: "command"; outcome: CommandOutcome }
  | { kind: "answered"; result: RunResult }
  /** `code`: the error's name when a turn ended early (`BudgetSpentError`, `CeilingError`). */
  | { kind: "failed"; message: string; code?: string }
  | { kind: "cancelled" }
  /** The desk closed before the line's turn came. */
  | { kind: "closed" };

/** What a conversation needs from its desk. */
export interface ConversationParts {
  key: ConversationKey;
  channel: DeskChannel;
  state: ConversationState;
  tools: readonly AgentTool[];
  approvals: ApprovalBook;
  /** `ask`: tier-2 tools wait for the owner on the desk; `deny`: no one to ask. */
  approvalMode: "ask" | "deny";
  logger: Logger;
  book: ConversationBook;
  /** Sentences to tell before an answer (budgets past their warning share). */
  budgetNotices(conversation: DeskConversation): Promise<string[]>;
  /** Every event also goes to the desk's subscribers. */
  onEvent(event: DeskEvent, conversation: DeskConversation): void;
}

interface Item {
  text: string;
  resolve(outcome: SubmitOutcome): void;
}

/** A conversation on the desk. */
export class DeskConversation {
  /** `chat`, `tui`, `messenger:<chat>`, `web:<session>`. */
  readonly key: ConversationKey;
  /** Where it happens. */
  readonly channel: DeskChannel;
  #p: ConversationParts;
  #listeners = new Set<DeskListener>();
  #queue: Item[] = [];
  #running = false;
  #closed = false;
  #abort: AbortController | undefined;
  #drained: Promise<void> = Promise.resolve();
  /** Tools the owner allowed for the rest of this session. */
  #allowed = new Set<string>();

  /** Made by the desk (`Desk.open`). */
  constructor(parts: ConversationParts) {
    this.#p = parts;
    this.key = parts.key;
    this.channel = parts.channel;
  }

  /** The state slash commands read and change (the TUI's settings screen reads it too). */
  get state(): ConversationState {
    return this.#p.state;
  }

  /** The session the conversation writes to. */
  get sessionId(): string {
    return this.#p.state.sessionId;
  }

  /** The role that answers. */
  get role(): string {
    return this.#p.state.agent.role;
  }

  /** The agent that answers (its router names the targets). */
  get agent(): Agent {
    return this.#p.state.agent;
  }

  /** Whether an answer or a command is being handled. */
  get busy(): boolean {
    return this.#running;
  }

  /** How many lines wait behind the running one. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Calls `listener` with every event of this conversation; returns the unsubscribe. */
  subscribe(listener: DeskListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Sends what the person typed: a slash command or a message. Handled at once when
   * nothing runs, else queued (an `input.queued` event tells the sender). Resolves
   * when it was handled.
   */
  submit(text: string): Promise<SubmitOutcome> {
    if (text.trim() === "") return Promise.resolve({ kind: "empty" });
    if (this.#closed) return Promise.resolve({ kind: "closed" });
    const trimmed = text.trim();
    if (trimmed.startsWith("/") && commandOf(this.channel, trimmed)?.immediate) {
      return this.#command(trimmed);
    }
    return new Promise((resolve) => {
      this.#queue.push({ text, resolve });
      if (this.#running) {
        this.#emitCustom("input.queued", { position: this.#queue.length, text });
        return;
      }
      this.#running = true;
      this.#drained = this.#drain();
    });
  }

  /** Resolves once nothing runs and nothing waits. */
  idle(): Promise<void> {
    return this.#drained;
  }

  /** Ends the running answer (and its open approval); `false` when none runs. */
  cancel(): boolean {
    const abort = this.#abort;
    if (abort === undefined || abort.signal.aborted) return false;
    abort.abort(new DOMException("The owner cancelled the answer", "AbortError"));
    this.#p.approvals.cancel(this.key);
    return true;
  }

  /** The history of the session (or of `sessionId`): text of user and assistant messages. */
  async history(sessionId: string = this.sessionId): Promise<HistoryLine[]> {
    return historyLines(await this.agent.history(sessionId));
  }

  /** After a key was saved elsewhere (the TUI's settings screen): the agent is built again. */
  keySaved(): void {
    const state = this.#p.state;
    state.agent = state.rebuild(state.agent.role);
  }

  /** Stops taking lines: the running answer is cancelled, queued lines end `closed`. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const item of this.#queue.splice(0)) item.resolve({ kind: "closed" });
    this.cancel();
    await this.#drained;
  }

  async #drain(): Promise<void> {
    try {
      for (let item = this.#queue.shift(); item !== undefined; item = this.#queue.shift()) {
        const text = item.text.trim();
        let outcome: SubmitOutcome;
        try {
          outcome = text.startsWith("/") ? await this.#command(text) : await this.#turn(item.text);
        } catch (error) {
          // A store that failed under a command: the channel shows the sentence.
          this.#p.logger.error(`desk ${this.key}: ${errorMessage(error)}`);
          const message = t(this.#p.state.lang, "internal", { detail: errorMessage(error) });
          this.#emit({ type: "RUN_ERROR", message, code: "internal" });
          outcome = { kind: "failed", message };
        }
        item.resolve(outcome);
      }
    } finally {
      this.#running = false;
    }
  }

  async #command(text: string): Promise<SubmitOutcome> {
    const state = this.#p.state;
    const roleBefore = state.agent.role;
    const outcome = await runCommand(state, text);
    this.#emitCustom("command.result", {
      command: commandWord(text),
      input: text,
      lines: outcome.lines,
      ...(outcome.quit ? { quit: true } : {}),
      ...(outcome.choices ? { choices: outcome.choices } : {}),
    });
    if (outcome.sessionChanged) {
      this.#allowed.clear();
      this.#emitCustom("session.changed", {
        sessionId: state.sessionId,
        role: state.agent.role,
        history: await this.history(),
      });
    }
    if (outcome.sessionChanged || state.agent.role !== roleBefore) await this.#remember();
    return { kind: "command", outcome };
  }

  async #turn(text: string): Promise<SubmitOutcome> {
    const state = this.#p.state;
    const sessionId = state.sessionId;
    const runId = crypto.randomUUID();
    this.#emit({
      type: "RUN_STARTED",
      threadId: sessionId,
      runId,
      metadata: { conversation: this.key, text },
    });
    for (const notice of await this.#p.budgetNotices(this)) {
      this.#emitCustom("notice", { kind: "budget", text: notice });
    }
    const abort = new AbortController();
    this.#abort = abort;
    let open: string | undefined;
    const closeText = () => {
      if (open === undefined) return;
      this.#emit({ type: "TEXT_MESSAGE_END", messageId: open });
      open = undefined;
    };
    try {
      const result = await state.agent.turn(sessionId, text, {
        signal: abort.signal,
        ceiling: state.ceiling,
        onText: (delta) => {
          if (open === undefined) {
            open = crypto.randomUUID();
            this.#emit({ type: "TEXT_MESSAGE_START", messageId: open, role: "assistant" });
          }
          this.#emit({ type: "TEXT_MESSAGE_CONTENT", messageId: open, delta });
        },
        // The text is whole when the model's step ends, before the turn is stored.
        onTextEnd: closeText,
        onToolCall: (name, input, toolCallId) => {
          closeText();
          this.#emit({ type: "TOOL_CALL_START", toolCallId, toolCallName: name });
          this.#emit({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(input) ?? "" });
          this.#emit({ type: "TOOL_CALL_END", toolCallId });
        },
        onToolResult: (_name, output, toolCallId) => {
          this.#emit({
            type: "TOOL_CALL_RESULT",
            messageId: crypto.randomUUID(),
            toolCallId,
            content: JSON.stringify(output) ?? "null",
          });
        },
        onToolRefused: ({ toolCallId, reason }) => {
          this.#emit({
            type: "TOOL_CALL_RESULT",
            messageId: crypto.randomUUID(),
            toolCallId,
            content: JSON.stringify({ declined: true, reason }),
          });
        },
        beforeToolCall: (call) => this.approve(call),
      });
      closeText();
      const runResult: RunResult = {
        text: result.text,
        notices: result.notices,
        reply: result.reply,
        usedRole: result.usedRole,
      };
      this.#emit({
        type: "RUN_FINISHED",
        threadId: sessionId,
        runId,
        outcome: { type: "success" },
        result: runResult,
      });
      return { kind: "answered", result: runResult };
    } catch (error) {
      closeText();
      if (abort.signal.aborted) {
        this.#emit({
          type: "RUN_FINISHED",
          threadId: sessionId,
          runId,
          outcome: { type: "cancelled" },
        });
        return { kind: "cancelled" };
      }
      if (error instanceof TurnEndedError) {
        this.#emit({ type: "RUN_ERROR", message: error.sentence, code: "turn_ended" });
        return { kind: "failed", message: error.sentence, code: error.name };
      }
      throw error;
    } finally {
      this.#abort = undefined;
      this.#p.approvals.cancel(this.key);
    }
  }

  /** The turn's approval hook: the desk's book, or no one to ask. */
  async approve(call: ToolCallCheck): Promise<ToolVerdict> {
    if (this.#p.approvalMode === "deny") return { allow: false, reason: "no_one_to_ask" };
    const tool = call.tool.name;
    if (this.#allowed.has(tool)) return { allow: true };
    const lang = this.#p.state.lang;
    const args = call.input;
    const decision = await this.#p.approvals.ask(
      {
        conversation: this.key,
        tool,
        toolCallId: call.toolCallId,
        message: approvalSentence(call.tool, tool, args, lang),
        summary: summariseArgs(args),
        args: JSON.stringify(args) ?? "",
      },
      (request) => this.#emitCustom("approval.requested", request),
      (decided) => this.#emitCustom("approval.decided", decided),
    );
    if (decision === "session") this.#allowed.add(tool);
    if (decision === "once" || decision === "session") return { allow: true };
    return { allow: false, reason: decision === "deny" ? "denied" : decision };
  }

  /** Remembers the session and role of a keyed conversation across restarts. */
  async #remember(): Promise<void> {
    if (!isRemembered(this.key)) return;
    const state = this.#p.state;
    await this.#p.book.set(this.key, { session_id: state.sessionId, role: state.agent.role });
  }

  #emitCustom<N extends CustomName>(name: N, value: CustomValue<N>): void {
    this.#emit({ type: "CUSTOM", name, value } as WithoutTimestamp<DeskEvent>);
  }

  #emit(event: WithoutTimestamp<DeskEvent>): void {
    const full = { ...event, timestamp: this.#p.state.now() } as DeskEvent;
    for (const listener of [...this.#listeners]) {
      try {
        listener(full);
      } catch (error) {
        this.#p.logger.error(`desk ${this.key}: a listener failed: ${errorMessage(error)}`);
      }
    }
    this.#p.onEvent(full, this);
  }
}

/**
 * The text of the user and assistant messages of a stored conversation, oldest first
 * (tool calls and results left out).
 */
export function historyLines(messages: readonly SessionMessage[]): HistoryLine[] {
  const lines: HistoryLine[] = [];
  for (const message of messages) {
    if (message.role !== "user" && message.role !== "assistant") continue;
    const text = typeof message.content === "string"
      ? message.content
      : message.content.map((part) => ("text" in part ? part.text : "")).join("");
    if (text.trim() !== "") lines.push({ role: message.role, text: text.trim() });
  }
  return lines;
}
