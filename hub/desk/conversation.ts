/**
 * One conversation on the desk: a session, the agent that answers in it, and the
 * queue of what the person sent. A channel reads it through {@linkcode
 * DeskConversation.snapshot} and {@linkcode DeskConversation.choices}, listens to its
 * events, and changes it only through intents:
 *
 * - `submit(text)`: a message or a slash command, handled at once when nothing runs,
 *   or queued behind the running answer (in order, never dropped; the sender is told);
 * - `cancel()`: ends the running answer; its spend is in the ledger like any call's;
 * - `decide(id, decision)`: an approval of this conversation;
 * - `pick(kind, value)`: a picker's choice (a session, a role), queued like a command;
 * - `command(text, {secret})`: a slash command a screen runs for the person at once
 *   (the TUI's settings screen saving a key).
 *
 * Slash commands return effects (another session, another role, a saved key, stop,
 * quit) that only the conversation applies. Approvals are asked through a hook given
 * to each turn (`beforeToolCall`), never wired into the agent.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { Ledger } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { SessionMessage, SessionStore } from "../sessions/mod.ts";
import type { AgentTool, ToolCallCheck, ToolVerdict } from "../tools/mod.ts";
import type { Agent } from "../agent/mod.ts";
import { TurnEndedError } from "../router/mod.ts";
import { t } from "./_messages.ts";
import { type ApprovalBook, approvalSentence, type PersonDecision } from "./approvals.ts";
import { summariseArgs } from "./approvals.ts";
import { type Choice, listRoles, listSessions } from "./choices.ts";
import {
  type CommandContext,
  type CommandEffect,
  commandOf,
  type CommandOutcome,
  type CommandSpec,
  commandWord,
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
import { budgetFacts, type ConversationSnapshot, frozen } from "./snapshot.ts";

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

/** The pickers every conversation offers; a plug-in may add its own (`settings`). */
export type ChoiceKind = "sessions" | "roles" | (string & Record<never, never>);

/** What a conversation is made of; the desk gives it. */
export interface ConversationParts {
  key: ConversationKey;
  channel: DeskChannel;
  config: AgentConfig;
  /** The desk's environment: a saved key is added to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  sessions: SessionStore;
  ledger: Ledger | undefined;
  /** The session it opens on. */
  sessionId: string;
  /** The role it opens with. */
  role: string;
  /** The role fixed by the channel (`--role`), which `/resume` then keeps. */
  fixedRole: string | undefined;
  /** A ceiling on what the session may spend (a job's run): no call passes it. */
  ceiling?: { usd: number; sinceMs: number } | undefined;
  /** Builds the agent for `role` (its approvals are asked per turn). */
  build(role: string): Agent;
  /** The slash commands it offers, in `/help` order. */
  commands: readonly CommandSpec[];
  tools: readonly AgentTool[];
  approvals: ApprovalBook;
  /** `ask`: tier-2 tools wait for the owner on the desk; `deny`: no one to ask. */
  approvalMode: "ask" | "deny";
  logger: Logger;
  book: ConversationBook;
  /** Asks for a secret without echoing it (a terminal). */
  secret?: ((prompt: string) => Promise<string | null>) | undefined;
  /** How many columns a line may take (a terminal's width). */
  columns?: (() => number) | undefined;
  /** Sentences to tell before an answer (budgets past their warning share). */
  budgetNotices(conversation: DeskConversation): Promise<string[]>;
  /** Every event also goes to the desk's subscribers. */
  onEvent(event: DeskEvent, conversation: DeskConversation): void;
  /** The conversation closed: the desk forgets it. */
  onClosed(conversation: DeskConversation): void;
  now(): number;
}

interface Item {
  id: string;
  text: string;
  resolve(outcome: SubmitOutcome): void;
}

/** A conversation on the desk. */
export class DeskConversation {
  /** `chat`, `tui`, `messenger:<chat>`, `web:<session>`, `job:<name>`. */
  readonly key: ConversationKey;
  /** Where it happens. */
  readonly channel: DeskChannel;
  #p: ConversationParts;
  #sessionId: string;
  #agent: Agent;
  #listeners = new Set<DeskListener>();
  #queue: Item[] = [];
  #nextId = 1;
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
    this.#sessionId = parts.sessionId;
    this.#agent = parts.build(parts.role);
  }

  /** The session the conversation writes to. */
  get sessionId(): string {
    return this.#sessionId;
  }

  /** The role that answers. */
  get role(): string {
    return this.#agent.role;
  }

  /** Whether an answer or a command is being handled. */
  get busy(): boolean {
    return this.#running;
  }

  /** How many lines wait behind the running one. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** The conversation as it is now, read-only. */
  snapshot(): ConversationSnapshot {
    const role = this.#agent.role;
    const target = this.#agent.router.target(role);
    return frozen({
      key: this.key,
      channel: this.channel,
      sessionId: this.#sessionId,
      role,
      provider: target.provider,
      model: target.model_id,
      budget: budgetFacts(this.#p.config, this.#p.ledger, role, this.#p.now()),
      busy: this.#running,
      queue: this.#queue.map((item) => ({ id: item.id, text: item.text })),
      approvals: this.#p.approvals.list()
        .filter((a) => a.conversation === this.key)
        .map((a) => ({ ...a })),
    });
  }

  /**
   * What a picker offers: `sessions` (the list `/resume` prints), `roles` (with where
   * each goes, the current one marked), or a plug-in's kind (`settings`).
   *
   * @throws {RangeError} a kind no picker has.
   */
  async choices(kind: ChoiceKind): Promise<Choice[]> {
    if (kind === "sessions") return await listSessions(this.#p.sessions);
    if (kind === "roles") {
      return listRoles(Object.keys(this.#p.config.models.roles), this.#agent.role, (r) => {
        const target = this.#agent.router.target(r);
        return { provider: target.provider, model: target.model_id };
      });
    }
    const spec = this.#p.commands.find((c) => c.choices?.kind === kind);
    if (spec?.choices === undefined) throw new RangeError(`Cannot list choices: no '${kind}'`);
    return await spec.choices.list(this.#context());
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
    if (trimmed.startsWith("/") && commandOf(this.#p.commands, trimmed)?.immediate) {
      return this.#command(trimmed);
    }
    return new Promise((resolve) => {
      const id = `q${this.#nextId++}`;
      this.#queue.push({ id, text, resolve });
      if (this.#running) {
        this.#emitCustom("input.queued", { id, position: this.#queue.length, text });
        return;
      }
      this.#running = true;
      this.#drained = this.#drain();
    });
  }

  /**
   * A picker's choice: `sessions` goes back to the session `value`, `roles` answers
   * with the role `value` from now on. Queued like a command the person typed.
   *
   * @throws {RangeError} a kind that cannot be picked this way.
   */
  pick(kind: "sessions" | "roles", value: string): Promise<SubmitOutcome> {
    const word = kind === "sessions" ? "/resume" : kind === "roles" ? "/model" : undefined;
    if (word === undefined) throw new RangeError(`Cannot pick: '${kind}' is not a picker`);
    return this.submit(`${word} ${value}`);
  }

  /**
   * Runs a slash command for the person now, not behind the running answer (a screen's
   * action, such as the TUI's settings screen saving a key): `secret` answers the
   * command's hidden prompt. Its output is told like any command's.
   *
   * @throws {TypeError} `text` is not a slash command.
   */
  command(text: string, options: { secret?: string } = {}): Promise<SubmitOutcome> {
    const trimmed = text.trim();
    if (!trimmed.startsWith("/")) {
      throw new TypeError(`Cannot run '${trimmed}': a command starts with '/'`);
    }
    if (this.#closed) return Promise.resolve({ kind: "closed" });
    const secret = options.secret;
    return this.#command(trimmed, secret === undefined ? undefined : () => Promise.resolve(secret));
  }

  /**
   * Decides the open approval `id` of this conversation (`by` names who, for the
   * record); `false` when it is not open here (decided, expired, or another's).
   */
  decide(id: string, decision: PersonDecision, by?: string): boolean {
    const open = this.#p.approvals.list().some((a) => a.id === id && a.conversation === this.key);
    return open && this.#p.approvals.decide(id, decision, by);
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
  async history(sessionId: string = this.#sessionId): Promise<HistoryLine[]> {
    return historyLines(await this.#agent.history(sessionId));
  }

  /**
   * Stops taking lines: the running answer is cancelled, queued lines end `closed`, and
   * the desk forgets the conversation (its key opens a new one).
   */
  async close(): Promise<void> {
    if (!this.#closed) this.#p.onClosed(this);
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
          const message = t(this.#p.lang, "internal", { detail: errorMessage(error) });
          this.#emit({ type: "RUN_ERROR", message, code: "internal" });
          outcome = { kind: "failed", message };
        }
        item.resolve(outcome);
      }
    } finally {
      this.#running = false;
    }
  }

  /** What a slash command reads. */
  #context(secret?: (prompt: string) => Promise<string | null>): CommandContext {
    const p = this.#p;
    const agent = this.#agent;
    return {
      channel: this.channel,
      lang: p.lang,
      config: p.config,
      env: p.env,
      paths: p.paths,
      profile: p.profile,
      sessions: p.sessions,
      ledger: p.ledger,
      sessionId: this.#sessionId,
      role: agent.role,
      fixedRole: p.fixedRole,
      running: this.#abort !== undefined,
      target: (role) => {
        const target = agent.router.target(role);
        return { provider: target.provider, model: target.model_id };
      },
      missingCredential: (role) => agent.router.missingCredentialSentence(role),
      messageCount: async (sessionId) => (await agent.history(sessionId)).length,
      commands: () => p.commands,
      secret: secret ?? p.secret,
      columns: p.columns,
      now: p.now,
    };
  }

  async #command(
    text: string,
    secret?: (prompt: string) => Promise<string | null>,
  ): Promise<SubmitOutcome> {
    const result = await runCommand(this.#context(secret), text);
    const applied = this.#apply(result.effects ?? []);
    const outcome: CommandOutcome = {
      lines: result.lines,
      ...(applied.quit ? { quit: true } : {}),
      ...(applied.sessionChanged ? { sessionChanged: true } : {}),
      ...(result.choices ? { choices: result.choices } : {}),
    };
    this.#emitCustom("command.result", {
      command: commandWord(text),
      input: text,
      lines: outcome.lines,
      ...(outcome.quit ? { quit: true } : {}),
      ...(outcome.choices ? { choices: outcome.choices } : {}),
    });
    if (applied.sessionChanged) {
      this.#emitCustom("session.changed", {
        sessionId: this.#sessionId,
        role: this.#agent.role,
        history: await this.history(),
      });
    }
    if (applied.sessionChanged || applied.roleChanged) await this.#remember();
    return { kind: "command", outcome };
  }

  /** Applies a command's effects, in order: the one place the conversation changes. */
  #apply(
    effects: readonly CommandEffect[],
  ): { quit: boolean; sessionChanged: boolean; roleChanged: boolean } {
    const done = { quit: false, sessionChanged: false, roleChanged: false };
    for (const effect of effects) {
      switch (effect.type) {
        case "session":
          this.#sessionId = effect.sessionId;
          if (effect.role !== undefined) this.#agent.role = effect.role;
          this.#allowed.clear();
          done.sessionChanged = true;
          break;
        case "role":
          done.roleChanged ||= this.#agent.role !== effect.role;
          this.#agent.role = effect.role;
          break;
        case "env":
          this.#p.env[effect.name] = effect.value;
          // New credentials change what answers: the fallbacks are decided again.
          this.#agent.router.reload();
          this.#agent = this.#p.build(this.#agent.role);
          break;
        case "stop":
          this.cancel();
          break;
        case "quit":
          done.quit = true;
          break;
      }
    }
    return done;
  }

  async #turn(text: string): Promise<SubmitOutcome> {
    const sessionId = this.#sessionId;
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
      const result = await this.#agent.turn(sessionId, text, {
        signal: abort.signal,
        ceiling: this.#p.ceiling,
        // Approvals are this turn's: asked on the desk, or refused where no one can be.
        beforeToolCall: (call) => this.#beforeTool(call),
        onText: (delta) => {
          if (open === undefined) {
            open = crypto.randomUUID();
            this.#emit({ type: "TEXT_MESSAGE_START", messageId: open, role: "assistant" });
          }
          this.#emit({ type: "TEXT_MESSAGE_CONTENT", messageId: open, delta });
        },
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
        // A call that did not run: told (a pipe prints it), and its result says so.
        onToolRefused: ({ toolName, toolCallId, reason }) => {
          this.#emitCustom("tool.refused", { toolCallId, tool: toolName, reason });
          this.#emit({
            type: "TOOL_CALL_RESULT",
            messageId: crypto.randomUUID(),
            toolCallId,
            content: JSON.stringify({ declined: true, reason }),
          });
        },
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

  /**
   * This turn's hook before a tier-2 tool runs (the tool loop asks one call at a time):
   * allowed for the session already, or asked on the desk; refused where no one can be
   * asked. The loop tells a refusal back through `onToolRefused`.
   */
  async #beforeTool(call: ToolCallCheck): Promise<ToolVerdict> {
    if (this.#p.approvalMode === "deny") return { allow: false, reason: "no_one_to_ask" };
    const tool = call.tool.name;
    if (this.#allowed.has(tool)) return { allow: true };
    const lang = this.#p.lang;
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
    await this.#p.book.set(this.key, { session_id: this.#sessionId, role: this.#agent.role });
  }

  #emitCustom<N extends CustomName>(name: N, value: CustomValue<N>): void {
    this.#emit({ type: "CUSTOM", name, value } as WithoutTimestamp<DeskEvent>);
  }

  /** Tells every listener; one that throws is logged and never fails the turn. */
  #emit(event: WithoutTimestamp<DeskEvent>): void {
    const full = { ...event, timestamp: this.#p.now() } as DeskEvent;
    for (const listener of [...this.#listeners]) {
      try {
        listener(full);
      } catch (error) {
        this.#p.logger.error(`desk ${this.key}: a listener failed: ${errorMessage(error)}`);
      }
    }
    try {
      this.#p.onEvent(full, this);
    } catch (error) {
      this.#p.logger.error(`desk ${this.key}: a desk listener failed: ${errorMessage(error)}`);
    }
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
