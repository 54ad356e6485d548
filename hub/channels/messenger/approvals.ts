/**
 * Tier-2 approvals as inline buttons: the tool's description with Approve / Deny; only
 * an allowed chat's press counts; the press is answered at once and the message edited
 * to show the outcome; no press within the timeout counts as Deny, and says so.
 *
 * @module
 */
import type { Api } from "grammy";
import type { Lang } from "../../i18n.ts";
import { oneLine } from "../../text.ts";
import { t } from "./_messages.ts";
import { escapeHtml } from "./telegram.ts";

interface Pending {
  chatId: string;
  tool: string;
  messageId: number;
  timer: ReturnType<typeof setTimeout>;
  resolve(approved: boolean): void;
}

/** What a press of an approval button carries: `ap:<id>:y` or `ap:<id>:n` (< 64 bytes). */
const DATA = /^ap:([A-Za-z0-9_-]{1,16}):([yn])$/;

/** Options for {@linkcode Approvals}. */
export interface ApprovalsOptions {
  api: Api;
  lang: Lang;
  timeoutMs: number;
  /** Called with what failed (never holding the token). */
  onError(detail: unknown): void;
}

/** The open approval questions of every chat. */
export class Approvals {
  #o: ApprovalsOptions;
  #pending = new Map<string, Pending>();

  /** Makes the registry. */
  constructor(options: ApprovalsOptions) {
    this.#o = options;
  }

  /** How many questions are open. */
  get open(): number {
    return this.#pending.size;
  }

  /** Asks `chatId` whether `tool` may run; resolves with the answer (false on timeout). */
  async ask(chatId: string, tool: string, description: string, args: unknown): Promise<boolean> {
    const { api, lang } = this.#o;
    const id = crypto.randomUUID().replace(/-/g, "").slice(0, 12);
    const text = t(lang, "approve_ask", {
      tool,
      description: oneLine(description, { max: 600 }),
      args: oneLine(JSON.stringify(args) ?? "", { max: 600 }),
    });
    const message = await api.sendMessage(chatId, escapeHtml(text), {
      parse_mode: "HTML",
      reply_markup: {
        inline_keyboard: [[
          { text: t(lang, "approve_yes"), callback_data: `ap:${id}:y` },
          { text: t(lang, "approve_no"), callback_data: `ap:${id}:n` },
        ]],
      },
    });
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        const seconds = Math.round(this.#o.timeoutMs / 1000);
        const span = seconds >= 120
          ? t(lang, "span_minutes", { n: Math.round(seconds / 60) })
          : t(lang, "span_seconds", { n: seconds });
        this.#close(id, false, t(lang, "expired", { span, tool }));
      }, this.#o.timeoutMs);
      this.#pending.set(id, { chatId, tool, messageId: message.message_id, timer, resolve });
    });
  }

  /**
   * Handles a button press (already known to come from an allowed chat); `false` when
   * the data is not an approval's.
   */
  async press(
    query: { id: string; data?: string | undefined; message?: { chat: { id: number } } },
  ): Promise<boolean> {
    const match = query.data?.match(DATA);
    if (!match) return false;
    const { api, lang } = this.#o;
    const pending = this.#pending.get(match[1]!);
    const sameChat = pending !== undefined && String(query.message?.chat.id) === pending.chatId;
    await api.answerCallbackQuery(query.id, {
      text: t(lang, pending && sameChat ? "pressed" : "gone"),
    }).catch(this.#o.onError);
    if (pending === undefined || !sameChat) return true;
    const approved = match[2] === "y";
    this.#close(
      match[1]!,
      approved,
      t(lang, approved ? "approved" : "denied", { tool: pending.tool }),
    );
    return true;
  }

  /** Denies every open question (the hub stops). */
  closeAll(): void {
    for (const id of [...this.#pending.keys()]) this.#close(id, false, undefined);
  }

  #close(id: string, approved: boolean, outcome: string | undefined): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    pending.resolve(approved);
    if (outcome === undefined) return;
    // The buttons go away with the new text: a later press finds nothing open.
    this.#o.api.editMessageText(pending.chatId, pending.messageId, escapeHtml(outcome), {
      parse_mode: "HTML",
    }).catch(this.#o.onError);
  }
}
