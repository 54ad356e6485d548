/**
 * How Telegram's updates reach the messenger: long polling (`getUpdates`, one poller
 * per token: a 409 is shown in `/status` and retried with backoff) or a webhook on the
 * control API (`POST /messenger/webhook`, Telegram's secret header compared in
 * constant time). Updates are taken once each (by `update_id`) and only from allowed
 * chats; another chat gets nothing, costs nothing, and its id is logged once.
 *
 * @module
 */
import type { Api } from "grammy";
import type { Update } from "grammy/types";
import { HttpError, readLimited, timingSafeEqual } from "@agent/net";
import type { Logger } from "../../log.ts";
import { backoffDelay, pause } from "../../backoff.ts";
import type { MessengerSettings } from "./settings.ts";
import { botApiFailure } from "./telegram.ts";

const POLL_TIMEOUT_SEC = 25;
const WEBHOOK_MAX = 1 << 20;
const SEEN_MAX = 2_000;

/** The webhook route on the control API (webhook mode). */
export const WEBHOOK_PATH = "/messenger/webhook";

/** The `messenger` block of `/status`. */
export interface MessengerStatus {
  /** `starting`, `polling`, `webhook`, `conflict` (another poller), `failed`, `stopped`. */
  state: "starting" | "polling" | "webhook" | "conflict" | "failed" | "stopped";
  mode: "polling" | "webhook";
  allowed_chats: number;
  last_update_at: string | null;
  last_error: string | null;
  retry_at?: string;
}

/** Options for {@linkcode TelegramIntake}. */
export interface IntakeOptions {
  api: Api;
  settings: MessengerSettings;
  logger: Logger;
  status: MessengerStatus;
  /** An update from an allowed chat, taken once. */
  onUpdate(update: Update, chat: string): void;
}

/** Telegram's updates, polled or pushed. */
export class TelegramIntake {
  #o: IntakeOptions;
  #offset = 0;
  #seen = new Set<number>();
  #warned = new Set<string>();

  /** Makes the intake; {@linkcode poll} starts polling. */
  constructor(options: IntakeOptions) {
    this.#o = options;
  }

  /** Takes one update (from the poll loop or the webhook). */
  take(update: Update): void {
    if (this.#seen.has(update.update_id)) return;
    this.#seen.add(update.update_id);
    if (this.#seen.size > SEEN_MAX) {
      for (const id of [...this.#seen].slice(0, SEEN_MAX / 2)) this.#seen.delete(id);
    }
    this.#o.status.last_update_at = new Date().toISOString();
    const query = update.callback_query;
    const chat = query !== undefined
      ? String(query.message?.chat.id ?? query.from.id)
      : update.message !== undefined
      ? String(update.message.chat.id)
      : undefined;
    if (chat === undefined || !this.#allowed(chat)) return;
    this.#o.onUpdate(update, chat);
  }

  /**
   * `POST /messenger/webhook` (webhook mode): Telegram's
   * `X-Telegram-Bot-Api-Secret-Token` must equal `MESSENGER_WEBHOOK_SECRET`; the update
   * is taken and answered 200 at once. A refusal is thrown as an `HttpError`, which the
   * surface serving the route (the control API, the brain's port) turns into its body.
   */
  async webhook(request: Request): Promise<Response> {
    const secret = this.#o.settings.webhookSecret;
    if (secret === undefined) throw new HttpError(503, "not_configured");
    const given = request.headers.get("x-telegram-bot-api-secret-token") ?? "";
    if (!timingSafeEqual(given, secret)) {
      await request.body?.cancel();
      throw new HttpError(401, "unauthorized");
    }
    const bytes = request.body === null
      ? new Uint8Array()
      : await readLimited(request.body, WEBHOOK_MAX);
    if (bytes === undefined) throw new HttpError(413, "too_large");
    let update: Update;
    try {
      update = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new HttpError(400, "bad_request", { detail: "the body is not JSON" });
    }
    if (typeof update?.update_id !== "number") {
      throw new HttpError(400, "bad_request", { detail: "update_id: a number" });
    }
    this.take(update);
    return Response.json({ ok: true });
  }

  /** Polls until `signal` aborts, waiting out failures with backoff. */
  async poll(signal: AbortSignal): Promise<void> {
    const { api, settings, logger, status } = this.#o;
    let attempt = 0;
    while (!signal.aborted) {
      try {
        const updates = await api.getUpdates({
          offset: this.#offset,
          timeout: POLL_TIMEOUT_SEC,
          allowed_updates: ["message", "callback_query"],
        }, signal);
        attempt = 0;
        status.state = "polling";
        delete status.retry_at;
        for (const update of updates) {
          this.#offset = Math.max(this.#offset, update.update_id + 1);
          this.take(update);
        }
      } catch (error) {
        if (signal.aborted) break;
        const failure = botApiFailure(error, settings.token);
        if (failure.code === 409) {
          status.state = "conflict";
          status.last_error =
            "another process polls this bot token (409 Conflict); stop it, or use webhook mode";
        } else if (failure.code === 401 || failure.code === 404) {
          status.state = "failed";
          status.last_error = `the Bot API refused MESSENGER_BOT_TOKEN (${failure.code})`;
        } else {
          status.last_error = failure.description;
        }
        logger.warn(`messenger: getUpdates: ${status.last_error}`);
        const wait = backoffDelay(attempt, { retryAfterMs: (failure.retryAfter ?? NaN) * 1000 });
        attempt++;
        status.retry_at = new Date(Date.now() + wait).toISOString();
        await pause(wait, signal);
      }
    }
  }

  #allowed(chat: string): boolean {
    if (this.#o.settings.allowed.has(chat)) return true;
    if (!this.#warned.has(chat)) {
      this.#warned.add(chat);
      this.#o.logger.warn(
        `messenger: ignored a message from chat ${chat}, which is not allowed; add it to MESSENGER_ALLOWED_CHAT_IDS to let it in`,
      );
    }
    return false;
  }
}
