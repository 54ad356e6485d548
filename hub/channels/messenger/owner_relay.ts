/**
 * The owner hears from the hub in the messenger: every owner event (a contact request
 * with Accept / Block buttons, the network digest with Block / Remove / Open buttons
 * per peer (`digest_view.ts`), budget warnings and spent budgets, a failover, an
 * undeliverable message) is told to every allowed chat as the hub's event bus
 * publishes it, once each, also across restarts (the last event told is kept in the
 * messenger's state file). A job's answer is the exception: the jobs' delivery worker
 * sends it to the chats (`hub/jobs/delivery.ts`).
 *
 * @module
 */
import type { Api } from "grammy";
import type { Update } from "grammy/types";
import { errorMessage } from "@agent/net/common";
import type { Lang } from "../../i18n.ts";
import { blockContact, type NetNode } from "../../network/mod.ts";
import { type OwnerEvent, type OwnerEventBus, ownerEventLine } from "../../events/mod.ts";
import { EVENT_BOOKS } from "../../event_books.ts";
import { t } from "./_messages.ts";
import type { MessengerStateFile } from "./chat_state.ts";
import { pause } from "../../backoff.ts";
import { chatText, escapeHtml } from "./telegram.ts";
import { DIGEST_DATA, digestMessage, digestText, openText } from "./digest_view.ts";

/** How long a send that failed waits before it is tried again. */
const EVENTS_RETRY_MS = 2_000;
/** The longest peer name and note shown (a longer one ends with "…"). */
const NAME_MAX = 64;
const NOTE_MAX = 500;

/** Options for {@linkcode OwnerRelay}. */
export interface OwnerRelayOptions {
  api: Api;
  lang: Lang;
  /** The hub's owner events. */
  events: OwnerEventBus;
  /** The allowed chats: each is told every event. */
  chats: ReadonlySet<string>;
  state: MessengerStateFile;
  /** The network node, for the Accept / Block buttons (absent when not configured). */
  node(): NetNode | undefined;
  /** Sends a whole text to `chat`. */
  say(chat: string, text: string): Promise<void>;
  /** Whether `chat` was told `event` already some other way (a failover in its answer). */
  told?(chat: string, event: OwnerEvent): boolean;
  onError(where: string, error: unknown): void;
}

/** Tells the owner's chats the hub's events, and takes their buttons. */
export class OwnerRelay {
  #o: OwnerRelayOptions;

  /** Makes the relay; {@linkcode run} starts it. */
  constructor(options: OwnerRelayOptions) {
    this.#o = options;
  }

  /**
   * Relays events until `signal` aborts: those after the last one told (also across
   * restarts), then each as it is published; a send that fails is tried again.
   */
  async run(signal: AbortSignal): Promise<void> {
    const file = this.#o.state;
    const state = await file.load(Math.floor(Date.now() / 1000));
    const pending: OwnerEvent[] = [];
    let wake = Promise.withResolvers<void>();
    const subscription = this.#o.events.subscribe((event) => {
      pending.push(event);
      wake.resolve();
    }, { after: state.last_event_id });
    signal.addEventListener("abort", () => wake.resolve(), { once: true });
    try {
      while (!signal.aborted) {
        const event = pending[0];
        if (event === undefined) {
          await wake.promise;
          wake = Promise.withResolvers<void>();
          continue;
        }
        try {
          await this.#tell(event);
          pending.shift();
          state.last_event_id = event.event_id;
          await file.save();
        } catch (error) {
          this.#o.onError("events", error);
          await pause(EVENTS_RETRY_MS, signal);
        }
      }
    } finally {
      subscription.close();
    }
  }

  /**
   * A press of a contact request's button (`cr:<id>:a|b`) or a digest's (`nd:<id>:b|r|o`);
   * `false` when it is not one.
   */
  async press(query: NonNullable<Update["callback_query"]>): Promise<boolean> {
    const digest = query.data?.match(DIGEST_DATA);
    if (digest) {
      await this.#pressDigest(query, digest[1]!, digest[2] as "b" | "r" | "o");
      return true;
    }
    const match = query.data?.match(/^cr:([A-Za-z0-9_-]{1,16}):([ab])$/);
    if (!match) return false;
    const { api, lang } = this.#o;
    const state = await this.#o.state.load(Math.floor(Date.now() / 1000));
    const address = state.buttons[match[1]!];
    const node = this.#o.node();
    await api.answerCallbackQuery(query.id, {
      text: t(lang, address && node ? "pressed" : "gone"),
    }).catch(() => {});
    if (address === undefined || node === undefined) return true;
    let outcome: string;
    try {
      if (match[2] === "a") {
        await node.accept(address);
        outcome = t(lang, "contact_accepted", { address });
      } else {
        await blockContact(node.state, address, Math.floor(Date.now() / 1000));
        outcome = t(lang, "contact_blocked", { address });
      }
      delete state.buttons[match[1]!];
      await this.#o.state.save();
    } catch (error) {
      outcome = t(lang, "contact_failed", { detail: chatText(errorMessage(error)) });
    }
    const message = query.message;
    if (message !== undefined) {
      await api.editMessageText(message.chat.id, message.message_id, escapeHtml(outcome), {
        parse_mode: "HTML",
      }).catch((error) => this.#o.onError("editMessageText", error));
    }
    return true;
  }

  /** Block, Remove or Open of a digest's peer; the outcome is said in the chat. */
  async #pressDigest(
    query: NonNullable<Update["callback_query"]>,
    id: string,
    what: "b" | "r" | "o",
  ): Promise<void> {
    const { api, lang } = this.#o;
    const state = await this.#o.state.load(Math.floor(Date.now() / 1000));
    const address = state.buttons[id];
    const node = this.#o.node();
    await api.answerCallbackQuery(query.id, {
      text: t(lang, address && node ? "pressed" : "gone"),
    }).catch(() => {});
    const chat = query.message?.chat.id;
    if (address === undefined || node === undefined || chat === undefined) return;
    let outcome: string;
    try {
      if (what === "b") {
        await blockContact(node.state, address, Math.floor(Date.now() / 1000));
        outcome = digestText(lang, "blocked", { address });
      } else if (what === "r") {
        const { removed, told, later } = await node.removeAndTell(address);
        const key = !removed
          ? "not_contact"
          : later
          ? "removed_later"
          : told === false
          ? "removed_untold"
          : "removed";
        outcome = digestText(lang, key, { address });
      } else {
        outcome = openText(lang, address, await node.state.log());
      }
    } catch (error) {
      outcome = t(lang, "contact_failed", { detail: chatText(errorMessage(error)) });
    }
    await this.#o.say(String(chat), outcome);
  }

  async #tell(event: OwnerEvent): Promise<void> {
    const { api, lang } = this.#o;
    // A job's answer reaches the chats through the jobs' delivery worker (each part
    // marked as sent, so a restart never sends it twice), not through this relay.
    if (event.type === "job.result") return;
    for (const chat of this.#o.chats) {
      if (this.#o.told?.(chat, event) === true) continue;
      if (event.type === "net.digest") {
        const state = await this.#o.state.load(0);
        const message = digestMessage(lang, event, (address) => {
          const id = crypto.randomUUID().replace(/-/g, "").slice(0, 12);
          state.buttons[id] = address;
          return id;
        });
        await this.#o.state.save();
        await api.sendMessage(chat, message.html, {
          parse_mode: "HTML",
          reply_markup: { inline_keyboard: message.keyboard },
        });
      } else if (event.type === "net.contact_request") {
        const state = await this.#o.state.load(0);
        const id = crypto.randomUUID().replace(/-/g, "").slice(0, 12);
        state.buttons[id] = event.address;
        const text = t(lang, "contact_request", {
          name: chatText(event.name, NAME_MAX),
          address: event.address,
          text: chatText(event.text, NOTE_MAX),
        });
        await api.sendMessage(chat, escapeHtml(text), {
          parse_mode: "HTML",
          reply_markup: {
            inline_keyboard: [[
              { text: t(lang, "contact_accept"), callback_data: `cr:${id}:a` },
              { text: t(lang, "contact_block"), callback_data: `cr:${id}:b` },
            ]],
          },
        });
      } else {
        // Text from elsewhere shows no escapes here: controls become spaces first.
        const shown = event.type === "net.outbox_dropped"
          ? { ...event, text: chatText(event.text, NOTE_MAX) }
          : event;
        await this.#o.say(chat, ownerEventLine(lang, shown, EVENT_BOOKS));
      }
    }
  }
}
