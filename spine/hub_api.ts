import { baseUrlFor, canonicalKey, type Card, parseCardInput } from "@agent/net";
import { requireBearer } from "./auth.ts";
import { type Env, SPINE_SOFTWARE, SPINE_VERSION, spineMode } from "./env.ts";
import { HttpError, json, methodNotAllowed, parseJsonBody, readRequestBody } from "@agent/net";
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

function allow(request: Request, methods: string[]): void {
  if (!methods.includes(request.method)) methodNotAllowed(methods);
}

/**
 * Every `/hub/*` request: bearer token first (503 `not_configured` without
 * `HUB_TOKEN`, 401 `unauthorized`), then the route.
 */
export async function handleHub(request: Request, url: URL, ctx: HubContext): Promise<Response> {
  requireBearer(request, ctx.env.HUB_TOKEN);
  const path = url.pathname;
  if (isCloudOnlyPath(path)) return await handleCloud(request, url, ctx.env);
  switch (path) {
    case "/hub/health": {
      allow(request, ["GET"]);
      const status = await ctx.mailbox.status();
      return json({
        ok: true,
        address: ctx.address,
        mode: spineMode(ctx.env),
        card: status.card !== null,
        mailbox: status.mailbox,
        version: SPINE_VERSION,
      });
    }
    case "/hub/card": {
      allow(request, ["PUT"]);
      const body = parseJsonBody(await readRequestBody(request, HUB_BODY_MAX_BYTES));
      let input: StoredCard;
      try {
        input = parseCardInput(body);
      } catch (error) {
        // parseCardInput's TypeError names the bad field; anything else is internal.
        if (!(error instanceof TypeError)) throw error;
        throw new HttpError(400, "bad_request", { detail: error.message });
      }
      await ctx.mailbox.putCard(input);
      return json(fullCard(input, ctx.address, ctx.allowInsecure));
    }
    case "/hub/updates": {
      allow(request, ["GET"]);
      const q = parseUpdatesQuery(url.searchParams);
      return await ctx.mailbox.updates(q.after, q.timeout, q.limit);
    }
    case "/hub/ack": {
      allow(request, ["POST"]);
      const body = parseJsonBody(await readRequestBody(request, HUB_BODY_MAX_BYTES));
      return json({ deleted: await ctx.mailbox.ack(parseAckBody(body)) });
    }
    case "/hub/ws": {
      allow(request, ["GET"]);
      if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
        // workerd's own HTTP server writes Upgrade only on a 101 and drops this one on
        // the wire; service bindings and platforms that pass the Worker's headers on
        // keep it (tests/spine/upgrade_header_test.ts).
        throw new HttpError(426, "upgrade_required", { headers: { Upgrade: "websocket" } });
      }
      return await ctx.mailbox.doorbell(request);
    }
    default:
      throw new HttpError(404, "not_found");
  }
}
