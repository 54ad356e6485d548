/**
 * One Telegram chat rendering its desk conversation: "typing" while an answer is
 * worked on (paused while an approval waits for the owner), the answer streamed into
 * one message that is edited as it grows, tier-2 approvals as a message with
 * Approve / Deny buttons that is edited to the outcome, a short acknowledgement for a
 * message queued behind a running answer, and slash commands' output.
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
} from "../../desk/mod.ts";
import { t } from "./_messages.ts";
import { ChatPace, StreamingReply } from "./reply.ts";
import { escapeHtml } from "./telegram.ts";

const TYPING_EVERY_MS = 4_000;
/** How many messages of a resumed session the chat is shown, each on one line. */
const HISTORY_SHOWN = 6;

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
}

/** What one chat shows of its conversation. */
export class MessengerChatView {
  #o: ChatViewOptions;
  #reply: StreamingReply | undefined;
  #streamed = "";
  #typing: ReturnType<typeof setInterval> | undefined;
  /** Approval message ids by approval id. */
  #asked = new Map<string, number>();
  /** Sends in the order the events came. */
  #chain: Promise<void> = Promise.resolve();

  /** Makes the view of one chat. */
  constructor(options: ChatViewOptions) {
    this.#o = options;
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
          onError: (detail) => this.#o.onError("reply", detail),
        });
        this.#startTyping();
        return;
      case "TEXT_MESSAGE_CONTENT":
        this.#streamed += event.delta;
        this.#reply?.push(event.delta);
        return;
      case "RUN_FINISHED": {
        this.#stopTyping();
        const reply = this.#reply;
        this.#reply = undefined;
        const text = event.outcome.type === "success"
          ? event.result?.reply ?? ""
          : this.#streamed.trim() === ""
          ? ""
          : `${this.#streamed.trimEnd()}\n\n${deskSentence(lang, "cancelled")}`;
        if (reply !== undefined && text !== "") this.#then(() => reply.finish(text));
        return;
      }
      case "RUN_ERROR": {
        this.#stopTyping();
        const reply = this.#reply;
        this.#reply = undefined;
        if (reply !== undefined) this.#then(() => reply.finish(event.message));
        else this.say(event.message);
        return;
      }
      case "CUSTOM":
        return this.#custom(event);
    }
  }

  /** Sends a whole text (split when long) as escaped HTML, after what came before. */
  say(text: string): void {
    const reply = new StreamingReply({
      api: this.#o.api,
      chatId: this.#o.chatId,
      token: this.#o.token,
      pace: new ChatPace(0),
      onError: (detail) => this.#o.onError("sendMessage", detail),
    });
    this.#then(() => reply.finish(text));
  }

  #custom(event: Extract<DeskEvent, { type: "CUSTOM" }>): void {
    const lang = this.#o.lang;
    switch (event.name) {
      case "notice":
        return this.say(event.value.text);
      case "input.queued": {
        const before = event.value.position - 1;
        return this.say(
          before === 0
            ? deskSentence(lang, "queued")
            : deskSentence(lang, "queued_many", { before }),
        );
      }
      case "command.result":
        if (event.value.lines.length > 0) this.say(event.value.lines.join("\n"));
        return;
      case "session.changed":
        return this.#history(event.value.history);
      case "approval.requested":
        this.#stopTyping();
        return this.#then(() => this.#ask(event.value));
      case "approval.decided":
        this.#then(() => this.#decided(event.value));
        if (this.#reply !== undefined) this.#startTyping();
        return;
    }
  }

  async #ask(request: ApprovalRequest): Promise<void> {
    const { api, chatId, lang } = this.#o;
    const text = request.summary === ""
      ? request.message
      : `${request.message}\n${request.summary}`;
    const message = await api.sendMessage(chatId, escapeHtml(text), {
      parse_mode: "HTML",
      reply_markup: {
        inline_keyboard: [[
          { text: t(lang, "approve_yes"), callback_data: `ap:${request.id}:y` },
          { text: t(lang, "approve_no"), callback_data: `ap:${request.id}:n` },
        ]],
      },
    }).catch((error) => {
      this.#o.onError("approval", error);
      return undefined;
    });
    if (message !== undefined) this.#asked.set(request.id, message.message_id);
  }

  async #decided(decided: ApprovalDecided): Promise<void> {
    const messageId = this.#asked.get(decided.id);
    this.#asked.delete(decided.id);
    if (messageId === undefined || decided.decision === "cancelled") return;
    const lang = this.#o.lang;
    const tool = decided.tool;
    let outcome: string;
    if (decided.decision === "expired") {
      const seconds = Math.round(this.#o.approvalTimeoutMs / 1000);
      const span = seconds >= 120
        ? t(lang, "span_minutes", { n: Math.round(seconds / 60) })
        : t(lang, "span_seconds", { n: seconds });
      outcome = t(lang, "expired", { span, tool });
    } else {
      outcome = t(lang, decided.decision === "deny" ? "denied" : "approved", { tool });
    }
    // The buttons go away with the new text: a later press finds nothing open.
    await this.#o.api.editMessageText(this.#o.chatId, messageId, escapeHtml(outcome), {
      parse_mode: "HTML",
    }).catch((error) => this.#o.onError("editMessageText", error));
  }

  #history(history: HistoryLine[]): void {
    const shown = history.slice(-HISTORY_SHOWN);
    if (shown.length === 0) return;
    const lang = this.#o.lang;
    const lines = [deskSentence(lang, "history_title")];
    if (history.length > shown.length) {
      lines.push(deskSentence(lang, "history_more", { count: history.length - shown.length }));
    }
    for (const entry of shown) {
      const text = oneLine(entry.text, { max: 200, ellipsis: true });
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
