import type { RateLimit } from "@cloudflare/workers-types/index.ts";
import { parseWireEnvelope, verifyParsedEnvelope, type WireEnvelope } from "@agent/net";
import { HttpError, isJsonContentType, json, parseJsonBody, readRequestBody } from "@agent/net";
import { clientIpKey, type LimitLog, withinLimit } from "./rate_limit.ts";
import type { SenderCard } from "./card_fetch.ts";

/** Largest inbox body in bytes. */
export const INBOX_MAX_BYTES = 65_536;

/** Largest allowed difference between an envelope's `ts` and now, in seconds. */
export const CLOCK_WINDOW_SECONDS = 300;

/** What the inbox hands the Mailbox once an envelope passed every check before it. */
export interface InboxItem {
  /** Sender address. */
  from: string;
  /** Envelope id. */
  id: string;
  /** Send time (Unix seconds). */
  ts: number;
  /** The wire envelope with unknown top-level keys dropped. */
  envelope: WireEnvelope;
}

/** The Mailbox's verdict on an envelope. */
export type StoreResult =
  | { status: "queued"; seq: number; depth: number }
  | { status: "duplicate" }
  | { status: "rate_limited" }
  | { status: "mailbox_full" };

/** Everything the inbox needs from the outside, so it can be tested directly. */
export interface InboxDeps {
  /** The spine's own address. */
  address: string;
  /** Now, in Unix seconds. */
  nowSeconds: number;
  /** Per-client-IP binding (`INBOX_IP_LIMIT`). */
  ipLimit?: RateLimit | undefined;
  /** Per-sender binding (`INBOX_SENDER_LIMIT`). */
  senderLimit?: RateLimit | undefined;
  /** Where rate-limit notices go. */
  log: LimitLog;
  /** A peer's card (fetched or cached); `undefined` when unavailable. */
  senderCard(from: string): Promise<SenderCard | undefined>;
  /**
   * A peer's card only if already held (in memory or the key-value cache), never
   * fetched: what an envelope over its claimed sender's limit may still be checked with.
   */
  heldSenderCard(from: string): Promise<SenderCard | undefined>;
  /** The spine's own stored card, for envelopes from its own address. */
  ownCard(): Promise<SenderCard | undefined>;
  /** Runs the Mailbox's last three checks and stores the envelope in one step. */
  store(item: InboxItem): Promise<StoreResult>;
}

/** How long a per-minute 429 asks the sender to wait, in seconds (one window). */
export const MINUTE_LIMIT_RETRY_SECONDS = 60;

function rateLimited(): HttpError {
  return new HttpError(429, "rate_limited", {
    headers: { "Retry-After": String(MINUTE_LIMIT_RETRY_SECONDS) },
  });
}

/**
 * `POST /net/inbox`: runs the spec's checks in order (the first failing check
 * answers) and queues the envelope: 202 `{status: queued, id}` or 200
 * `{status: duplicate, id}`. Failures are thrown as {@linkcode HttpError}.
 *
 * The per-sender limit is counted twice, so that a forged envelope never uses up a real
 * sender's allowance (docs/spine.md, "Rules where the spec is silent"): every envelope
 * counts on its claimed `from` (`from:<from>`) before any costly step, and one whose
 * signature verifies counts on `verified:<from>` too, which alone decides its 429. Over
 * the claimed counter the envelope is still checked, but only against a card already
 * held: a flood naming a sender buys no card fetch, and the sender's own envelopes pass.
 */
export async function handleInbox(request: Request, deps: InboxDeps): Promise<Response> {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    await request.body?.cancel().catch(() => {});
    throw new HttpError(415, "unsupported_media_type");
  }
  const bytes = await readRequestBody(request, INBOX_MAX_BYTES);
  const parsed = parseWireEnvelope(parseJsonBody(bytes));
  if (!parsed.ok) throw new HttpError(400, "bad_request", { detail: parsed.detail });
  const { payload } = parsed;
  if (payload.to !== deps.address) throw new HttpError(400, "wrong_recipient");
  if (Math.abs(deps.nowSeconds - payload.ts) > CLOCK_WINDOW_SECONDS) {
    throw new HttpError(400, "stale");
  }

  const ip = request.headers.get("cf-connecting-ip");
  if (
    ip && !(await withinLimit(deps.ipLimit, "INBOX_IP_LIMIT", `ip:${clientIpKey(ip)}`, deps.log))
  ) {
    throw rateLimited();
  }
  const claimedWithin = await withinLimit(
    deps.senderLimit,
    "INBOX_SENDER_LIMIT",
    `from:${payload.from}`,
    deps.log,
  );

  let card: SenderCard | undefined;
  if (payload.from === deps.address) {
    card = await deps.ownCard();
  } else if (claimedWithin) {
    card = await deps.senderCard(payload.from);
  } else {
    card = await deps.heldSenderCard(payload.from);
    if (!card) throw rateLimited();
  }
  if (!card) throw new HttpError(502, "sender_card_unavailable");

  const envelope: WireEnvelope = { payload: parsed.wire.payload, sig: parsed.wire.sig };
  let verified = false;
  try {
    // Over the exact payload bytes the shape check already decoded.
    verified = await verifyParsedEnvelope(parsed, card.signKey);
  } catch {
    verified = false;
  }
  if (!verified) throw new HttpError(403, "bad_signature");
  if (
    !(await withinLimit(
      deps.senderLimit,
      "INBOX_SENDER_LIMIT",
      `verified:${payload.from}`,
      deps.log,
    ))
  ) {
    throw rateLimited();
  }

  const result = await deps.store({ from: payload.from, id: payload.id, ts: payload.ts, envelope });
  switch (result.status) {
    case "queued":
      return json({ status: "queued", id: payload.id }, 202);
    case "duplicate":
      return json({ status: "duplicate", id: payload.id }, 200);
    case "rate_limited":
      throw new HttpError(429, "rate_limited");
    case "mailbox_full":
      throw new HttpError(503, "mailbox_full");
  }
}
