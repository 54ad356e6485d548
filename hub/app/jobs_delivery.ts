/**
 * Where job answers go, for the delivery worker (`hub/jobs/delivery.ts`): the owner-event
 * stream (the hub's bus, or the events file from `agent jobs run`) and, when
 * `MESSENGER_BOT_TOKEN` is set, each allowed messenger chat through the Bot API: the
 * answer's Markdown as Telegram HTML (`parse_mode: "HTML"`, the messenger's renderer),
 * in the parts the messenger splits every text into, so the worker's per-part marks
 * hold. A part whose HTML Telegram refuses goes again as the plain text it shows.
 * grammY is loaded only when a chat send is made.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { AgentConfig } from "../config/types.ts";
import { type OwnerEventSink, readEventLog } from "../events/mod.ts";
import { DeliveryError, type DeliverySinks } from "../jobs/delivery.ts";
import {
  allowedChats,
  botApiFailure,
  loadBotApi,
  markdownHtmlParts,
  plainOfHtml,
  refusedEntities,
} from "../channels/messenger/mod.ts";

/** The sinks, and the chats an answer with `deliver: messenger` goes to. */
export function jobDeliverySinks(options: {
  config: AgentConfig;
  env: Readonly<Record<string, string | undefined>>;
  events: OwnerEventSink;
  netDir: string;
}): { sinks: DeliverySinks; chats: string[] } {
  const { events, netDir } = options;
  const sinks: DeliverySinks = {
    events: {
      publish: (event) => events.publish(event),
      async has(slotId) {
        const log = await readEventLog(netDir);
        return log.some((e) => e.type === "job.result" && e.slot_id === slotId);
      },
    },
    async notice(job, text, said) {
      await events.publish({
        ts: Math.floor(Date.now() / 1000),
        type: "job.notice",
        job,
        text,
        said,
      });
    },
  };
  const token = options.env.MESSENGER_BOT_TOKEN?.trim();
  if (!token) return { sinks, chats: [] };
  const apiRoot = options.env.MESSENGER_API_ROOT?.trim().replace(/\/+$/, "") || undefined;
  let api: Promise<import("grammy").Api> | undefined;
  sinks.chat = {
    parts: (text) => markdownHtmlParts(text),
    async send(chat, part, signal) {
      api ??= loadBotApi().then((Api) => new Api(token, apiRoot ? { apiRoot } : {}));
      const bot = await api;
      try {
        await bot.sendMessage(chat, part, { parse_mode: "HTML" }, signal);
      } catch (error) {
        if (!refusedEntities(botApiFailure(error, token))) throw asDeliveryError(error, token);
        try {
          await bot.sendMessage(chat, plainOfHtml(part), undefined, signal);
        } catch (again) {
          throw asDeliveryError(again, token);
        }
      }
    },
  };
  return { sinks, chats: [...allowedChats(options.config, options.env)] };
}

/** A Bot API failure as the worker reads it: a 4xx but 429 is for good. */
function asDeliveryError(error: unknown, token: string): DeliveryError {
  const failure = botApiFailure(error, token);
  const permanent = failure.code >= 400 && failure.code < 500 && failure.code !== 429;
  const message = failure.code === 0
    ? `the Bot API did not answer: ${failure.description || errorMessage(error)}`
    : `the Bot API answered ${failure.code} ${failure.description}`;
  return new DeliveryError(message, {
    permanent,
    ...(failure.retryAfter === undefined ? {} : { retryAfterMs: failure.retryAfter * 1000 }),
  });
}
