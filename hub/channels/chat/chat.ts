/**
 * `agent chat`, the terminal conversation: an adapter over the desk. It reads lines
 * (from a terminal, also while an answer streams, or one per line from a pipe), hands
 * each to the desk's `chat` conversation and prints what the desk tells: the answer as
 * it streams, tool calls, queued messages, approvals (y/N in a terminal; a pipe cannot
 * answer, so tier-2 tools are refused), slash commands' output and notices.
 *
 * Everything that can stop it (invalid role, unknown session, a missing key) is
 * checked before anything opens, and ends with one sentence and exit 2.
 *
 * @module
 */
import { UserError } from "../../user_error.ts";
import type { AgentConfig } from "../../config/types.ts";
import type { Lang } from "../../i18n.ts";
import type { Logger } from "../../log.ts";
import { type Ledger, LedgerError } from "../../ledger/mod.ts";
import { ledgerErrorSentence, ledgerReadOnlySentence } from "../../spend/mod.ts";
import type { AgentPaths } from "../../paths.ts";
import type { SessionStore } from "../../sessions/mod.ts";
import { type AgentTool, ApprovalInterrupted } from "../../tools/mod.ts";
import {
  describeRole,
  Desk,
  type DeskConversation,
  type DeskEvent,
  deskSentence as t,
  type HistoryLine,
  missingCredentialOf,
  pickSession,
} from "../../desk/mod.ts";
import { followHubEvents } from "../../control/mod.ts";
import { type OwnerEvent, ownerEventLine } from "../../events/mod.ts";
import type { ChatInput } from "./input.ts";
import { MarkdownPrinter } from "../../terminal/printer.ts";
import { toolOutcomeLine } from "../../terminal/tool_outcome.ts";
import { chatSentence } from "./_messages.ts";

/** Options for {@linkcode runChat}. */
export interface ChatOptions {
  config: AgentConfig;
  /** The merged environment; `/settings set` adds to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  logger: Logger;
  input: ChatInput;
  /** Writes text as is (answers stream through it). */
  write(text: string): void;
  /**
   * The terminal's width: answers are then drawn as Markdown, wrapped at words. Absent
   * (a pipe, a script), answers are written as the model sent them.
   */
  columns?: (() => number) | undefined;
  /** Paint Markdown styles with ANSI codes (a terminal without `NO_COLOR`). @default false */
  color?: boolean | undefined;
  /** `--role`. */
  role?: string | undefined;
  /** `--resume [ID]`: `true` when bare. */
  resume?: string | true | undefined;
  /** `--session ID`. */
  session?: string | undefined;
  /** Opens the spend ledger (after every check passed). */
  openLedger(): Ledger;
  /** The tools offered (the registry's enabled `agent.tools`), loaded after the checks. */
  tools(): Promise<AgentTool[]>;
  /** @default the store `[sessions] backend` names */
  sessions?: SessionStore | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/** How many messages of a resumed session chat shows. */
const HISTORY_SHOWN = 10;

/**
 * Runs chat to the end; returns the exit code (0, or 130 when left with Ctrl-C at the
 * prompt or at an approval). What stops it before anything opens is thrown as a
 * `UserError`: exit 2 for an unknown session or role or a missing key, 1 when the
 * ledger cannot be opened.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  const { lang, input } = options;
  // --- checks before anything opens -------------------------------------------------
  const picked = await pickSession(options);
  const missing = missingCredentialOf(options, picked.role);
  // The Errors table's line, the same one `agent doctor` prints for this role.
  if (missing !== undefined) throw new UserError(`fail ${missing}`, 2);

  // --- open ---------------------------------------------------------------------------
  let ledger: Ledger;
  try {
    ledger = options.openLedger();
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    throw new UserError(ledgerErrorSentence(lang, error), 1, { cause: error });
  }
  const desk = new Desk({
    config: options.config,
    env: options.env,
    paths: options.paths,
    lang,
    logger: options.logger,
    ledger,
    tools: await options.tools(),
    profile: options.profile,
    sessions: picked.sessions,
    now: options.now,
  });
  const conversation = await desk.open("chat", {
    picked,
    ...(input.interactive ? { secret: (prompt: string) => input.secret(prompt) } : {}),
    columns: options.columns,
    approvals: input.interactive ? "ask" : "deny",
  });
  const view = new ChatView(options, desk, conversation);
  // A home this process may not write: budgets are checked, the calls cannot be counted.
  if (ledger.readOnly) view.line(ledgerReadOnlySentence(lang, ledger.file));
  const unsubscribe = conversation.subscribe((event) => view.render(event));
  const following = new AbortController();
  try {
    if (input.interactive) {
      view.line(t(lang, "header", {
        session: picked.sessionId,
        ...describeRole(conversation.agent, picked.role),
      }));
      if (picked.resumed) {
        const history = await conversation.history();
        view.line(t(lang, "resumed", { session: picked.sessionId, count: history.length }));
      }
      if (picked.notice) view.line(picked.notice);
      // What the hub tells the owner meanwhile (a contact request) shows as it happens.
      void followHubEvents({
        port: options.config.hub.port,
        dataDir: options.paths.dataDir,
        signal: following.signal,
        onEvent: (event) => view.ownerEvent(event),
      });
      return await terminalLoop(conversation, input, view);
    }
    return await pipeLoop(conversation, input);
  } finally {
    following.abort();
    unsubscribe();
    await desk.close();
    input.close();
    ledger.close();
  }
}

/** A terminal: lines are taken as they are typed, also while an answer streams. */
function terminalLoop(
  conversation: DeskConversation,
  input: ChatInput,
  view: ChatView,
): Promise<number> {
  return new Promise((resolve) => {
    let ended = false;
    const finish = (code: number) => {
      if (ended) return;
      ended = true;
      if (code === 130) view.write("\n");
      resolve(code);
    };
    const prompt = () => {
      if (!ended && !conversation.busy) input.prompt("› ");
    };
    view.interrupted = () => {
      conversation.cancel();
      finish(130);
    };
    // At the prompt, a first Ctrl-C throws away the line being typed; a second in a row
    // leaves, the way a shell's does.
    let armed = false;
    input.listen({
      line(text) {
        armed = false;
        if (text.trim() === "") return prompt();
        void conversation.submit(text).then((outcome) => {
          if (outcome.kind === "command" && outcome.outcome.quit) finish(0);
          else prompt();
        });
      },
      // Ctrl-C cancels the answer; at the prompt it clears the line, then leaves.
      interrupt() {
        if (conversation.busy) {
          conversation.cancel();
          return;
        }
        if (armed) return finish(130);
        armed = true;
        input.clearLine?.();
        view.write(`\n${chatSentence(view.lang, "ctrl_c_again")}\n`);
        prompt();
      },
      end() {
        void conversation.idle().then(() => finish(0));
      },
    });
    prompt();
  });
}

/** A pipe: one message per line, each answered before the next is read. */
async function pipeLoop(conversation: DeskConversation, input: ChatInput): Promise<number> {
  const stop = input.onInterrupt(() => {
    if (!conversation.cancel()) Deno.exit(130);
  });
  try {
    for (let text = await input.readLine(""); text !== null; text = await input.readLine("")) {
      const outcome = await conversation.submit(text);
      if (outcome.kind === "command" && outcome.outcome.quit) return 0;
    }
    return 0;
  } finally {
    stop();
  }
}

/** Prints a conversation's events as chat shows them. */
class ChatView {
  #o: ChatOptions;
  #desk: Desk;
  #conversation: DeskConversation;
  /** Owner events that came while an answer ran: told once it ends. */
  #held: string[] = [];
  /** Whether the answer has printed text since its start or its last tool line. */
  #wrote = false;
  /** Withdraws the y/N question when its approval ends elsewhere. */
  #question: AbortController | undefined;
  /** Ctrl-C at an approval: chat ends with 130. */
  interrupted: () => void = () => {};
  /** Answers drawn as Markdown (a person at a terminal of known width). */
  #printer: MarkdownPrinter | undefined;
  /** The tool of each call running now, for its outcome line. */
  #tools = new Map<string, string>();

  constructor(options: ChatOptions, desk: Desk, conversation: DeskConversation) {
    this.#o = options;
    this.#desk = desk;
    this.#conversation = conversation;
    const columns = options.columns;
    if (options.input.interactive && columns !== undefined) {
      this.#printer = new MarkdownPrinter({
        columns,
        color: options.color ?? false,
        write: (text) => this.write(text),
      });
    }
  }

  get lang(): Lang {
    return this.#o.lang;
  }

  /**
   * Ends the answer's text before a line of chat's own: the printer prints its open
   * row (which ends the line); raw text gets a line break when it wrote something.
   */
  #gap(): string {
    if (this.#printer !== undefined) {
      this.#printer.end();
      this.#wrote = false;
      return "";
    }
    return this.#wrote ? "\n" : "";
  }

  /**
   * An owner event from the hub: a line at the prompt, or after the answer when one
   * runs. Budget warnings are left out: chat tells its own before an answer.
   */
  ownerEvent(event: OwnerEvent): void {
    if (event.type === "budget.warning" || event.type === "budget.spent") return;
    const text = ownerEventLine(this.#o.lang, event);
    if (this.#conversation.busy) {
      this.#held.push(text);
      return;
    }
    // Over the prompt's line, which then comes back with what was typed on it.
    this.write(`\r\x1b[2K${text}\n`);
    this.#o.input.prompt("› ");
  }

  #tellHeld(): void {
    for (const text of this.#held.splice(0)) this.line(text);
  }

  write(text: string): void {
    this.#o.write(text);
  }

  line(text: string): void {
    this.#o.write(`${text}\n`);
  }

  render(event: DeskEvent): void {
    const { lang, input } = this.#o;
    const person = input.interactive;
    const gap = () => this.#gap();
    switch (event.type) {
      case "RUN_STARTED":
        this.#wrote = false;
        return;
      case "TEXT_MESSAGE_CONTENT": {
        if (this.#printer !== undefined) {
          this.#printer.append(event.delta);
          this.#wrote = this.#printer.started;
          return;
        }
        const text = this.#wrote ? event.delta : event.delta.replace(/^\s+/, "");
        if (text === "") return;
        this.#wrote = true;
        return this.write(text);
      }
      case "TOOL_CALL_START":
        // A person sees which tool runs; a script reading one answer per line does not.
        if (!person) return;
        this.#tools.set(event.toolCallId, event.toolCallName);
        this.write(`${gap()}${t(lang, "tool_call", { tool: event.toolCallName })}\n`);
        this.#wrote = false;
        return;
      case "TOOL_CALL_RESULT": {
        if (!person) return;
        const tool = this.#tools.get(event.toolCallId) ?? "";
        this.#tools.delete(event.toolCallId);
        return this.line(toolOutcomeLine(lang, tool, event.content));
      }
      case "RUN_FINISHED": {
        if (event.outcome.type === "cancelled") this.write(`${gap()}${t(lang, "cancelled")}\n`);
        else {
          const notices = event.result?.notices ?? [];
          const printed = this.#printer !== undefined;
          const end = gap();
          if (notices.length > 0) {
            this.write(`${end}${printed ? "\n" : end}${notices.join("\n")}\n`);
          } else if (!printed) this.write("\n");
        }
        this.#tellHeld();
        if (person) this.write("\n");
        return;
      }
      case "RUN_ERROR":
        this.write(`${gap()}${event.message}\n`);
        this.#tellHeld();
        if (person) this.write("\n");
        return;
      case "CUSTOM":
        return this.#custom(event);
    }
  }

  #custom(event: Extract<DeskEvent, { type: "CUSTOM" }>): void {
    const { lang, input } = this.#o;
    switch (event.name) {
      case "notice":
        return this.line(event.value.text);
      case "input.queued": {
        const before = event.value.position - 1;
        if (input.interactive) {
          this.line(before === 0 ? t(lang, "queued") : t(lang, "queued_many", { before }));
        }
        return;
      }
      case "command.result":
        for (const line of event.value.lines) this.line(line);
        return;
      case "session.changed":
        if (input.interactive) this.#history(event.value.history);
        return;
      case "approval.requested":
        return void this.#ask(event.value.id, event.value.message);
      case "approval.decided":
        this.#question?.abort();
        if (event.value.decision === "expired") {
          this.line(`\n${t(lang, "approval_expired", { tool: event.value.tool })}`);
        }
        return;
    }
  }

  async #ask(id: string, message: string): Promise<void> {
    const question = new AbortController();
    this.#question = question;
    try {
      const yes = await this.#o.input.confirm(
        t(this.#o.lang, "approve_question", { message }),
        question.signal,
      );
      if (!question.signal.aborted) this.#desk.decide(id, yes ? "once" : "deny", "terminal");
    } catch (error) {
      if (!(error instanceof ApprovalInterrupted)) throw error;
      this.interrupted();
    } finally {
      if (this.#question === question) this.#question = undefined;
    }
  }

  #history(history: HistoryLine[]): void {
    const shown = history.slice(-HISTORY_SHOWN);
    if (shown.length === 0) return;
    this.line(t(this.#o.lang, "history_title"));
    if (history.length > shown.length) {
      this.line(t(this.#o.lang, "history_more", { count: history.length - shown.length }));
    }
    for (const entry of shown) this.line(entry.role === "user" ? `› ${entry.text}` : entry.text);
  }
}
