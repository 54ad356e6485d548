import type { ExecutionContext } from "@cloudflare/workers-types/index.ts";
import { b64uDecode, isAddress } from "@agent/net";
import { CardMemo, fetchSenderCard } from "./card_fetch.ts";
import { type Env, insecurePeersAllowed, ownAddress } from "./env.ts";
import { fullCard, handleHub } from "./hub_api.ts";
import { errorResponse, HttpError, json, type RouteInput, Router } from "@agent/net";
import { handleInbox } from "./inbox.ts";
import { mailboxFor } from "./mailbox_client.ts";
import { cloudCron, requireCloudMode } from "./cloud/routes.ts";
import { MESSENGER_WEBHOOK_PATH, takeUpdate } from "./cloud/messenger_webhook.ts";
import { handleDashboard } from "./cloud/dashboard.ts";

// Per isolate: lets a busy sender's envelopes skip the key-value read.
const cardMemo = new CardMemo();

/** What every top-level route gets. */
interface SpineCall {
  env: Env;
  ctx: ExecutionContext | undefined;
  /** The spine's own address. */
  address: string;
  allowInsecure: boolean;
}

/** The spine's routes; `/hub/*` has its own table behind the bearer token (`hub_api.ts`). */
const ROUTES = new Router<SpineCall>()
  .on("GET", "/", (_request, { context }) =>
    new Response(`agent spine ${context.address}`, {
      headers: { "content-type": "text/plain; charset=utf-8" },
    }))
  .on("GET", "/.well-known/agent.json", async (_request, { context }) => {
    const { card } = await mailboxFor(context.env.MAILBOX).status();
    const headers = { "Access-Control-Allow-Origin": "*" };
    if (card === null) throw new HttpError(404, "no_card", { headers });
    return json(fullCard(card, context.address, context.allowInsecure), 200, {
      ...headers,
      "Cache-Control": "public, max-age=300",
    });
  })
  .post("/net/inbox", async (request, { context }) => {
    const { env, address, allowInsecure } = context;
    const mailbox = mailboxFor(env.MAILBOX);
    return await handleInbox(request, {
      address,
      nowSeconds: Math.floor(Date.now() / 1000),
      ipLimit: env.INBOX_IP_LIMIT,
      senderLimit: env.INBOX_SENDER_LIMIT,
      log: (line) => console.warn(line),
      senderCard: (from) =>
        fetchSenderCard(from, { allowInsecure, cache: env.PEER_CARDS, memo: cardMemo }),
      heldSenderCard: (from) =>
        fetchSenderCard(from, {
          allowInsecure,
          cache: env.PEER_CARDS,
          memo: cardMemo,
          heldOnly: true,
        }),
      ownCard: async () => {
        const { card } = await mailbox.status();
        return card ? { signKey: b64uDecode(card.sign_key) } : undefined;
      },
      store: (item) => mailbox.store(item),
    });
  })
  .post(MESSENGER_WEBHOOK_PATH, async (request, { context }) => {
    requireCloudMode(context.env);
    const { response, handOver } = await takeUpdate(request, context.env);
    if (handOver) {
      if (context.ctx) context.ctx.waitUntil(handOver);
      else await handOver;
    }
    return response;
  });

/** `/hub/dashboard/*` (its own login, before the bearer check), then `/hub/*`. */
const PREFIXES = new Router<SpineCall>()
  // The dashboard's browser has no bearer token: its routes do their own login.
  .all("/hub/dashboard", dashboard)
  .all("/hub/dashboard/*", dashboard)
  .all("/hub", hub)
  .all("/hub/*", hub);

function dashboard(request: Request, { url, context }: RouteInput<SpineCall>): Promise<Response> {
  return handleDashboard(request, url, context.env);
}

function hub(request: Request, { url, context }: RouteInput<SpineCall>): Promise<Response> {
  return handleHub(request, url, {
    env: context.env,
    address: context.address,
    allowInsecure: context.allowInsecure,
    mailbox: mailboxFor(context.env.MAILBOX),
  });
}

/** The spine's fetch handler: every error becomes the spec's `{error: code}` body here. */
export async function handleRequest(
  request: Request,
  env: Env,
  ctx?: ExecutionContext,
): Promise<Response> {
  try {
    return await route(request, env, ctx);
  } catch (error) {
    return errorResponse(error);
  }
}

async function route(
  request: Request,
  env: Env,
  ctx: ExecutionContext | undefined,
): Promise<Response> {
  const url = new URL(request.url);
  const address = ownAddress(env, url);
  // Without ADDRESS the request's host is the address: a host that is not one (an IPv6
  // literal, port 0, `foo_bar`) is refused before anything reads or stores.
  if (!isAddress(address)) {
    await request.body?.cancel();
    throw new HttpError(400, "bad_request", {
      detail: `the host '${address}' is not an agent address`,
    });
  }
  const call: SpineCall = { env, ctx, address, allowInsecure: insecurePeersAllowed(env) };
  const answer = await PREFIXES.handle(request, call, { url }) ??
    await ROUTES.handle(request, call, { url });
  if (answer !== undefined) return answer;
  await request.body?.cancel();
  throw new HttpError(404, "not_found");
}

/**
 * The per-minute cron: the Mailbox's cleanup as of the scheduled time; in cloud mode the
 * brain's keep-awake ping and the messenger updates it has not taken.
 */
export async function runCron(scheduledTime: number, env: Env): Promise<void> {
  await mailboxFor(env.MAILBOX).prune(scheduledTime);
  await cloudCron(env, scheduledTime);
}
