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
import type { ToolCallCheck, ToolVerdict } from "../tools/mod.ts";
import type { Agent } from "../agent/mod.ts";
import { TurnEndedError } from "../router/mod.ts";
import { t } from "./_messages.ts";
import { askOwner, type PersonDecision } from "./approvals.ts";
import { type Choice, listRoles, listSessions } from "./choices.ts";
import {
  type CommandContext,
  type CommandEffect,
  commandOf,
  type CommandOutcome,
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
import { historyLines } from "./history.ts";
import { LineQueue, type SubmitOutcome } from "./queue.ts";
import { runEvents } from "./run_events.ts";
import { type ConversationKey, type DeskChannel, isRemembered } from "./keys.ts";
import { commandContext, type ConversationParts } from "./parts.ts";
import { budgetFacts, type ConversationSnapshot, frozen } from "./snapshot.ts";

export type { SubmitOutcome } from "./queue.ts";

/** The pickers every conversation offers; a plug-in may add its own (`settings`). */
export type ChoiceKind = "sessions" | "roles" | (string & Record<never, never>);

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
  #queue: LineQueue;
  #closed = false;
  #abort: AbortController | undefined;
  /** What the owner allowed for the rest of this session: tool names, or a tool's scope. */
  #allowed = new Set<string>();

  /** Made by the desk (`Desk.open`). */
  constructor(parts: ConversationParts) {
    this.#p = parts;
    this.key = parts.key;
    this.channel = parts.channel;
    this.#sessionId = parts.sessionId;
    this.#agent = parts.build(parts.role);
    this.#queue = new LineQueue(
      (text, untrusted) => this.#handle(text, untrusted),
      (line) => this.#emitCustom("input.queued", line),
    );
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
    return this.#queue.busy;
  }

  /** How many lines wait behind the running one. */
  get waiting(): number {
    return this.#queue.lines().length;
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
      busy: this.#queue.busy,
      queue: this.#queue.lines(),
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
    if (kind === "sessions") return await listSessions(this.#p.sessions, { lang: this.#p.lang });
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
   * when it was handled. `untrusted`: the message itself holds outside content (a mail
   * with attached or forwarded text), so nothing its turn asks to remember is kept
   * without the owner's approval.
   */
  submit(text: string, options: { untrusted?: boolean | undefined } = {}): Promise<SubmitOutcome> {
    if (text.trim() === "") return Promise.resolve({ kind: "empty" });
    if (this.#closed) return Promise.resolve({ kind: "closed" });
    const trimmed = text.trim();
    if (trimmed.startsWith("/") && commandOf(this.#p.commands, trimmed)?.immediate) {
      return this.#command(trimmed);
    }
    return this.#queue.push(text, options.untrusted === true);
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
    return this.#queue.idle();
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
    if (!this.#closed) this.#p.onClosed();
    this.#closed = true;
    this.#queue.close();
    this.cancel();
    await this.#queue.idle();
  }

  /** One line of the queue: a slash command or a message's turn; never throws. */
  async #handle(line: string, untrusted = false): Promise<SubmitOutcome> {
    const text = line.trim();
    try {
      return text.startsWith("/") ? await this.#command(text) : await this.#turn(line, untrusted);
    } catch (error) {
      // A store that failed under a command: the channel shows the sentence.
      this.#p.logger.error(`desk ${this.key}: ${errorMessage(error)}`);
      const message = t(this.#p.lang, "internal", { detail: errorMessage(error) });
      this.#emit({ type: "RUN_ERROR", message, code: "internal" });
      return { kind: "failed", message };
    }
  }

  /** What a slash command reads of the conversation now. */
  #context(secret?: (prompt: string) => Promise<string | null>): CommandContext {
    return commandContext(this.#p, {
      sessionId: this.#sessionId,
      agent: this.#agent,
      running: this.#abort !== undefined,
      secret,
    });
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

  async #turn(text: string, untrusted: boolean): Promise<SubmitOutcome> {
    const sessionId = this.#sessionId;
    const runId = crypto.randomUUID();
    this.#emit({
      type: "RUN_STARTED",
      threadId: sessionId,
      runId,
      metadata: { conversation: this.key, text },
    });
    for (const notice of await this.#p.budgetNotices()) {
      this.#emitCustom("notice", { kind: "budget", text: notice });
    }
    const abort = new AbortController();
    this.#abort = abort;
    const { callbacks, closeText } = runEvents((event) => this.#emit(event));
    try {
      const result = await this.#agent.turn(sessionId, text, {
        signal: abort.signal,
        ceiling: this.#p.ceiling,
        peer: this.#p.peer,
        untrusted,
        // Approvals are this turn's: asked on the desk; where no one can be asked there is
        // no hook, and the loop refuses every call that needs one (no_one_to_ask).
        beforeToolCall: this.#p.approvalMode === "deny"
          ? undefined
          : (call) => this.#beforeTool(call),
        onRecalled: (recalled) => {
          if (recalled.ids.length > 0) this.#emitCustom("memory.recalled", recalled);
        },
        ...callbacks,
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
    const scope = call.tool.sessionScope?.(call.input) ?? call.tool.name;
    if (this.#allowed.has(scope)) return { allow: true };
    const decision = await askOwner(this.#p.approvals, call, {
      conversation: this.key,
      lang: this.#p.lang,
      onOpen: (request) => this.#emitCustom("approval.requested", request),
      onDecided: (decided) => this.#emitCustom("approval.decided", decided),
    });
    if (decision === "session") this.#allowed.add(scope);
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
      this.#p.onEvent(full);
    } catch (error) {
      this.#p.logger.error(`desk ${this.key}: a desk listener failed: ${errorMessage(error)}`);
    }
  }
}
