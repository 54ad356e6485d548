import { baseUrlFor, canonicalKey, type Card, parseCardInput } from "@agent/net";
import { requireBearer } from "./auth.ts";
import { type Env, SPINE_SOFTWARE, SPINE_VERSION, spineMode } from "./env.ts";
import { HttpError, json, parseJsonBody, readRequestBody, Router } from "@agent/net";
import { parseAckBody, parseUpdatesQuery } from "./hub_query.ts";
import type { MailboxClient } from "./mailbox_client.ts";
import type { StoredCard } from "./mailbox.ts";
import { handleCloud, isCloudOnlyPath } from "./cloud/routes.ts";

/** Largest hub API JSON body (card, ack) in bytes. */
export const HUB_BODY_MAX_BYTES = 65_536;

/** What a hub route needs besides the request. */
export interface HubContext {
  /** The Worker's environment. */
  env: Env;
  /** The spine's own address. */
  address: string;
  /** Whether `ALLOW_INSECURE_PEERS=1`. */
  allowInsecure: boolean;
  /** The Mailbox named `hub`. */
  mailbox: MailboxClient;
}

/**
 * Builds the full card the spine serves from the stored fields, keys in canonical b64u
 * (a card stored padded by an older spine is served without padding).
 */
export function fullCard(stored: StoredCard, address: string, allowInsecure: boolean): Card {
  return {
    v: 1,
    address,
    name: stored.name,
    sign_key: canonicalKey(stored.sign_key) ?? stored.sign_key,
    box_key: canonicalKey(stored.box_key) ?? stored.box_key,
    inbox: `${baseUrlFor(address, allowInsecure)}/net/inbox`,
    software: SPINE_SOFTWARE,
  };
}

/** The hub API's own routes (the cloud-only ones: `cloud/routes.ts`). */
const HUB_ROUTES = new Router<HubContext>()
  .on("GET", "/hub/health", async (_request, { context }) => {
    const status = await context.mailbox.status();
    return json({
      ok: true,
      address: context.address,
      mode: spineMode(context.env),
      card: status.card !== null,
      mailbox: status.mailbox,
      version: SPINE_VERSION,
    });
  })
  .put("/hub/card", async (request, { context }) => {
    const body = parseJsonBody(await readRequestBody(request, HUB_BODY_MAX_BYTES));
    let input: StoredCard;
    try {
      input = parseCardInput(body);
    } catch (error) {
      // parseCardInput's TypeError names the bad field; anything else is internal.
      if (!(error instanceof TypeError)) throw error;
      throw new HttpError(400, "bad_request", { detail: error.message });
    }
    await context.mailbox.putCard(input);
    return json(fullCard(input, context.address, context.allowInsecure));
  })
  .on("GET", "/hub/updates", async (_request, { url, context }) => {
    const q = parseUpdatesQuery(url.searchParams);
    return await context.mailbox.updates(q.after, q.timeout, q.limit);
  })
  .post("/hub/ack", async (request, { context }) => {
    const body = parseJsonBody(await readRequestBody(request, HUB_BODY_MAX_BYTES));
    return json({ deleted: await context.mailbox.ack(parseAckBody(body)) });
  })
  .on("GET", "/hub/ws", async (request, { context }) => {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      // workerd's own HTTP server writes Upgrade only on a 101 and drops this one on
      // the wire; service bindings and platforms that pass the Worker's headers on
      // keep it (tests/spine/upgrade_header_test.ts).
      throw new HttpError(426, "upgrade_required", { headers: { Upgrade: "websocket" } });
    }
    return await context.mailbox.doorbell(request);
  });

/**
 * Every `/hub/*` request: bearer token first (503 `not_configured` without
 * `HUB_TOKEN`, 401 `unauthorized`), then the route.
 */
export async function handleHub(request: Request, url: URL, ctx: HubContext): Promise<Response> {
  requireBearer(request, ctx.env.HUB_TOKEN);
  if (isCloudOnlyPath(url.pathname)) return await handleCloud(request, url, ctx.env);
  const answer = await HUB_ROUTES.handle(request, ctx, { url });
  if (answer === undefined) throw new HttpError(404, "not_found");
  return answer;
}
