/**
 * The universe's API: one agent, who is listed (our extension, with `/api/info`), and
 * the signed `join`, `report` and `leave`, whose checks run in the spec's order: size, shape, universe, clock
 * window, path, card, signature here; replay, joined, rate and the effect in the
 * directory, in one transaction.
 *
 * @module
 */
import {
  b64uDecode,
  downloadCard,
  HttpError,
  isAddress,
  json,
  parseUniverseRequest,
  readLimited,
  verifyUniverseRequest,
} from "@agent/net";
import { DirectoryClient } from "./directory_client.ts";
import { type Env, UNIVERSE_VERSION } from "./env.ts";

/** Largest request body, in bytes. */
export const MAX_BODY_BYTES = 65_536;

/** How far a request's `ts` may be from the universe's clock, in seconds. */
export const CLOCK_WINDOW_SECONDS = 300;

/** What the API needs besides the request. */
export interface ApiContext {
  env: Env;
  /** The universe's host. */
  host: string;
  allowInsecure: boolean;
  /** Unix seconds. */
  now: number;
  /** The fetch cards are read with. @default globalThis.fetch */
  fetch?: typeof fetch;
}

const API_HEADERS = { "Access-Control-Allow-Origin": "*" };

/** Most addresses one `POST /api/listed` may ask about. */
export const LISTED_MAX_ADDRESSES = 1_000;

/** Largest `POST /api/listed` body, in bytes (1,000 addresses of the longest kind fit). */
export const LISTED_MAX_BYTES = 300_000;

/**
 * `GET /api/info`: the universe's host, software version and our extensions to
 * document 3 (`listed`: the path and its limit), so a hub knows what it may use.
 */
export function infoResponse(ctx: ApiContext): Response {
  return json(
    {
      universe: ctx.host,
      version: UNIVERSE_VERSION,
      listed: { path: "/api/listed", max_addresses: LISTED_MAX_ADDRESSES },
    },
    200,
    { "Cache-Control": "public, max-age=3600", ...API_HEADERS },
  );
}

/**
 * `POST /api/listed` (our extension): `{addresses: [<address>, ...]}` with at most
 * {@linkcode LISTED_MAX_ADDRESSES} → `{listed: [...]}`, those the universe lists, in
 * the order asked, each once.
 */
export async function listedResponse(request: Request, ctx: ApiContext): Promise<Response> {
  const bytes = request.body === null
    ? new Uint8Array()
    : await readLimited(request.body, LISTED_MAX_BYTES);
  if (bytes === undefined) throw new HttpError(413, "too_large", { headers: API_HEADERS });
  const bad = (detail: string) =>
    new HttpError(400, "bad_request", { detail, headers: API_HEADERS });
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw bad("the body is not JSON");
  }
  const addresses = (body as { addresses?: unknown } | null)?.addresses;
  if (!Array.isArray(addresses)) throw bad("the body needs addresses: a list of addresses");
  if (addresses.length > LISTED_MAX_ADDRESSES) {
    throw bad(`at most ${LISTED_MAX_ADDRESSES} addresses, not ${addresses.length}`);
  }
  const wrong = addresses.findIndex((a) => !isAddress(a));
  if (wrong !== -1) throw bad(`addresses[${wrong}] is not an address`);
  const listed = addresses.length === 0
    ? []
    : await new DirectoryClient(ctx.env.DIRECTORY).listed(addresses as string[]);
  return json({ listed }, 200, { "Cache-Control": "no-store", ...API_HEADERS });
}

/** `GET /api/taus/<address>`. */
export async function tauResponse(address: string, ctx: ApiContext): Promise<Response> {
  const tau = isAddress(address)
    ? await new DirectoryClient(ctx.env.DIRECTORY).tau(address, ctx.now)
    : undefined;
  if (tau === undefined) throw new HttpError(404, "not_found", { headers: API_HEADERS });
  return json(tau, 200, { "Cache-Control": "public, max-age=60", ...API_HEADERS });
}

/** `POST /api/<kind>`: a signed request, checked in order, then applied. */
export async function signedRequest(
  request: Request,
  pathKind: string,
  ctx: ApiContext,
): Promise<Response> {
  // 1. size
  const bytes = request.body === null
    ? new Uint8Array()
    : await readLimited(request.body, MAX_BODY_BYTES);
  if (bytes === undefined) throw new HttpError(413, "too_large");
  // 2. shape
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new HttpError(400, "bad_request", { detail: "the body is not JSON" });
  }
  const parsed = parseUniverseRequest(body);
  if (!parsed.ok) throw new HttpError(400, "bad_request", { detail: parsed.detail });
  const payload = parsed.payload;
  // 3. universe
  if (payload.universe.toLowerCase() !== ctx.host) throw new HttpError(400, "wrong_universe");
  // 4. clock window (the replay half runs in the directory)
  if (Math.abs(ctx.now - payload.ts) > CLOCK_WINDOW_SECONDS) throw new HttpError(400, "stale");
  // 5. path
  if (payload.kind !== pathKind) {
    throw new HttpError(400, "bad_request", {
      detail: `the path is /api/${pathKind} but the payload's kind is ${payload.kind}`,
    });
  }
  // 6. card
  const card = await downloadCard(payload.address, {
    allowInsecure: ctx.allowInsecure,
    ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
  }) as Record<string, unknown> | undefined;
  const signKey = cardKey(card, payload.address);
  if (card === undefined || signKey === undefined || typeof card.name !== "string") {
    throw new HttpError(502, "card_unavailable");
  }
  // 7. signature
  if (!await verifyUniverseRequest(parsed.wire, signKey)) throw new HttpError(403, "bad_signature");
  const result = await new DirectoryClient(ctx.env.DIRECTORY).apply({
    kind: payload.kind,
    address: payload.address,
    ts: payload.ts,
    name: card.name,
    sign_key: card.sign_key as string,
    now: ctx.now,
    ...(payload.kind === "join" ? { owner: payload.owner, about: payload.about } : {}),
    ...(payload.kind === "report" ? { links: payload.links, subs: payload.subs ?? [] } : {}),
  });
  if (result.status === 200 && payload.kind === "join") {
    return json({ ok: true, url: `https://${ctx.host}/universe#${payload.address}` });
  }
  return json(result.body, result.status);
}

/** The card's signing key when the card is a v1 card of `address`. */
function cardKey(card: Record<string, unknown> | undefined, address: string): string | undefined {
  if (card === undefined || card.v !== 1 || card.address !== address) return undefined;
  if (typeof card.sign_key !== "string") return undefined;
  try {
    return b64uDecode(card.sign_key).byteLength === 32 ? card.sign_key : undefined;
  } catch {
    return undefined;
  }
}
