/**
 * One Telegram chat rendering its desk conversation: "typing" while an answer is
 * worked on (none while an approval waits for the owner), the answer streamed into
 * one message that is edited as it grows, its Markdown rendered as the job answers'
 * are (`markdown_html.ts`, well formed at every edit), tier-2 approvals as a message with Allow
 * once / Allow for this session / Deny / Details buttons and its expiry, edited to the
 * outcome (what was decided, by whom, on what), a short acknowledgement for a message
 * queued behind a running answer or a waiting approval, and slash commands' output
 * (`/resume`'s sessions as buttons).
 *
 * @module
 */
import type { Api } from "grammy";
import type { Lang } from "../../i18n.ts";
import { oneLine } from "../../text.ts";
import {
  type ApprovalDecided,
  type ApprovalRequest,
  type DeskEvent,
  deskSentence,
  type HistoryLine,
  messageLines,
} from "../../desk/mod.ts";
import { t } from "./_messages.ts";
import { approvalButtons, approvalHtml, decidedHtml } from "./approval_view.ts";
import { closeFence, markdownHtmlPart } from "./markdown_html.ts";
import { type ChatPace, StreamingReply } from "./reply.ts";
import { chatText, htmlWithCode } from "./telegram.ts";

const TYPING_EVERY_MS = 4_000;

/** An answer, then `after` (its notices, "cancelled") as text, not inside its open fence. */
function followedBy(answer: string, after: string): string {
  return `${closeFence(answer.trimEnd())}\n\n${after}`;
}
/** How many messages of a resumed session the chat is shown, each on one line. */
const HISTORY_SHOWN = 6;
/** How many sessions `/resume` offers as buttons. */
const PICKS_SHOWN = 8;

/** Options for {@linkcode MessengerChatView}. */
export interface ChatViewOptions {
  api: Api;
  chatId: string;
  /** The bot token, scrubbed from every error. */
  token: string;
  lang: Lang;
  /** The chat's edit pace, shared by its replies. */
  pace: ChatPace;
  /** How long an approval waits (for the expiry sentence). */
  approvalTimeoutMs: number;
  /** Called with each failure that was not handled (for the log and `/status`). */
  onError(where: string, detail: unknown): void;
  /** The channel's stop: a 429's wait ends and the text is given up. */
  stop?: AbortSignal;
}

/** What one chat shows of its conversation. */
export class MessengerChatView {
  #o: ChatViewOptions;
  #reply: StreamingReply | undefined;
  #streamed = "";
  #typing: ReturnType<typeof setInterval> | undefined;
  /** When the last answer with notices finished (epoch ms). */
  #noticesAt = 0;
  /** The open approvals asked here, with their message once sent. */
  #asked = new Map<string, { request: ApprovalRequest; messageId: number | undefined }>();
  /** What the pick buttons of the last list submit, by token. */
  #picks = new Map<string, string>();
  #nextPick = 1;
  /** Sends in the order the events came. */
  #chain: Promise<void> = Promise.resolve();

  /** Makes the view of one chat. */
  constructor(options: ChatViewOptions) {
    this.#o = options;
  }

  /**
   * Whether an answer runs here or one with notices (a failover, a degraded role) was
   * shown in the last `withinMs`: its reply carries the notice already.
   */
  toldNotices(withinMs: number): boolean {
    return this.#reply !== undefined || Date.now() - this.#noticesAt < withinMs;
  }

  /** Waits until everything rendered so far reached Telegram. */
  settled(): Promise<void> {
    return this.#chain;
  }

  /** Stops the typing indicator (the hub stops). */
  close(): void {
    this.#stopTyping();
  }

  /** Renders one event of the chat's conversation. */
  render(event: DeskEvent): void {
    const lang = this.#o.lang;
    switch (event.type) {
      case "RUN_STARTED":
        this.#streamed = "";
        this.#reply = new StreamingReply({
          api: this.#o.api,
          chatId: this.#o.chatId,
          token: this.#o.token,
          pace: this.#o.pace,
          // The model writes Markdown: shown as Telegram's entities, as it streams.
          html: markdownHtmlPart,
          // Answers keep their order in the chat, also while a 429 is waited out.
          after: this.#chain,
          onError: (detail) => this.#o.onError("reply", detail),
          ...(this.#o.stop ? { stop: this.#o.stop } : {}),
        });
        this.#startTyping();
        return;
      case "TEXT_MESSAGE_CONTENT":
        this.#streamed += event.delta;
        this.#reply?.push(event.delta);
        return;
      case "TEXT_MESSAGE_END":
        // The text is whole before the run is stored: show it now, not after.
        this.#reply?.settle();
        return;
      case "RUN_FINISHED": {
        this.#stopTyping();
        const reply = this.#reply;
        this.#reply = undefined;
        if ((event.result?.notices.length ?? 0) > 0) this.#noticesAt = Date.now();
        const notices = event.result?.notices ?? [];
        let text: string;
        if (event.outcome.type !== "success") {
          text = this.#streamed.trim() === ""
            ? ""
            : followedBy(this.#streamed, deskSentence(lang, "cancelled"));
        } else if (notices.length === 0) text = event.result?.reply ?? "";
        else text = followedBy(event.result!.text, notices.join("\n"));
        if (reply !== undefined && text !== "") this.#then(() => reply.finish(text));
        return;
      }
      case "RUN_ERROR": {
        this.#stopTyping();
        const reply = this.#reply;
        this.#reply = undefined;
        // The failure's sentence replaces the answer, shown as every desk sentence is.
        if (reply !== undefined) this.#then(() => reply.finish(event.message, htmlWithCode));
        else this.say(event.message);
        return;
      }
      case "CUSTOM":
        return this.#custom(event);
    }
  }

  /**
   * Sends a whole text (split when long) as escaped HTML with `code` spans, after what
   * came before; `replyMarkup` goes with its last message.
   */
  say(text: string, replyMarkup?: unknown): void {
    const reply = this.#whole(replyMarkup);
    this.#then(() => reply.finish(text));
  }

  /**
   * Sends a whole text as {@linkcode say} does and resolves once Telegram has all of it;
   * rejects when it did not arrive (a failure, or the channel stopped during a 429's
   * wait), so the caller can tell it again later.
   */
  deliver(text: string): Promise<void> {
    const reply = this.#whole();
    const done = this.#chain.then(() => reply.finish(text)).then(() => {
      if (!reply.whole) throw new Error("the text did not reach the chat");
    });
    // The failure was logged by the reply; what comes next in the chat still goes.
    this.#chain = done.catch(() => {});
    return done;
  }

  /** A reply that shows one whole text (HTML with `code` spans). */
  #whole(replyMarkup?: unknown): StreamingReply {
    return new StreamingReply({
      api: this.#o.api,
      chatId: this.#o.chatId,
      token: this.#o.token,
      pace: this.#o.pace,
      html: htmlWithCode,
      ...(replyMarkup === undefined ? {} : { replyMarkup }),
      onError: (detail) => this.#o.onError("sendMessage", detail),
      ...(this.#o.stop ? { stop: this.#o.stop } : {}),
    });
  }

  #custom(event: Extract<DeskEvent, { type: "CUSTOM" }>): void {
    const lang = this.#o.lang;
    switch (event.name) {
      case "notice":
        return this.say(event.value.text);
      case "input.queued": {
        if (this.#asked.size > 0) return this.say(t(lang, "queued_approval"));
        const before = event.value.position - 1;
        return this.say(
          before === 0
            ? deskSentence(lang, "queued")
            : deskSentence(lang, "queued_many", { before }),
        );
      }
      case "command.result": {
        const { lines, choices } = event.value;
        if (lines.length === 0) return;
        if (choices === undefined || choices.length === 0) return this.say(lines.join("\n"));
        return this.say(lines.join("\n"), { inline_keyboard: this.#pickButtons(choices) });
      }
      case "session.changed":
        return this.#history(event.value.history);
      case "approval.requested":
        this.#asked.set(event.value.id, { request: event.value, messageId: undefined });
        this.#stopTyping();
        return this.#then(() => this.#ask(event.value));
      case "approval.decided":
        this.#then(() => this.#decided(event.value));
        return;
    }
  }

  /** What a press of a pick button (`pk:<n>`) submits, or `undefined` when it is gone. */
  picked(token: string): string | undefined {
    return this.#picks.get(token);
  }

  /** Shows the full arguments of the open approval `id`; `false` when it is not open here. */
  details(id: string): boolean {
    const asked = this.#asked.get(id);
    if (asked?.messageId === undefined) return false;
    const messageId = asked.messageId;
    this.#then(async () => {
      await this.#o.api.editMessageText(
        this.#o.chatId,
        messageId,
        approvalHtml(this.#o.lang, asked.request, this.#o.approvalTimeoutMs, true),
        { parse_mode: "HTML", reply_markup: approvalButtons(this.#o.lang, id, false) },
      ).catch((error) => this.#o.onError("editMessageText", error));
    });
    return true;
  }

  #pickButtons(choices: { label: string; input: string }[]) {
    this.#picks.clear();
    return choices.slice(0, PICKS_SHOWN).map((choice) => {
      const token = String(this.#nextPick++);
      this.#picks.set(token, choice.input);
      return [{ text: chatText(choice.label, 60), callback_data: `pk:${token}` }];
    });
  }

  async #ask(request: ApprovalRequest): Promise<void> {
    const { api, chatId, lang } = this.#o;
    const message = await api.sendMessage(
      chatId,
      approvalHtml(lang, request, this.#o.approvalTimeoutMs, false),
      { parse_mode: "HTML", reply_markup: approvalButtons(lang, request.id, true) },
    ).catch((error) => {
      this.#o.onError("approval", error);
      return undefined;
    });
    const asked = this.#asked.get(request.id);
    if (message !== undefined && asked !== undefined) asked.messageId = message.message_id;
  }

  async #decided(decided: ApprovalDecided): Promise<void> {
    const asked = this.#asked.get(decided.id);
    this.#asked.delete(decided.id);
    if (this.#asked.size === 0 && this.#reply !== undefined) this.#startTyping();
    if (asked?.messageId === undefined) return;
    const html = decidedHtml(this.#o.lang, decided, asked.request, this.#o.approvalTimeoutMs);
    // The buttons go away with the new text: a later press finds nothing open.
    await this.#o.api.editMessageText(this.#o.chatId, asked.messageId, html, {
      parse_mode: "HTML",
    }).catch((error) => this.#o.onError("editMessageText", error));
  }

  #history(all: HistoryLine[]): void {
    // A chat shows no tool outcome lines.
    const history = messageLines(all);
    const shown = history.slice(-HISTORY_SHOWN);
    if (shown.length === 0) return;
    const lang = this.#o.lang;
    const lines = [deskSentence(lang, "history_title")];
    if (history.length > shown.length) {
      lines.push(deskSentence(lang, "history_more", { count: history.length - shown.length }));
    }
    for (const entry of shown) {
      const text = chatText(oneLine(entry.text), 200);
      lines.push(entry.role === "user" ? `› ${text}` : text);
    }
    this.say(lines.join("\n"));
  }

  #startTyping(): void {
    this.#stopTyping();
    const typing = () => this.#o.api.sendChatAction(this.#o.chatId, "typing").catch(() => {});
    typing();
    this.#typing = setInterval(typing, TYPING_EVERY_MS);
  }

  #stopTyping(): void {
    clearInterval(this.#typing);
    this.#typing = undefined;
  }

  #then(work: () => Promise<void>): void {
    this.#chain = this.#chain.then(work).catch((error) => this.#o.onError("send", error));
  }
}
