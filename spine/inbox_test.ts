import assert from "node:assert/strict";
import type { RateLimit } from "@cloudflare/workers-types/index.ts";
import {
  b64uEncode,
  type EnvelopePayload,
  generateIdentity,
  type Identity,
  newEnvelopeId,
  signEnvelope,
} from "@agent/net";
import { errorResponse } from "@agent/net";
import { handleInbox, type InboxDeps, type InboxItem, type StoreResult } from "./inbox.ts";
import { resetLimitNotices } from "./rate_limit.ts";

const ME = "me.example";
const NOW = 1_800_000_000;

async function wire(identity: Identity, patch: Partial<EnvelopePayload> = {}) {
  const id = newEnvelopeId();
  const payload: EnvelopePayload = {
    v: 1,
    id,
    kind: "message",
    from: "peer.example",
    to: ME,
    ts: NOW,
    thread: id,
    reply_to: null,
    hops: 0,
    box: { epk: b64uEncode(new Uint8Array(32)), nonce: b64uEncode(new Uint8Array(12)), ct: "AAAA" },
    ...patch,
  };
  return await signEnvelope(payload, identity);
}

function limiter(allow: boolean): RateLimit & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    limit: ({ key }: { key: string }) => {
      keys.push(key);
      return Promise.resolve({ success: allow });
    },
  };
}

interface Calls {
  cards: string[];
  stored: InboxItem[];
}

function deps(identity: Identity, overrides: Partial<InboxDeps> = {}, result?: StoreResult) {
  const calls: Calls = { cards: [], stored: [] };
  const d: InboxDeps = {
    address: ME,
    nowSeconds: NOW,
    ipLimit: limiter(true),
    senderLimit: limiter(true),
    log: () => {},
    senderCard: (from) => {
      calls.cards.push(from);
      return Promise.resolve({ signKey: identity.signKeyBytes });
    },
    heldSenderCard: () => Promise.resolve(undefined),
    ownCard: () => Promise.resolve(undefined),
    store: (item) => {
      calls.stored.push(item);
      return Promise.resolve(result ?? { status: "queued", seq: 1, depth: 1 });
    },
    ...overrides,
  };
  return { d, calls };
}

type Answer = [number, { error?: string; status?: string; id?: string }];

async function answer(
  body: unknown,
  d: InboxDeps,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const request = new Request("https://me.example/net/inbox", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  let response: Response;
  try {
    response = await handleInbox(request, d);
  } catch (error) {
    response = errorResponse(error);
  }
  return [response.status, await response.json() as Answer[1]];
}

Deno.test("handleInbox() queues a good envelope, storing only payload and sig", async () => {
  const id = await generateIdentity();
  const w = await wire(id);
  const { d, calls } = deps(id);
  const payload = JSON.parse(
    new TextDecoder().decode(Uint8Array.fromBase64(w.payload, { alphabet: "base64url" })),
  );
  assert.deepEqual(await answer({ ...w, extra: true }, d), [202, {
    status: "queued",
    id: payload.id,
  }]);
  assert.deepEqual(calls.stored, [{
    from: "peer.example",
    id: payload.id,
    ts: NOW,
    envelope: { payload: w.payload, sig: w.sig },
  }]);
});

Deno.test("handleInbox() does not read the body of a non-JSON request", async () => {
  const id = await generateIdentity();
  let pulled = false;
  const body = new ReadableStream({
    pull(c) {
      pulled = true;
      c.close();
    },
  });
  const request = new Request("https://me.example/net/inbox", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body,
  });
  try {
    await handleInbox(request, deps(id).d);
  } catch (error) {
    assert.deepEqual((error as { code: string }).code, "unsupported_media_type");
  }
  assert.deepEqual(pulled, false);
});

Deno.test("handleInbox() keys the limits by client IP (/64) and sender; no header skips the IP limit", async () => {
  const id = await generateIdentity();
  const ip = limiter(true);
  const sender = limiter(true);
  const { d } = deps(id, { ipLimit: ip, senderLimit: sender });
  await answer(await wire(id), d, { "cf-connecting-ip": "2001:db8:5:6:7::8" });
  await answer(await wire(id), d);
  assert.deepEqual(ip.keys, ["ip:2001:db8:5:6::/64"]);
  // The claimed sender before the card; the verified sender after the signature.
  assert.deepEqual(sender.keys, [
    "from:peer.example",
    "verified:peer.example",
    "from:peer.example",
    "verified:peer.example",
  ]);
});

Deno.test("handleInbox() checks its own address against the stored card without fetching", async () => {
  const id = await generateIdentity();
  const { d, calls } = deps(id, { ownCard: () => Promise.resolve({ signKey: id.signKeyBytes }) });
  assert.deepEqual((await answer(await wire(id, { from: ME }), d))[0], 202);
  assert.deepEqual(calls.cards, []);
});

Deno.test("handleInbox() answers the Mailbox's verdicts", async () => {
  const id = await generateIdentity();
  const w = await wire(id);
  const cases: [StoreResult, number, string][] = [
    [{ status: "duplicate" }, 200, "duplicate"],
    [{ status: "rate_limited" }, 429, "rate_limited"],
    [{ status: "mailbox_full" }, 503, "mailbox_full"],
  ];
  for (const [result, status, code] of cases) {
    const [s, body] = await answer(w, deps(id, {}, result).d);
    assert.deepEqual([s, body.status ?? body.error], [status, code]);
  }
});

Deno.test("handleInbox() runs the checks in the spec's order", async () => {
  resetLimitNotices();
  const id = await generateIdentity();
  const other = await generateIdentity();
  const noCard = {
    senderCard: () => Promise.resolve(undefined),
    heldSenderCard: () => Promise.resolve(undefined),
  };
  const denied = { senderLimit: limiter(false) };
  // Each case fails the named check and every check after it, but none before.
  const cases: [string, () => Promise<[number, string | undefined]>][] = [
    ["unsupported_media_type", async () => {
      const big = "x".repeat(70_000);
      const r = await answer(big, deps(id, { ...noCard, ...denied }).d, {
        "content-type": "text/plain",
      });
      return [r[0], r[1].error];
    }],
    ["too_large", async () => {
      const r = await answer(JSON.stringify({ payload: "A".repeat(70_000) }), deps(id, noCard).d);
      return [r[0], r[1].error];
    }],
    ["bad_request", async () => {
      const bad = { ...(await wire(other, { to: "x.example", ts: 1 })), payload: "!!" };
      const r = await answer(bad, deps(id, { ...noCard, ...denied }).d);
      return [r[0], r[1].error];
    }],
    ["wrong_recipient", async () => {
      const r = await answer(
        await wire(other, { to: "x.example", ts: 1 }),
        deps(id, { ...noCard, ...denied }).d,
      );
      return [r[0], r[1].error];
    }],
    ["stale", async () => {
      const r = await answer(
        await wire(other, { ts: NOW - 301 }),
        deps(id, { ...noCard, ...denied }).d,
      );
      return [r[0], r[1].error];
    }],
    ["rate_limited (ip)", async () => {
      const r = await answer(
        await wire(other),
        deps(id, { ...noCard, ipLimit: limiter(false) }).d,
        { "cf-connecting-ip": "192.0.2.1" },
      );
      return [r[0], r[1].error];
    }],
    ["rate_limited (sender)", async () => {
      const r = await answer(await wire(other), deps(id, { ...noCard, ...denied }).d);
      return [r[0], r[1].error];
    }],
    ["sender_card_unavailable", async () => {
      const r = await answer(await wire(other), deps(id, noCard, { status: "mailbox_full" }).d);
      return [r[0], r[1].error];
    }],
    ["bad_signature", async () => {
      const r = await answer(await wire(other), deps(id, {}, { status: "duplicate" }).d);
      return [r[0], r[1].error];
    }],
  ];
  const expected: Record<string, number> = {
    unsupported_media_type: 415,
    too_large: 413,
    bad_request: 400,
    wrong_recipient: 400,
    stale: 400,
    "rate_limited (ip)": 429,
    "rate_limited (sender)": 429,
    sender_card_unavailable: 502,
    bad_signature: 403,
  };
  for (const [name, run] of cases) {
    assert.deepEqual(await run(), [expected[name], name.split(" ")[0]], name);
  }
});

/** A limiter that counts per key and lets `max` through per key. */
function counting(max: number): RateLimit & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  return {
    counts,
    limit: ({ key }: { key: string }) => {
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return Promise.resolve({ success: n <= max });
    },
  };
}

Deno.test("handleInbox() counts forged envelopes on the claimed sender only", async () => {
  const real = await generateIdentity();
  const forger = await generateIdentity();
  const senderLimit = counting(30);
  const { d, calls } = deps(real, {
    senderLimit,
    heldSenderCard: () => Promise.resolve({ signKey: real.signKeyBytes }),
  });
  // 40 forged envelopes naming the sender: the first 30 fetch its card and fail the
  // signature, the rest are over the claimed counter and use the card already held.
  for (let i = 0; i < 40; i++) {
    const [status, body] = await answer(await wire(forger), d);
    assert.deepEqual([status, body.error], [403, "bad_signature"], `forged ${i}`);
  }
  assert.deepEqual(calls.cards.length, 30);
  // The sender's own envelopes still pass, counted on their own verified counter.
  for (let i = 0; i < 30; i++) {
    const [status] = await answer(await wire(real), d);
    assert.deepEqual(status, 202, `genuine ${i}`);
  }
  assert.deepEqual(calls.cards.length, 30, "no card fetch over the claimed limit");
  assert.deepEqual(senderLimit.counts.get("verified:peer.example"), 30);
  // The verified counter keeps the spec's 30 a minute for the sender itself.
  const request = new Request("https://me.example/net/inbox", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(await wire(real)),
  });
  const over = await handleInbox(request, d).catch(errorResponse);
  assert.deepEqual([over.status, await over.json()], [429, { error: "rate_limited" }]);
  assert.deepEqual(over.headers.get("retry-after"), "60");
});

Deno.test("handleInbox() answers 429 over the claimed limit when no card is held", async () => {
  const real = await generateIdentity();
  const { d, calls } = deps(real, { senderLimit: limiter(false) });
  const [status, body] = await answer(await wire(real), d);
  assert.deepEqual([status, body.error], [429, "rate_limited"]);
  assert.deepEqual(calls.cards, []);
  assert.deepEqual(calls.stored, []);
});
