/**
 * The messenger channel: the agent in Telegram, run by the hub when
 * `MESSENGER_BOT_TOKEN` is set.
 *
 * - **Access:** only allowed chats reach the agent; another chat gets no answer, costs
 *   nothing, and its id is logged once so the owner can allow it.
 * - **Conversation:** one session per chat (resumable), ledger channel `messenger`, the
 *   same agent, slash commands and sentences as chat.
 * - **Telegram:** typing renewed every 4 s, one message edited as the answer streams
 *   ({@linkcode StreamingReply}), one poller per token (409 shown in `/status`, with
 *   backoff), updates deduplicated by `update_id`, chats concurrent and each in order.
 * - **The owner hears from the hub here:** contact requests with Accept / Block, budget
 *   warnings and spent budgets, once each.
 *
 * @module
 */
import "./_quiet_node.ts";
import { Api } from "grammy";
import type { Message, Update } from "grammy/types";
import { errorMessage, readLimited, timingSafeEqual } from "@agent/net";
import {
  type Agent,
  buildAgent,
  type Conversation,
  type ModelRouter,
  runSlashCommand,
  TurnEndedError,
} from "../../agent/mod.ts";
import { enabledTools } from "../../components/tools.ts";
import { type Ledger, LedgerError, ledgerErrorSentence } from "../../money/mod.ts";
import { blockContact, type OwnerEvent } from "../../network/mod.ts";
import { openSessionStore, type SessionStore } from "../../sessions/mod.ts";
import { printable } from "../../text.ts";
import type { AgentTool, Approver } from "../../tools/mod.ts";
import type { HubChannel, HubContext } from "../../app/channel_types.ts";
import { t } from "./_messages.ts";
import { Approvals } from "./approvals.ts";
import { type ChatEntry, MessengerStateFile } from "./chat_state.ts";
import { ChatPace, StreamingReply } from "./reply.ts";
import type { MessengerSettings } from "./settings.ts";
import { botApiFailure, escapeHtml } from "./telegram.ts";

const POLL_TIMEOUT_SEC = 25;
/** The webhook route on the control API (webhook mode). */
export const WEBHOOK_PATH = "/messenger/webhook";
const WEBHOOK_MAX = 1 << 20;
const TYPING_EVERY_MS = 4_000;
const EVENTS_RETRY_MS = 2_000;
const SEEN_MAX = 2_000;

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

/** The messenger channel. */
export class MessengerChannel implements HubChannel {
  readonly name = "messenger";
  readonly statusKey = "messenger";
  #hub: HubContext;
  #ledger: Ledger;
  #s: MessengerSettings;
  #api: Api;
  #stop = new AbortController();
  #loops: Promise<void>[] = [];
  #status: MessengerStatus;
  #offset = 0;
  #seen = new Set<number>();
  #queues = new Map<string, Promise<void>>();
  #paces = new Map<string, ChatPace>();
  #warned = new Set<string>();
  #state: MessengerStateFile;
  #sessions: SessionStore;
  #router: ModelRouter;
  #tools: AgentTool[] = [];
  #approvals: Approvals;
  #agents = new Map<string, Agent>();

  /** Builds the channel; nothing is sent before {@linkcode start}. */
  constructor(hub: HubContext, ledger: Ledger, settings: MessengerSettings) {
    this.#hub = hub;
    this.#ledger = ledger;
    this.#s = settings;
    this.#api = new Api(settings.token, settings.apiRoot ? { apiRoot: settings.apiRoot } : {});
    this.#status = {
      state: "starting",
      mode: settings.mode,
      allowed_chats: settings.allowed.size,
      last_update_at: null,
      last_error: null,
    };
    this.#state = new MessengerStateFile(hub.paths.dataDir);
    this.#sessions = openSessionStore(hub.config, hub.env, hub.paths);
    this.#router = hub.router;
    this.#approvals = new Approvals({
      api: this.#api,
      lang: hub.lang,
      timeoutMs: settings.approvalTimeoutMs,
      onError: (error) => this.#failed("approval", error),
    });
  }

  /** The `messenger` block of `/status` (never the token). */
  status(): Record<string, unknown> {
    return { ...this.#status };
  }

  /**
   * In webhook mode, `POST /messenger/webhook` on the control API: Telegram's
   * `X-Telegram-Bot-Api-Secret-Token` must equal `MESSENGER_WEBHOOK_SECRET` (compared in
   * constant time); the update is taken and answered 200 at once.
   */
  routes(): Record<string, (request: Request) => Promise<Response>> {
    if (this.#s.mode !== "webhook") return {};
    return { [WEBHOOK_PATH]: (request) => this.#webhook(request) };
  }

  async #webhook(request: Request): Promise<Response> {
    const secret = this.#s.webhookSecret;
    if (secret === undefined) return Response.json({ error: "not_configured" }, { status: 503 });
    const given = request.headers.get("x-telegram-bot-api-secret-token") ?? "";
    if (!timingSafeEqual(given, secret)) {
      await request.body?.cancel();
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    let update: Update;
    const bytes = request.body === null
      ? new Uint8Array()
      : await readLimited(request.body, WEBHOOK_MAX);
    if (bytes === undefined) return Response.json({ error: "too_large" }, { status: 413 });
    try {
      update = JSON.parse(new TextDecoder().decode(bytes));
      if (typeof update?.update_id !== "number") throw new TypeError("no update_id");
    } catch (error) {
      return Response.json({ error: "bad_request", detail: errorMessage(error) }, { status: 400 });
    }
    this.handleUpdate(update);
    return Response.json({ ok: true });
  }

  /** Registers the commands, then polls (or waits for webhook updates) and relays events. */
  async start(): Promise<void> {
    await this.#state.load(Math.floor(Date.now() / 1000));
    this.#tools = await enabledTools(this.#hub.registry);
    if (this.#s.allowed.size === 0) {
      this.#hub.logger.warn(
        "messenger: no chat is allowed (MESSENGER_ALLOWED_CHAT_IDS), so the bot answers nobody",
      );
    }
    await this.#registerCommands();
    if (this.#s.mode === "polling") {
      await this.#api.deleteWebhook().catch((error) => this.#failed("deleteWebhook", error));
      this.#loops.push(this.#pollLoop());
    } else {
      this.#status.state = "webhook";
    }
    this.#loops.push(this.#eventLoop());
  }

  /** Stops polling, denies open approvals and waits for the chats' turns to end. */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#approvals.closeAll();
    await Promise.allSettled(this.#loops);
    await Promise.allSettled([...this.#queues.values()]);
    await this.#state.save();
    this.#status.state = "stopped";
  }

  /** Takes one update (from the poll loop, or the webhook route in webhook mode). */
  handleUpdate(update: Update): void {
    if (this.#seen.has(update.update_id)) return;
    this.#seen.add(update.update_id);
    if (this.#seen.size > SEEN_MAX) {
      for (const id of [...this.#seen].slice(0, SEEN_MAX / 2)) this.#seen.delete(id);
    }
    this.#status.last_update_at = new Date().toISOString();
    const query = update.callback_query;
    if (query !== undefined) {
      const chat = String(query.message?.chat.id ?? query.from.id);
      if (!this.#allowed(chat)) return;
      this.#onPress(query).catch((error) => this.#failed("callback", error));
      return;
    }
    const message = update.message;
    if (message === undefined) return;
    const chat = String(message.chat.id);
    if (!this.#allowed(chat)) return;
    this.#inOrder(chat, () => this.#onMessage(message));
  }

  #allowed(chat: string): boolean {
    if (this.#s.allowed.has(chat)) return true;
    if (!this.#warned.has(chat)) {
      this.#warned.add(chat);
      this.#hub.logger.warn(
        `messenger: ignored a message from chat ${chat}, which is not allowed; add it to MESSENGER_ALLOWED_CHAT_IDS to let it in`,
      );
    }
    return false;
  }

  /** Runs `work` after the chat's earlier work: chats run side by side, each in order. */
  #inOrder(chat: string, work: () => Promise<void>): void {
    const before = this.#queues.get(chat) ?? Promise.resolve();
    const next = before.then(work).catch((error) => this.#failed(`chat ${chat}`, error));
    this.#queues.set(chat, next);
    next.finally(() => {
      if (this.#queues.get(chat) === next) this.#queues.delete(chat);
    });
  }

  async #pollLoop(): Promise<void> {
    let attempt = 0;
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        const updates = await this.#api.getUpdates({
          offset: this.#offset,
          timeout: POLL_TIMEOUT_SEC,
          allowed_updates: ["message", "callback_query"],
        }, signal);
        attempt = 0;
        this.#status.state = "polling";
        delete this.#status.retry_at;
        for (const update of updates) {
          this.#offset = Math.max(this.#offset, update.update_id + 1);
          this.handleUpdate(update);
        }
      } catch (error) {
        if (signal.aborted) break;
        const failure = botApiFailure(error, this.#s.token);
        if (failure.code === 409) {
          this.#status.state = "conflict";
          this.#status.last_error =
            "another process polls this bot token (409 Conflict); stop it, or use webhook mode";
        } else if (failure.code === 401 || failure.code === 404) {
          this.#status.state = "failed";
          this.#status.last_error = `the Bot API refused MESSENGER_BOT_TOKEN (${failure.code})`;
        } else {
          this.#status.last_error = failure.description;
        }
        this.#hub.logger.warn(`messenger: getUpdates: ${this.#status.last_error}`);
        const wait = failure.retryAfter !== undefined
          ? failure.retryAfter * 1000
          : Math.min(60_000, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2);
        attempt++;
        this.#status.retry_at = new Date(Date.now() + wait).toISOString();
        await sleep(wait, signal);
      }
    }
  }

  async #registerCommands(): Promise<void> {
    for (const lang of ["en", "tr"] as const) {
      const commands = (["start", "new", "resume", "model", "status", "help"] as const).map((
        command,
      ) => ({ command, description: t(lang, `cmd_${command}`) }));
      try {
        await this.#api.setMyCommands(commands, lang === "en" ? {} : { language_code: lang });
      } catch (error) {
        this.#failed("setMyCommands", error);
      }
    }
  }

  async #onMessage(message: Message): Promise<void> {
    const chat = String(message.chat.id);
    const text = message.text;
    if (text === undefined || text.trim() === "") {
      await this.#say(chat, t(this.#hub.lang, "not_text"));
      return;
    }
    if (text.startsWith("/")) {
      await this.#command(chat, text.trim());
      return;
    }
    await this.#turn(chat, text);
  }

  async #command(chat: string, text: string): Promise<void> {
    const lang = this.#hub.lang;
    const [first = "", ...rest] = text.split(/\s+/);
    const word = first.replace(/@\w+$/, "").toLowerCase();
    switch (word) {
      case "/start":
        return await this.#say(chat, t(lang, "start"));
      case "/help":
        return await this.#say(chat, t(lang, "help"));
      case "/settings":
        return await this.#say(chat, t(lang, "settings_here", { file: this.#hub.paths.envFile }));
      case "/new": {
        const entry = await this.#entry(chat, true);
        return await this.#say(chat, t(lang, "new_session", { session: entry.session_id }));
      }
      case "/model":
      case "/resume":
      case "/status": {
        const conversation = await this.#conversation(chat);
        let lines: string[];
        try {
          lines = (await runSlashCommand(conversation, [word, ...rest].join(" "))).lines;
        } catch (error) {
          if (!(error instanceof LedgerError)) throw error;
          lines = [ledgerErrorSentence(lang, error)];
        }
        await this.#remember(chat, conversation);
        if (word === "/status") lines.push(...this.#statusLines());
        return await this.#say(chat, lines.join("\n"));
      }
      default:
        return await this.#say(chat, t(lang, "unknown_command", { command: word }));
    }
  }

  /** The hub's own state under `/status`: what the owner cannot see from a phone otherwise. */
  #statusLines(): string[] {
    const net = this.#hub.network.status();
    return net.configured ? [`net: ${net.state}${net.address ? ` (${net.address})` : ""}`] : [];
  }

  async #turn(chat: string, text: string): Promise<void> {
    const entry = await this.#entry(chat);
    const agent = this.#agentFor(chat, entry);
    const reply = new StreamingReply({
      api: this.#api,
      chatId: chat,
      token: this.#s.token,
      pace: this.#pace(chat),
      onError: (detail) => this.#failed("reply", detail),
    });
    const typing = () => this.#api.sendChatAction(chat, "typing").catch(() => {});
    typing();
    const timer = setInterval(typing, TYPING_EVERY_MS);
    try {
      const result = await agent.turn(entry.session_id, text, {
        signal: this.#stop.signal,
        onText: (chunk) => reply.push(chunk),
      });
      await reply.finish(result.reply);
    } catch (error) {
      if (!(error instanceof TurnEndedError)) throw error;
      await reply.finish(error.sentence);
    } finally {
      clearInterval(timer);
    }
  }

  #pace(chat: string): ChatPace {
    let pace = this.#paces.get(chat);
    if (pace === undefined) this.#paces.set(chat, pace = new ChatPace(this.#s.editIntervalMs));
    return pace;
  }

  /** The chat's conversation entry; a new session when there is none or `fresh`. */
  async #entry(chat: string, fresh = false): Promise<ChatEntry> {
    const state = await this.#state.load(Math.floor(Date.now() / 1000));
    let entry = state.chats[chat];
    if (entry === undefined || fresh) {
      entry = { ...(entry?.role ? { role: entry.role } : {}), session_id: newSessionId() };
      state.chats[chat] = entry;
      await this.#state.save();
    }
    return entry;
  }

  #agentFor(chat: string, entry: ChatEntry): Agent {
    const roles = this.#hub.config.models.roles;
    const role = entry.role !== undefined && entry.role in roles ? entry.role : "brain";
    let agent = this.#agents.get(chat);
    if (agent === undefined) {
      agent = this.#build(chat, role);
      this.#agents.set(chat, agent);
    }
    agent.role = role;
    return agent;
  }

  #build(chat: string, role: string): Agent {
    const { config, env, paths, logger, lang } = this.#hub;
    return buildAgent({
      config,
      env,
      paths,
      channel: "messenger",
      role,
      tools: this.#tools,
      approver: this.#approver(chat),
      persona: {
        personaFile: `${paths.personaDir}/persona.md`,
        userFile: `${paths.personaDir}/user.md`,
      },
      sessions: this.#sessions,
      ledger: this.#ledger,
      logger,
      lang,
      router: this.#router,
    });
  }

  #approver(chat: string): Approver {
    return {
      approve: (tool, args) => {
        const description = this.#tools.find((x) => x.name === tool)?.description ?? tool;
        return this.#approvals.ask(chat, tool, description, args);
      },
    };
  }

  async #conversation(chat: string): Promise<Conversation> {
    const entry = await this.#entry(chat);
    const agent = this.#agentFor(chat, entry);
    const { config, env, paths, lang } = this.#hub;
    return {
      config,
      env,
      paths,
      lang,
      profile: env.AGENT_PROFILE?.trim() || "home",
      sessions: this.#sessions,
      ledger: this.#ledger,
      agent,
      sessionId: entry.session_id,
      fixedRole: undefined,
      rebuild: (role) => this.#build(chat, role),
      // Keys are never set through the messenger: no `secret`.
      now: Date.now,
    };
  }

  /** Keeps what a slash command changed (`/resume`, `/model`). */
  async #remember(chat: string, conversation: Conversation): Promise<void> {
    const state = await this.#state.load(Math.floor(Date.now() / 1000));
    state.chats[chat] = { session_id: conversation.sessionId, role: conversation.agent.role };
    this.#agents.set(chat, conversation.agent);
    await this.#state.save();
  }

  async #onPress(query: NonNullable<Update["callback_query"]>): Promise<void> {
    if (await this.#approvals.press(query)) return;
    const match = query.data?.match(/^cr:([A-Za-z0-9_-]{1,16}):([ab])$/);
    if (!match) {
      await this.#api.answerCallbackQuery(query.id).catch(() => {});
      return;
    }
    const lang = this.#hub.lang;
    const state = await this.#state.load(Math.floor(Date.now() / 1000));
    const address = state.buttons[match[1]!];
    const node = this.#hub.network.node;
    await this.#api.answerCallbackQuery(query.id, {
      text: t(lang, address && node ? "pressed" : "gone"),
    }).catch(() => {});
    if (address === undefined || node === undefined) return;
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
      await this.#state.save();
    } catch (error) {
      outcome = t(lang, "contact_failed", { detail: printable(errorMessage(error)) });
    }
    const message = query.message;
    if (message !== undefined) {
      await this.#api.editMessageText(message.chat.id, message.message_id, escapeHtml(outcome), {
        parse_mode: "HTML",
      }).catch((error) => this.#failed("editMessageText", error));
    }
  }

  /**
   * Tells every allowed chat the owner events on the hub's bus (contact requests,
   * budgets), each once: from the last one told, in order; one that cannot be sent is
   * tried again.
   */
  async #eventLoop(): Promise<void> {
    const signal = this.#stop.signal;
    const state = await this.#state.load(Math.floor(Date.now() / 1000));
    const pending: OwnerEvent[] = [];
    let wake = Promise.withResolvers<void>();
    const subscription = this.#hub.events.subscribe((event) => {
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
          await this.#state.save();
        } catch (error) {
          this.#failed("events", error);
          await sleep(EVENTS_RETRY_MS, signal);
        }
      }
    } finally {
      subscription.close();
    }
  }

  async #tell(event: OwnerEvent): Promise<void> {
    const lang = this.#hub.lang;
    for (const chat of this.#s.allowed) {
      if (event.type === "net.contact_request") {
        const state = await this.#state.load(0);
        const id = crypto.randomUUID().replace(/-/g, "").slice(0, 12);
        state.buttons[id] = event.address;
        const text = t(lang, "contact_request", {
          name: printable(event.name),
          address: event.address,
          text: printable(event.text),
        });
        await this.#api.sendMessage(chat, escapeHtml(text), {
          parse_mode: "HTML",
          reply_markup: {
            inline_keyboard: [[
              { text: t(lang, "contact_accept"), callback_data: `cr:${id}:a` },
              { text: t(lang, "contact_block"), callback_data: `cr:${id}:b` },
            ]],
          },
        });
      } else if (event.type === "net.outbox_dropped") {
        await this.#say(
          chat,
          t(lang, "outbox_dropped", {
            address: event.address,
            text: printable(event.text),
          }),
        );
      } else {
        await this.#say(chat, event.text);
      }
    }
  }

  /** Sends a whole text (split when long) as escaped HTML. */
  async #say(chat: string, text: string): Promise<void> {
    const reply = new StreamingReply({
      api: this.#api,
      chatId: chat,
      token: this.#s.token,
      pace: new ChatPace(0),
      onError: (detail) => this.#failed("sendMessage", detail),
    });
    await reply.finish(text);
  }

  #failed(where: string, error: unknown): void {
    const detail = typeof error === "string"
      ? error
      : botApiFailure(error, this.#s.token).description;
    this.#status.last_error = `${where}: ${detail}`;
    this.#hub.logger.warn(`messenger: ${where}: ${detail}`);
  }
}

/** A fresh messenger session id: `messenger-YYYYMMDD-HHMMSS-xxxx` (UTC). */
export function newSessionId(nowMs = Date.now()): string {
  const iso = new Date(nowMs).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `messenger-${iso}-${crypto.randomUUID().slice(0, 4)}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
