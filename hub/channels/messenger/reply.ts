/**
 * One answer streamed into Telegram. The first text is held for a moment
 * ({@linkcode FIRST_HOLD_MS}) unless the answer is complete sooner, so an answer whose
 * pieces arrive together goes out as one message, not as its first piece and an edit
 * (two calls, the second waiting for the chat's edit rate). The message is
 * then edited as the answer grows, but never more than once a second in a chat
 * (Telegram's edit rate), and the first in-between edit only a second after the first
 * send, so an answer that is done by then goes out as that message plus one final
 * edit. The final text never waits for a fixed pace: it goes as soon as the chat's
 * edit rate allows. A 429's `retry_after` is waited out rather than burst through, unless
 * the channel stops: then the wait ends and the rest of the answer is not sent (it stays
 * in the conversation's session; {@linkcode StreamingReply.whole} says it did not arrive).
 * Text goes as HTML with everything escaped, or as the caller renders each part: the
 * renderer is told the parts before it and whether the text may still grow, so a chat
 * answer's Markdown is well formed at every edit and a fence cut by a split is closed
 * in one message and opened again in the next. When Telegram refuses the entities
 * anyway, the reply continues as the plain text the HTML shows. An answer longer than
 * one message continues in the next, split on paragraph and line boundaries, never
 * dropped.
 *
 * @module
 */
import type { Api } from "grammy";
import { pause } from "../../backoff.ts";
import { type PartPlace, plainOfHtml } from "./markdown_html.ts";
import { botApiFailure, escapeHtml, notModified, refusedEntities, splitParts } from "./telegram.ts";

/** What the log says of a reply cut short by the channel's stop. */
const STOPPED =
  "the hub stopped while Telegram asked to wait (429): the rest of this text was not sent";

/** Telegram's edit rate: one edit a second in a chat. */
export const EDIT_INTERVAL_MS = 1_000;

/**
 * How long the first text waits for the rest before it is sent: an answer complete by
 * then (its text settled or finished) is sent whole, in one call. Short enough that a
 * long answer's first words still show at once.
 */
export const FIRST_HOLD_MS = 150;

/** The pace of edits in one chat, shared by every reply in it. */
export class ChatPace {
  /** Epoch ms before which no edit may go out. */
  nextAt = 0;
  /** The shortest time between two edits. */
  readonly intervalMs: number;
  /** Makes a pace. */
  constructor(intervalMs = EDIT_INTERVAL_MS) {
    this.intervalMs = intervalMs;
  }
}

/** Turns one part's text into HTML (well formed on its own, showing at most the part). */
export type PartHtml = (part: string, place: PartPlace) => string;

/** Options for {@linkcode StreamingReply}. */
export interface StreamingReplyOptions {
  api: Api;
  chatId: number | string;
  /** The bot token, scrubbed from every error. */
  token: string;
  pace: ChatPace;
  /** Turns one part's text into HTML. @default escapeHtml */
  html?: PartHtml;
  /** What must reach the chat first (what the chat showed before this answer). */
  after?: Promise<unknown>;
  /** Buttons under the last message (sent with it). */
  replyMarkup?: unknown;
  /** Called with each failure that was not handled (for the log and `/status`). */
  onError?: (description: string) => void;
  /** @default Date.now */
  now?: () => number;
  /** The channel's stop: a 429's wait ends at once and the reply gives up. */
  stop?: AbortSignal;
  /** How long the first text waits for the rest. @default FIRST_HOLD_MS */
  firstHoldMs?: number;
}

/** An answer being written into one chat. */
export class StreamingReply {
  #o: StreamingReplyOptions;
  #text = "";
  /**
   * What each sent message shows now, by position: its source text, whether it was
   * rendered as the open end of a streaming text (then the finished text renders anew)
   * and the HTML sent.
   */
  #shown: { id: number; text: string; open: boolean; html: string }[] = [];
  #plain = false;
  #finished = false;
  /** When the first message went out (epoch ms). */
  #firstAt = 0;
  /** When the first text came (epoch ms), for the first send's hold. */
  #textAt = 0;
  #wake = Promise.withResolvers<void>();
  #loop: Promise<void> | undefined;
  #failures = 0;
  /** The text streamed so far is complete for now: show it within the edit rate. */
  #eager = false;

  /** Makes a reply; nothing is sent before the first text. */
  constructor(options: StreamingReplyOptions) {
    this.#o = options;
  }

  /** Whether the messages show the whole text (after {@linkcode finish}: it arrived). */
  get whole(): boolean {
    return !this.#differs();
  }

  /** The ids of the messages sent so far. */
  get messageIds(): number[] {
    return this.#shown.map((m) => m.id);
  }

  /** Adds streamed text: the first goes out at once, the rest with the chat's pace. */
  push(chunk: string): void {
    if (this.#finished) return;
    this.#text += chunk;
    this.#eager = false;
    if (this.#text.trim() === "") return;
    if (this.#textAt === 0) this.#textAt = this.#now();
    this.#kick();
  }

  /**
   * The text so far is complete for now (the model's text ended: the run is being
   * stored, or a tool call follows): it is shown as soon as the chat's edit rate
   * allows, without waiting for the next in-between edit.
   */
  settle(): void {
    if (this.#finished || this.#text.trim() === "") return;
    this.#eager = true;
    this.#kick();
  }

  /**
   * Shows `text` as the whole answer and waits until Telegram has it; `html` renders it
   * instead of the reply's renderer (a failure's sentence replacing an answer).
   */
  async finish(text: string, html?: PartHtml): Promise<void> {
    this.#finished = true;
    this.#text = text;
    if (html !== undefined) this.#o = { ...this.#o, html };
    this.#kick();
    await this.#loop;
  }

  #kick(): void {
    const wake = this.#wake;
    this.#wake = Promise.withResolvers();
    wake.resolve();
    this.#loop ??= this.#run();
  }

  /** Brings the messages in line with the text until the answer is finished and shown. */
  async #run(): Promise<void> {
    await this.#o.after?.catch(() => {});
    while (true) {
      // Taken before the checks: a push after them wakes this very promise.
      const wake = this.#wake.promise;
      if (!this.#differs()) {
        if (this.#finished) return;
        await wake;
        continue;
      }
      if (this.#shown.length === 0 && !this.#finished && !this.#eager) {
        // The first send waits a moment for the rest: a complete answer goes whole.
        const delay = this.#textAt + (this.#o.firstHoldMs ?? FIRST_HOLD_MS) - this.#now();
        if (delay > 0) {
          await sleep(delay, wake);
          continue;
        }
      }
      if (this.#shown.length > 0 && !this.#finished && !this.#eager) {
        // In-between edits wait for the chat's pace and a second after the first send.
        const due = Math.max(this.#o.pace.nextAt, this.#firstAt + this.#o.pace.intervalMs);
        const delay = due - this.#now();
        if (delay > 0) {
          await sleep(delay, wake);
          continue;
        }
      }
      try {
        await this.#flush();
      } catch (error) {
        const failure = botApiFailure(error, this.#o.token);
        // The channel stopped: what failed is not tried again.
        if (this.#o.stop?.aborted) {
          this.#o.onError?.(failure.code === 429 ? STOPPED : failure.description);
          return;
        }
        this.#o.onError?.(failure.description);
        // A failed final text is tried once more; a failed partial waits for more text.
        if (this.#finished && ++this.#failures > 1) return;
        if (!this.#finished) await wake;
      }
    }
  }

  /** Whether the messages do not show the text yet. */
  #differs(): boolean {
    const parts = splitParts(this.#text).map((p) => p.text);
    return parts.length !== this.#shown.length ||
      parts.some((p, i) =>
        this.#shown[i]?.text !== p || this.#shown[i]?.open !== this.#open(parts, i)
      );
  }

  /** Brings the messages in line with the text: edit what changed, send what is new. */
  async #flush(): Promise<void> {
    const split = splitParts(this.#text);
    const parts = split.map((p) => p.text);
    const cutsLine = split.map((p) => p.cutsLine);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const shown = this.#shown[i];
      const open = this.#open(parts, i);
      if (shown?.text === part && shown.open === open) continue;
      const place = { before: parts.slice(0, i), open, cutsLine };
      const html = (this.#o.html ?? escapeHtml)(part, place);
      if (shown?.html === html) {
        // Rendered as it shows already (the last words closed no mark): no edit.
        shown.text = part;
        shown.open = open;
        continue;
      }
      const last = i === parts.length - 1 && this.#finished;
      const markup = last && this.#o.replyMarkup !== undefined
        ? { reply_markup: this.#o.replyMarkup }
        : {};
      if (shown === undefined) {
        const id = await this.#call(
          (text, html) =>
            this.#o.api.sendMessage(this.#o.chatId, text, {
              ...(html ? { parse_mode: "HTML" } : {}),
              ...markup,
            } as never).then((m) => m.message_id),
          html,
        );
        if (id !== undefined) this.#shown[i] = { id, text: part, open, html };
        if (this.#firstAt === 0) this.#firstAt = this.#now();
      } else {
        await this.#waitPace();
        await this.#call(
          (text, html) =>
            this.#o.api.editMessageText(this.#o.chatId, shown.id, text, {
              ...(html ? { parse_mode: "HTML" } : {}),
              ...markup,
            } as never).then(() => shown.id),
          html,
        );
        shown.text = part;
        shown.open = open;
        shown.html = html;
        this.#o.pace.nextAt = this.#now() + this.#o.pace.intervalMs;
      }
    }
    // A final text shorter than what streamed leaves the extra messages as they are.
    if (this.#shown.length > parts.length) this.#shown.splice(parts.length);
  }

  async #waitPace(): Promise<void> {
    const delay = this.#o.pace.nextAt - this.#now();
    if (delay > 0) await pause(delay, this.#o.stop);
  }

  /**
   * Makes one Bot API call with a part's `html` (or the plain text it shows once
   * entities were refused), waiting out a 429 and trying again, ignoring "message is
   * not modified".
   */
  async #call(
    send: (text: string, html: boolean) => Promise<number>,
    html: string,
  ): Promise<number | undefined> {
    for (let attempt = 0; attempt < 8; attempt++) {
      try {
        return await send(this.#plain ? plainOfHtml(html) : html, !this.#plain);
      } catch (error) {
        const failure = botApiFailure(error, this.#o.token);
        if (refusedEntities(failure) && !this.#plain) {
          this.#plain = true;
          continue;
        }
        if (notModified(failure)) return undefined;
        if (failure.code === 429) {
          // The hub stops: Telegram refused this call, and nothing waits for it any more.
          if (this.#o.stop?.aborted) throw error;
          const waitMs = (failure.retryAfter ?? 1) * 1000;
          this.#o.pace.nextAt = this.#now() + waitMs;
          await this.#waitPace();
          if (this.#o.stop?.aborted) throw error;
          continue;
        }
        throw error;
      }
    }
    return undefined;
  }

  /** Whether part `i` is the end of a text that may still grow. */
  #open(parts: readonly string[], i: number): boolean {
    return !this.#finished && i === parts.length - 1;
  }

  #now(): number {
    return (this.#o.now ?? Date.now)();
  }
}

/** Waits `ms`, or less when `early` settles first (the timer is cleared either way). */
function sleep(ms: number, early?: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    early?.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
