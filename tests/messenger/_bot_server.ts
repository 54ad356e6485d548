/**
 * A local server speaking the Telegram Bot API's wire format, for the messenger's
 * tests: `POST /bot<token>/<method>` with a JSON (or form) body, answered
 * `{ok: true, result}` or `{ok: false, error_code, description, parameters?}`.
 *
 * Methods: `getMe`, `getUpdates` (long poll with `offset` and `timeout`; updates below
 * the offset are confirmed and dropped), `sendMessage`, `editMessageText`,
 * `editMessageReplyMarkup`, `sendChatAction`, `answerCallbackQuery`, `setMyCommands`,
 * `deleteWebhook`, `setWebhook`. Telegram's limits are kept as the real API keeps them:
 * a text is at most 4,096 characters after entity parsing ("message is too long"),
 * malformed HTML is refused ("can't parse entities", see `_bot_html.ts`), at most one
 * edit a second in a chat and at most {@linkcode BotLimits.sendsPerSecond} messages a
 * second in a chat, past which a call gets `429` with `retry_after`, and an edit that
 * changes nothing gets 400 "message is not modified". Failures can also be planted:
 * 429 with `retry_after`, 409 conflict, 400 "can't parse entities" for every HTML text.
 *
 * @module
 */

import { type BotEntity, parseTelegramHtml } from "./_bot_html.ts";
import { until } from "../_poll.ts";

/** The flood limits the server keeps, per chat. */
export interface BotLimits {
  /** The shortest time between two edits in one chat. @default 1000 */
  editGapMs?: number;
  /** How many messages one chat may be sent within a second. @default 20 */
  sendsPerSecond?: number;
}

/** One request the server received. */
export interface BotCall {
  method: string;
  /** The parsed parameters. */
  body: Record<string, unknown>;
  /** Epoch ms (performance-based) when it arrived. */
  at: number;
  /** The token in the path. */
  token: string;
}

/** A message as the server keeps it. */
export interface BotMessage {
  chatId: number;
  messageId: number;
  text: string;
  parseMode?: string;
  /** The entities the server read from an HTML text (none listed for plain text). */
  entities?: BotEntity[];
  replyMarkup?: unknown;
}

/** A planted failure for the next call(s) of a method. */
export interface PlantedFailure {
  code: number;
  description: string;
  retryAfter?: number;
  /** How many calls fail. @default 1 */
  times?: number;
}

/** The running server. */
export interface BotServer {
  /** `MESSENGER_API_ROOT` for the hub. */
  apiRoot: string;
  token: string;
  calls: BotCall[];
  /** Messages by `<chat>:<message id>`. */
  messages: Map<string, BotMessage>;
  /** Refuse every HTML text with "can't parse entities". */
  refuseEntities: boolean;
  /** When each update was first handed out by `getUpdates` (performance time), by id. */
  served: Map<number, number>;
  /** Queues a text message from `chatId`; returns its update id. */
  pushMessage(chatId: number, text: string): number;
  /** Queues a photo from `chatId`, with `caption` when given; returns its update id. */
  pushPhoto(chatId: number, caption?: string): number;
  /** How many calls were refused with 429 by the flood limits. */
  limited: number;
  /** Queues a button press on `messageId` in `chatId` with `data`. */
  pushPress(chatId: number, messageId: number, data: string): number;
  /** Makes the next call(s) of `method` fail. */
  fail(method: string, failure: PlantedFailure): void;
  /** Drops the failures still planted for `method`: its calls succeed again. */
  unfail(method: string): void;
  /** The calls of one method (optionally to one chat). */
  callsOf(method: string, chatId?: number): BotCall[];
  /** Waits until `check` holds (polling every 20 ms), or throws after `timeoutMs`. */
  until(what: string, check: () => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export function startBotServer(
  token = "123456:TEST-token-abcdefghijklmnopqrstuv",
  limits: BotLimits = {},
): BotServer {
  const editGapMs = limits.editGapMs ?? 1_000;
  const sendsPerSecond = limits.sendsPerSecond ?? 20;
  /** Per chat: when the last edit was taken, and when the recent sends were. */
  const lastEdit = new Map<number, number>();
  const recentSends = new Map<number, number[]>();
  const updates: Record<string, unknown>[] = [];
  let nextUpdateId = 1000;
  let nextMessageId = 1;
  const waiters = new Set<() => void>();
  const failures = new Map<string, PlantedFailure[]>();
  const controller = new AbortController();
  const wake = () => {
    for (const w of waiters) w();
    waiters.clear();
  };

  const server: BotServer = {
    apiRoot: "",
    token,
    calls: [],
    messages: new Map(),
    refuseEntities: false,
    served: new Map(),
    limited: 0,
    pushPhoto(chatId, caption) {
      const id = nextUpdateId++;
      updates.push({
        update_id: id,
        message: {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: "private", first_name: "Owner" },
          from: { id: chatId, is_bot: false, first_name: "Owner" },
          photo: [{ file_id: `photo${id}`, file_unique_id: `u${id}`, width: 90, height: 90 }],
          ...(caption === undefined ? {} : { caption }),
        },
      });
      wake();
      return id;
    },
    pushMessage(chatId, text) {
      const id = nextUpdateId++;
      const entities = text.startsWith("/")
        ? [{ type: "bot_command", offset: 0, length: text.split(/\s/)[0]!.length }]
        : undefined;
      updates.push({
        update_id: id,
        message: {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: "private", first_name: "Owner" },
          from: { id: chatId, is_bot: false, first_name: "Owner" },
          text,
          ...(entities ? { entities } : {}),
        },
      });
      wake();
      return id;
    },
    pushPress(chatId, messageId, data) {
      const id = nextUpdateId++;
      const message = server.messages.get(`${chatId}:${messageId}`);
      updates.push({
        update_id: id,
        callback_query: {
          id: `cb${id}`,
          from: { id: chatId, is_bot: false, first_name: "Owner" },
          chat_instance: "1",
          data,
          message: {
            message_id: messageId,
            date: Math.floor(Date.now() / 1000),
            chat: { id: chatId, type: "private", first_name: "Owner" },
            text: message?.text ?? "",
          },
        },
      });
      wake();
      return id;
    },
    fail(method, failure) {
      const list = failures.get(method) ?? [];
      for (let i = 0; i < (failure.times ?? 1); i++) list.push(failure);
      failures.set(method, list);
    },
    unfail(method) {
      failures.delete(method);
    },
    callsOf(method, chatId) {
      return server.calls.filter((c) =>
        c.method === method && (chatId === undefined || Number(c.body.chat_id) === chatId)
      );
    },
    async until(what, check, timeoutMs) {
      await until(
        `the Bot API server's ${what}`,
        check,
        timeoutMs === undefined ? {} : { timeoutMs },
      );
    },
    async stop() {
      controller.abort();
      wake();
      await http.finished;
    },
  };

  const ok = (result: unknown) => Response.json({ ok: true, result });
  const refuse = (code: number, description: string, retryAfter?: number) =>
    Response.json({
      ok: false,
      error_code: code,
      description,
      ...(retryAfter === undefined ? {} : { parameters: { retry_after: retryAfter } }),
    }, { status: code });

  /** A 429 when `method` to `chatId` now would pass the flood limits; else it counts. */
  function flood(method: string, chatId: number): Response | undefined {
    const now = Date.now();
    if (method === "editMessageText") {
      const wait = (lastEdit.get(chatId) ?? -Infinity) + editGapMs - now;
      if (wait > 0) return tooMany(wait);
      lastEdit.set(chatId, now);
      return undefined;
    }
    const sends = (recentSends.get(chatId) ?? []).filter((at) => at > now - 1_000);
    recentSends.set(chatId, sends);
    if (sends.length >= sendsPerSecond) return tooMany(sends[0]! + 1_000 - now);
    sends.push(now);
    return undefined;
  }

  function tooMany(waitMs: number): Response {
    server.limited++;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    return refuse(429, `Too Many Requests: retry after ${seconds}`, seconds);
  }

  async function params(request: Request): Promise<Record<string, unknown>> {
    const type = request.headers.get("content-type") ?? "";
    if (type.includes("application/json")) return await request.json();
    if (type.includes("form")) {
      const form = await request.formData();
      const out: Record<string, unknown> = {};
      for (const [k, v] of form.entries()) {
        const text = String(v);
        try {
          out[k] = JSON.parse(text);
        } catch {
          out[k] = text;
        }
      }
      return out;
    }
    const text = await request.text();
    return text ? JSON.parse(text) : {};
  }

  async function getUpdates(body: Record<string, unknown>, signal: AbortSignal) {
    const offset = Number(body.offset ?? 0);
    // Updates below the offset are confirmed: Telegram forgets them.
    while (updates.length > 0 && Number(updates[0]!.update_id) < offset) updates.shift();
    const deadline = Date.now() + Number(body.timeout ?? 0) * 1000;
    while (updates.length === 0 && Date.now() < deadline && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const out = updates.slice(0, Number(body.limit ?? 100));
    const now = performance.now();
    for (const u of out) {
      const id = Number(u.update_id);
      if (!server.served.has(id)) server.served.set(id, now);
    }
    return ok(out);
  }

  function textCall(method: string, body: Record<string, unknown>): Response {
    const chatId = Number(body.chat_id);
    const text = String(body.text ?? "");
    const parseMode = typeof body.parse_mode === "string" ? body.parse_mode : undefined;
    if (server.refuseEntities && parseMode === "HTML") {
      return refuse(
        400,
        'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0',
      );
    }
    let visible = text.length;
    let entities: BotEntity[] | undefined;
    if (parseMode === "HTML") {
      const parsed = parseTelegramHtml(text);
      if ("error" in parsed) return refuse(400, parsed.error);
      visible = parsed.length;
      entities = parsed.entities;
    }
    if (visible > 4096) return refuse(400, "Bad Request: message is too long");
    if (text.trim() === "") return refuse(400, "Bad Request: message text is empty");
    const limited = flood(method, chatId);
    if (limited !== undefined) return limited;
    const stored: BotMessage = {
      chatId,
      messageId: 0,
      text,
      ...(parseMode ? { parseMode } : {}),
      ...(entities === undefined || entities.length === 0 ? {} : { entities }),
      ...(body.reply_markup === undefined ? {} : { replyMarkup: body.reply_markup }),
    };
    if (method === "sendMessage") {
      stored.messageId = nextMessageId++;
    } else {
      const id = Number(body.message_id);
      const old = server.messages.get(`${chatId}:${id}`);
      if (old === undefined) return refuse(400, "Bad Request: message to edit not found");
      if (
        old.text === text && JSON.stringify(old.replyMarkup) === JSON.stringify(body.reply_markup)
      ) {
        return refuse(
          400,
          "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
        );
      }
      stored.messageId = id;
    }
    server.messages.set(`${chatId}:${stored.messageId}`, stored);
    return ok({
      message_id: stored.messageId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: "private" },
      text,
      ...(stored.entities === undefined ? {} : { entities: stored.entities }),
    });
  }

  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (request) => {
      const match = new URL(request.url).pathname.match(/^\/bot([^/]+)\/([A-Za-z]+)$/);
      if (!match) return refuse(404, "Not Found");
      const [, tokenInPath, method] = match as unknown as [string, string, string];
      const body = await params(request);
      server.calls.push({ method, body, at: performance.now(), token: tokenInPath });
      if (tokenInPath !== token) return refuse(401, "Unauthorized");
      const planted = failures.get(method)?.shift();
      if (planted) return refuse(planted.code, planted.description, planted.retryAfter);
      switch (method) {
        case "getMe":
          return ok({ id: 42, is_bot: true, first_name: "Agent", username: "agent_test_bot" });
        case "getUpdates":
          return await getUpdates(body, controller.signal);
        case "sendMessage":
        case "editMessageText":
          return textCall(method, body);
        case "editMessageReplyMarkup": {
          const key = `${Number(body.chat_id)}:${Number(body.message_id)}`;
          const old = server.messages.get(key);
          if (old === undefined) return refuse(400, "Bad Request: message to edit not found");
          server.messages.set(key, { ...old, replyMarkup: body.reply_markup });
          return ok(true);
        }
        case "sendChatAction":
        case "answerCallbackQuery":
        case "setMyCommands":
        case "deleteWebhook":
        case "setWebhook":
          return ok(true);
        default:
          return refuse(404, "Not Found: method not found");
      }
    },
  );
  server.apiRoot = `http://127.0.0.1:${http.addr.port}`;
  return server;
}
