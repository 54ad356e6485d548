/**
 * The messenger channel: the agent in Telegram, run by the hub when
 * `MESSENGER_BOT_TOKEN` is set. An adapter over the hub's desk: each allowed chat is the
 * desk conversation `messenger:<chat id>`; what the owner writes is submitted to it
 * (slash commands included) and what the desk tells is rendered by the chat's
 * {@linkcode MessengerChatView}. The rest is transport:
 *
 * - updates arrive through {@linkcode TelegramIntake} (polling or webhook);
 * - approval buttons decide the desk's approvals (those of the owner's e-mail
 *   conversations too, asked in every allowed chat), contact-request buttons go to the
 *   {@linkcode OwnerRelay}, which tells the chats the hub's owner events;
 * - the command menu is the desk's command table.
 *
 * @module
 */
import "./_quiet_node.ts";
import { Api } from "grammy";
import type { Message, Update } from "grammy/types";
import type { HubContext, HubService } from "../contract.ts";
import { commandSummary, type Desk, type DeskConversation, isCustom } from "../../desk/mod.ts";
import { t } from "./_messages.ts";
import { MessengerStateFile } from "./chat_state.ts";
import { MessengerChatView } from "./chat_view.ts";
import { type MessengerStatus, TelegramIntake, WEBHOOK_PATH } from "./intake.ts";
import { OwnerRelay } from "./owner_relay.ts";
import { ChatPace } from "./reply.ts";
import { invalidChatIds, type MessengerSettings } from "./settings.ts";
import { APPROVAL_DATA } from "./approval_view.ts";
import { botApiFailure } from "./telegram.ts";
import { retryOn429 } from "./telegram_limits.ts";

export { type MessengerStatus, WEBHOOK_PATH } from "./intake.ts";

/** What a press of a pick button (`/resume`'s sessions) carries. */
const PICK_DATA = /^pk:(\d{1,9})$/;
/** How long after an answer with notices a failover event is not told again. */
const NOTICE_TOLD_MS = 60_000;

/** A conversation of the owner's without a screen of its own (e-mail): its approvals come here. */
function isElsewhere(key: string): boolean {
  return key.startsWith("email:");
}

/** The messenger channel. */
export class MessengerChannel implements HubService {
  readonly name = "messenger";
  readonly statusKey = "messenger";
  #hub: HubContext;
  #desk: Desk;
  #s: MessengerSettings;
  #api: Api;
  #stop = new AbortController();
  #loops: Promise<void>[] = [];
  #status: MessengerStatus;
  #intake: TelegramIntake;
  #relay: OwnerRelay;
  #state: MessengerStateFile;
  /**
   * When the hub built this channel (seconds). A first start relays the events after it:
   * the hub builds every service before starting any, so an event a service published as
   * it started (a budget warning at start) is told, not left behind because the messenger
   * took longer than a second to start.
   */
  #builtSec = Math.floor(Date.now() / 1000);
  #views = new Map<string, MessengerChatView>();
  /** The chats whose conversation the view renders. */
  #subscribed = new Set<string>();
  #unsubscribe: (() => void)[] = [];

  /** Builds the channel; nothing is sent before {@linkcode start}. */
  constructor(hub: HubContext, desk: Desk, settings: MessengerSettings) {
    this.#hub = hub;
    this.#desk = desk;
    this.#s = settings;
    this.#api = new Api(settings.token, settings.apiRoot ? { apiRoot: settings.apiRoot } : {});
    // A 429's wait (up to a minute) ends when the hub stops, so a stop never hangs on it.
    this.#api.config.use(retryOn429({ stop: this.#stop.signal }));
    this.#status = {
      state: "starting",
      mode: settings.mode,
      allowed_chats: settings.allowed.size,
      last_update_at: null,
      last_error: null,
    };
    this.#state = new MessengerStateFile(hub.paths.dataDir);
    this.#intake = new TelegramIntake({
      api: this.#api,
      settings,
      logger: hub.logger,
      status: this.#status,
      onUpdate: (update, chat) => this.#onUpdate(update, chat),
    });
    this.#relay = new OwnerRelay({
      api: this.#api,
      lang: hub.lang,
      events: hub.events,
      chats: settings.allowed,
      state: this.#state,
      node: () => hub.network.node,
      // Rejects when the text did not arrive: the event is told again, not taken as told.
      say: (chat, text) => this.#view(chat).deliver(text),
      // A failover the chat's own answer told already is not told again.
      told: (chat, event) =>
        event.type === "model.failover" &&
        this.#views.get(chat)?.toldNotices(NOTICE_TOLD_MS) === true,
      onError: (where, error) => this.#failed(where, error),
    });
  }

  /** The `messenger` block of `/status` (never the token). */
  status(): Record<string, unknown> {
    return { ...this.#status };
  }

  /** In webhook mode, `POST /messenger/webhook` on the control API. */
  routes(): Record<string, (request: Request) => Promise<Response>> {
    if (this.#s.mode !== "webhook") return {};
    return { [WEBHOOK_PATH]: (request) => this.#intake.webhook(request) };
  }

  /** Registers the commands, then polls (or waits for webhook updates) and relays events. */
  async start(): Promise<void> {
    await this.#state.load(this.#builtSec);
    const bad = invalidChatIds(this.#hub.env);
    if (bad.length > 0) {
      this.#hub.logger.warn(
        `messenger: MESSENGER_ALLOWED_CHAT_IDS has ${
          bad.join(", ")
        }, which is not a chat id (a whole number); left out`,
      );
    }
    if (this.#s.allowed.size === 0) {
      this.#hub.logger.warn(
        "messenger: no chat is allowed (MESSENGER_ALLOWED_CHAT_IDS), so the bot answers nobody",
      );
    }
    await this.#registerCommands();
    // An approval asked in an e-mail conversation (the owner's) is decided here too.
    this.#unsubscribe.push(this.#desk.subscribe((event, conversation) => {
      if (!isElsewhere(conversation.key)) return;
      if (isCustom(event, "approval.requested") || isCustom(event, "approval.decided")) {
        for (const chat of this.#s.allowed) this.#view(chat).render(event);
      }
    }));
    const signal = this.#stop.signal;
    if (this.#s.mode === "polling") {
      await this.#api.deleteWebhook().catch((error) => this.#failed("deleteWebhook", error));
      this.#loops.push(this.#intake.poll(signal));
    } else {
      this.#status.state = "webhook";
    }
    this.#loops.push(this.#relay.run(signal));
  }

  /** Stops polling and relaying; the chats' answers end with the hub's desk. */
  async stop(): Promise<void> {
    this.#stop.abort();
    await Promise.allSettled(this.#loops);
    for (const stop of this.#unsubscribe.splice(0)) stop();
    await Promise.allSettled([...this.#views.values()].map((view) => {
      view.close();
      return view.settled();
    }));
    await this.#state.save();
    this.#status.state = "stopped";
  }

  /** Takes one update (from the poll loop, or the webhook route in webhook mode). */
  handleUpdate(update: Update): void {
    this.#intake.take(update);
  }

  async #registerCommands(): Promise<void> {
    for (const lang of ["en", "tr"] as const) {
      const commands = this.#desk.commands("messenger").map((spec) => ({
        command: spec.word.slice(1),
        description: commandSummary(spec, lang),
      }));
      try {
        await this.#api.setMyCommands(commands, lang === "en" ? {} : { language_code: lang });
      } catch (error) {
        this.#failed("setMyCommands", error);
      }
    }
  }

  #onUpdate(update: Update, chat: string): void {
    const query = update.callback_query;
    if (query !== undefined) {
      this.#press(query, chat).catch((error) => this.#failed("callback", error));
    } else if (update.message !== undefined) {
      this.#message(chat, update.message).catch((error) => this.#failed(`chat ${chat}`, error));
    }
  }

  async #message(chat: string, message: Message): Promise<void> {
    // A photo (or another file) with a caption is answered by its caption.
    const text = message.text ?? message.caption;
    if (text === undefined || text.trim() === "") {
      this.#view(chat).say(t(this.#hub.lang, "not_text"));
      return;
    }
    const conversation = await this.#conversation(chat);
    void conversation.submit(text);
  }

  /** The chat's desk conversation, its view subscribed on first use. */
  async #conversation(chat: string): Promise<DeskConversation> {
    const conversation = await this.#desk.open(`messenger:${chat}`);
    if (!this.#subscribed.has(chat)) {
      this.#subscribed.add(chat);
      const view = this.#view(chat);
      this.#unsubscribe.push(conversation.subscribe((event) => view.render(event)));
    }
    return conversation;
  }

  #view(chat: string): MessengerChatView {
    let view = this.#views.get(chat);
    if (view === undefined) {
      view = new MessengerChatView({
        api: this.#api,
        chatId: chat,
        token: this.#s.token,
        lang: this.#hub.lang,
        pace: new ChatPace(this.#s.editIntervalMs),
        approvalTimeoutMs: this.#s.approvalTimeoutMs,
        onError: (where, error) => this.#failed(where, error),
        stop: this.#stop.signal,
      });
      this.#views.set(chat, view);
    }
    return view;
  }

  async #press(query: NonNullable<Update["callback_query"]>, chat: string): Promise<void> {
    const lang = this.#hub.lang;
    const answer = (done: boolean) =>
      this.#api.answerCallbackQuery(query.id, { text: t(lang, done ? "pressed" : "gone") })
        .catch((error) => this.#failed("answerCallbackQuery", error));
    const match = query.data?.match(APPROVAL_DATA);
    if (match) {
      const id = match[1]!;
      const open = this.#desk.approvals().find((a) => a.id === id);
      const mine = open !== undefined &&
        (open.conversation === `messenger:${chat}` || isElsewhere(open.conversation)) &&
        String(query.message?.chat.id) === chat && this.#s.allowed.has(chat);
      const code = match[2]!;
      const done = !mine ? false : code === "d" ? this.#view(chat).details(id) : this.#desk.decide(
        id,
        code === "s" ? "session" : code === "n" ? "deny" : "once",
        "messenger",
      );
      await answer(done);
      return;
    }
    const pick = query.data?.match(PICK_DATA);
    if (pick) {
      const input = this.#views.get(chat)?.picked(pick[1]!);
      await answer(input !== undefined);
      if (input !== undefined) void (await this.#conversation(chat)).submit(input);
      return;
    }
    if (await this.#relay.press(query)) return;
    await this.#api.answerCallbackQuery(query.id).catch(() => {});
  }

  #failed(where: string, error: unknown): void {
    const detail = typeof error === "string"
      ? error
      : botApiFailure(error, this.#s.token).description;
    this.#status.last_error = `${where}: ${detail}`;
    this.#hub.logger.warn(`messenger: ${where}: ${detail}`);
  }
}
