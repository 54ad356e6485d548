/**
 * One answer streamed into Telegram: the first text is sent at once, then the message
 * is edited as the answer grows, at most one edit per chat every ~1.5 s, waiting out a
 * 429's `retry_after` rather than bursting. Text goes as HTML with everything escaped;
 * when Telegram refuses the entities anyway, the reply continues as plain text. An
 * answer longer than one message continues in the next, split on paragraph and line
 * boundaries.
 *
 * @module
 */
import type { Api } from "grammy";
import {
  botApiFailure,
  escapeHtml,
  notModified,
  refusedEntities,
  splitMessage,
} from "./telegram.ts";

/** The pace of edits in one chat, shared by every reply in it. */
export class ChatPace {
  /** Epoch ms before which no edit may go out. */
  nextAt = 0;
  /** The shortest time between two edits. */
  readonly intervalMs: number;
  /** Makes a pace. */
  constructor(intervalMs = 1_500) {
    this.intervalMs = intervalMs;
  }
}

/** Options for {@linkcode StreamingReply}. */
export interface StreamingReplyOptions {
  api: Api;
  chatId: number | string;
  /** The bot token, scrubbed from every error. */
  token: string;
  pace: ChatPace;
  /** Called with each failure that was not handled (for the log and `/status`). */
  onError?: (description: string) => void;
  /** @default Date.now */
  now?: () => number;
}

/** An answer being written into one chat. */
export class StreamingReply {
  #o: StreamingReplyOptions;
  #text = "";
  /** What each sent message shows now, by position. */
  #shown: { id: number; text: string }[] = [];
  #plain = false;
  #chain: Promise<void> = Promise.resolve();
  #pending = false;
  #finished = false;

  /** Makes a reply; nothing is sent before the first text. */
  constructor(options: StreamingReplyOptions) {
    this.#o = options;
  }

  /** The ids of the messages sent so far. */
  get messageIds(): number[] {
    return this.#shown.map((m) => m.id);
  }

  /** Adds streamed text: the first goes out at once, the rest with the pace. */
  push(chunk: string): void {
    if (this.#finished) return;
    this.#text += chunk;
    if (this.#text.trim() === "" || this.#pending) return;
    // One flush waits at a time; text that arrives meanwhile goes with it.
    this.#pending = true;
    this.#queue(async () => {
      if (this.#shown.length > 0) await this.#wait();
      this.#pending = false;
      if (!this.#finished) await this.#flush();
    });
  }

  /** Shows `text` as the whole answer and waits until Telegram has it. */
  async finish(text: string): Promise<void> {
    this.#finished = true;
    this.#text = text;
    await this.#chain;
    if (!this.#differs()) return;
    if (this.#shown.length > 0) await this.#wait();
    this.#queue(() => this.#flush());
    await this.#chain;
  }

  /** Whether the messages do not show the text yet. */
  #differs(): boolean {
    const parts = splitMessage(this.#text);
    return parts.length !== this.#shown.length || parts.some((p, i) => this.#shown[i]?.text !== p);
  }

  #queue(work: () => Promise<void>): void {
    this.#chain = this.#chain.then(work).catch((error) => {
      this.#o.onError?.(botApiFailure(error, this.#o.token).description);
    });
  }

  async #wait(): Promise<void> {
    const delay = this.#o.pace.nextAt - this.#now();
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
  }

  /** Brings the messages in line with the text: edit what changed, send what is new. */
  async #flush(): Promise<void> {
    const parts = splitMessage(this.#text);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const shown = this.#shown[i];
      if (shown?.text === part) continue;
      if (shown === undefined) {
        const id = await this.#call(
          (text, html) =>
            this.#o.api.sendMessage(this.#o.chatId, text, html ? { parse_mode: "HTML" } : {})
              .then((m) => m.message_id),
          part,
        );
        if (id !== undefined) this.#shown[i] = { id, text: part };
      } else {
        await this.#call((text, html) =>
          this.#o.api.editMessageText(
            this.#o.chatId,
            shown.id,
            text,
            html ? { parse_mode: "HTML" } : {},
          ).then(() => shown.id), part);
        shown.text = part;
      }
      this.#o.pace.nextAt = this.#now() + this.#o.pace.intervalMs;
    }
  }

  /**
   * Makes one Bot API call with `part` as HTML (or plain once entities were refused),
   * waiting out a 429 and trying again, ignoring "message is not modified".
   */
  async #call(
    send: (text: string, html: boolean) => Promise<number>,
    part: string,
  ): Promise<number | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        return await send(this.#plain ? part : escapeHtml(part), !this.#plain);
      } catch (error) {
        const failure = botApiFailure(error, this.#o.token);
        if (refusedEntities(failure) && !this.#plain) {
          this.#plain = true;
          continue;
        }
        if (notModified(failure)) return undefined;
        if (failure.code === 429) {
          const waitMs = (failure.retryAfter ?? 1) * 1000;
          this.#o.pace.nextAt = this.#now() + waitMs;
          await this.#wait();
          continue;
        }
        throw error;
      }
    }
    return undefined;
  }

  #now(): number {
    return (this.#o.now ?? Date.now)();
  }
}
