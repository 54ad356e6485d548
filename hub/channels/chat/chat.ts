/**
 * `agent chat`'s adapter over its desk conversation: it turns lines into the
 * conversation's intents and prints its events ({@linkcode ChatView}). At a terminal,
 * lines are taken as they are typed, also while an answer streams (queued by the
 * desk); from a pipe, one message per line, each answered before the next is read, and
 * tier-2 tools are refused (no one can be asked).
 *
 * An approval at a terminal is the prompt `<sentence> Allow? [y/N]`, answered by a line
 * typed for it: `y` (`yes`, `e`, `evet`) allows it once, `n` (`no`, `h`, `hayır`) or an
 * empty line denies it. A line entered in the first 500 ms after the question shows was
 * on its way before it, so it never answers it; any line that is not an answer is a
 * message, queued and told, and the question shows again.
 *
 * The process around it (the session picked, the ledger, the desk, the hub's events)
 * is `hub/app/terminal_chat.ts`.
 *
 * @module
 */
import type { Lang } from "../../i18n.ts";
import {
  type ApprovalRequest,
  type DeskConversation,
  type DeskEvent,
  deskSentence as t,
  isCustom,
} from "../../desk/mod.ts";
import type { OwnerEvent } from "../../events/mod.ts";
import type { ChatInput } from "../../terminal/input.ts";
import { chatSentence } from "./_messages.ts";
import { ChatView } from "./view.ts";

/** How long after an approval shows no line answers it, in ms. */
export const ANSWER_AFTER_MS = 500;

const YES = /^(y|yes|e|evet)$/i;
const NO = /^(n|no|h|hayır|hayir)$/i;

/** Options for {@linkcode TerminalChat}. */
export interface TerminalChatOptions {
  lang: Lang;
  input: ChatInput;
  /** Writes text as is to standard output (answers stream through it). */
  write(text: string): void;
  /** Writes to standard error: a pipe's line for a tool that did not run. */
  writeError(text: string): void;
  /** The terminal's width: answers are then drawn as Markdown. Absent: raw text. */
  columns?: (() => number) | undefined;
  /** Paint Markdown styles with ANSI codes. @default false */
  color?: boolean | undefined;
  /** @default performance.now */
  clock?: (() => number) | undefined;
}

/** One approval waiting for this terminal's answer. */
interface Asking {
  request: ApprovalRequest;
  /** When its question showed (the clock's ms). */
  shownAt: number;
}

/** Terminal chat over one desk conversation. */
export class TerminalChat {
  #conversation: DeskConversation;
  #o: TerminalChatOptions;
  #view: ChatView;
  #unsubscribe: () => void;
  /** The approvals waiting here, oldest first: the first one's question shows. */
  #asking: Asking[] = [];
  #ended = false;
  #clock: () => number;

  /** Starts rendering `conversation`'s events. */
  constructor(conversation: DeskConversation, options: TerminalChatOptions) {
    this.#conversation = conversation;
    this.#o = options;
    this.#clock = options.clock ?? (() => performance.now());
    this.#view = new ChatView({
      lang: options.lang,
      person: options.input.interactive,
      write: options.write,
      writeError: options.writeError,
      columns: options.columns,
      color: options.color,
      busy: () => conversation.busy,
      prompt: () => this.#prompt(),
    });
    this.#unsubscribe = conversation.subscribe((event) => this.#event(event));
  }

  /** Prints a line of the process's own (the header, a notice). */
  line(text: string): void {
    this.#view.line(text);
  }

  /** An owner event from the hub, shown as chat shows them. */
  ownerEvent(event: OwnerEvent): void {
    this.#view.ownerEvent(event);
  }

  /** Reads until the end; returns the exit code (0, or 130 when left with Ctrl-C). */
  run(): Promise<number> {
    return this.#o.input.interactive ? this.#terminal() : this.#pipe();
  }

  /** Stops rendering. */
  close(): void {
    this.#unsubscribe();
  }

  #event(event: DeskEvent): void {
    this.#view.render(event);
    if (!this.#o.input.interactive) return;
    if (isCustom(event, "approval.requested")) {
      this.#asking.push({ request: event.value, shownAt: this.#clock() });
      if (this.#asking.length === 1) this.#ask();
    } else if (isCustom(event, "approval.decided")) {
      const first = this.#asking[0]?.request.id === event.value.id;
      this.#asking = this.#asking.filter((a) => a.request.id !== event.value.id);
      if (!first) return;
      const next = this.#asking[0];
      if (next !== undefined) {
        next.shownAt = this.#clock();
        this.#ask();
      } else if (!this.#ended) {
        // The question leaves the prompt; the answer goes on under it.
        this.#o.input.prompt("");
      }
    }
  }

  /** Shows the first waiting approval's question as the prompt (what was typed stays). */
  #ask(): void {
    const asking = this.#asking[0];
    if (asking === undefined || this.#ended) return;
    const question = t(this.#o.lang, "approve_question", { message: asking.request.message });
    this.#view.write(this.#view.gap());
    this.#o.input.prompt(`${question} [y/N] `);
  }

  #prompt(): void {
    if (this.#ended) return;
    if (this.#asking.length > 0) return this.#ask();
    if (!this.#conversation.busy) this.#o.input.prompt("› ");
  }

  /**
   * A line typed while an approval waits: its answer, when it is one and came late
   * enough to be meant for it; `false` when it is a message (or came too soon).
   */
  #answered(text: string): boolean {
    const asking = this.#asking[0];
    if (asking === undefined) return false;
    const answer = text.trim();
    const meant = this.#clock() - asking.shownAt >= ANSWER_AFTER_MS;
    if (meant && YES.test(answer)) {
      this.#conversation.decide(asking.request.id, "once", "terminal");
      return true;
    }
    if (meant && (NO.test(answer) || answer === "")) {
      this.#conversation.decide(asking.request.id, "deny", "terminal");
      return true;
    }
    return false;
  }

  /** A terminal: lines are taken as they are typed, also while an answer streams. */
  #terminal(): Promise<number> {
    const conversation = this.#conversation;
    const input = this.#o.input;
    return new Promise((resolve) => {
      const finish = (code: number) => {
        if (this.#ended) return;
        this.#ended = true;
        if (code === 130) this.#view.write("\n");
        resolve(code);
      };
      // At the prompt, a first Ctrl-C throws away the line being typed; a second in a row
      // leaves, the way a shell's does.
      let armed = false;
      input.listen({
        line: (text) => {
          armed = false;
          if (this.#answered(text)) return;
          if (text.trim() === "") return this.#prompt();
          void conversation.submit(text).then((outcome) => {
            if (outcome.kind === "command" && outcome.outcome.quit) finish(0);
            else this.#prompt();
          });
          // Queued behind the approval: its question shows again under the note.
          if (this.#asking.length > 0) this.#ask();
        },
        // Ctrl-C cancels the answer (at an approval, chat ends with 130); at the prompt
        // it clears the line, then leaves.
        interrupt: () => {
          if (this.#asking.length > 0) {
            conversation.cancel();
            return finish(130);
          }
          if (conversation.busy) {
            conversation.cancel();
            return;
          }
          if (armed) return finish(130);
          armed = true;
          input.clearLine?.();
          this.#view.write(`\n${chatSentence(this.#o.lang, "ctrl_c_again")}\n`);
          this.#prompt();
        },
        end: () => {
          void conversation.idle().then(() => finish(0));
        },
      });
      this.#prompt();
    });
  }

  /** A pipe: one message per line, each answered before the next is read. */
  async #pipe(): Promise<number> {
    const conversation = this.#conversation;
    const input = this.#o.input;
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
}
