/**
 * A seeded, structure-aware mutation fuzzer of the inbox (`POST /net/inbox`) on workerd:
 * mutations of valid envelopes (bytes flipped in payload and signature, wrong types, huge
 * and negative numbers, deep nesting, invalid UTF-8, unicode edge cases, oversize and
 * chunked bodies, wrong content types) with genuine envelopes from other senders mixed
 * in (one input in 25). Figures: inputs; 5xx other than the protocol's own (502
 * `sender_card_unavailable`, 503 `mailbox_full`); inputs wrongly accepted; genuine
 * envelopes lost (not queued, or not in the hub's `/hub/updates` afterwards). The goal
 * for the last three is 0.
 *
 * Used by `tests/reliability/inbox_fuzz_test.ts` (1,000 inputs) and
 * `deno task bench inbox_fuzz` (10,000).
 *
 * @module
 */
import { b64uDecode, b64uEncode } from "@agent/net";
import { envelopeFor, type Peer, signRaw, startPeer } from "../spine/_fixtures.ts";
import { startSpine } from "../spine/_harness.ts";

const CONCURRENCY = 16;
/** One input in this many is a genuine envelope that must arrive. */
const GENUINE_EVERY = 25;
/** Genuine envelopes per sender, under the Mailbox's 60 an hour. */
const GENUINE_PER_SENDER = 50;
const TOKEN = "fz";

/** A deterministic random source (mulberry32), so a failure can be replayed. */
export function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  body: BodyInit;
  contentType?: string;
  /** Must not be accepted (202). */
  mustReject: boolean;
  what: string;
}

/** What a fuzz run found. */
export interface FuzzFigures {
  inputs: number;
  /** Of which genuine envelopes. */
  genuine: number;
  /** 5xx answers other than the protocol's own. */
  serverErrors: number;
  /** Inputs that must be refused but were queued. */
  wronglyAccepted: number;
  /** Genuine envelopes not queued or not delivered to the hub. */
  lost: number;
  /** Whether the spine answered health and took a fresh envelope at the end. */
  stillServing: boolean;
  seconds: number;
  /** One line per kind of failure, for the assertion message. */
  failures: string[];
}

/** Runs `count` inputs against a fresh spine on workerd. */
export async function runInboxFuzz(count: number, seed = 20261124): Promise<FuzzFigures> {
  const spine = await startSpine({ hubToken: TOKEN, rateLimits: false });
  const peer = await startPeer("Fuzzer");
  const senders: Peer[] = [];
  const rand = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  try {
    const genuineCount = Math.floor(count / GENUINE_EVERY);
    for (let i = 0; i < Math.ceil(genuineCount / GENUINE_PER_SENDER); i++) {
      senders.push(await startPeer(`Sender ${i}`));
    }
    const base = await envelopeFor(peer, spine.address);
    const payloadBytes = b64uDecode(base.payload);
    const payloadJson = JSON.parse(new TextDecoder().decode(payloadBytes));
    const flip = (bytes: Uint8Array) => {
      const copy = bytes.slice();
      const i = Math.floor(rand() * copy.length);
      copy[i] = copy[i]! ^ (1 << Math.floor(rand() * 8));
      return copy;
    };
    const resigned = async (value: unknown): Promise<string> =>
      JSON.stringify(
        await signRaw(new TextEncoder().encode(JSON.stringify(value)), peer.identity),
      );
    const weird = [
      -1,
      2 ** 53,
      -(2 ** 60),
      1e308,
      0.5,
      "1",
      null,
      true,
      [],
      {},
      "\u0000",
      "\ud800",
      "😀".repeat(5000),
    ];
    const fields = ["v", "id", "kind", "from", "to", "ts", "thread", "reply_to", "hops", "box"];
    const makers: (() => Case | Promise<Case>)[] = [
      () => ({
        what: "payload bit flipped",
        mustReject: true,
        body: JSON.stringify({ payload: b64uEncode(flip(payloadBytes)), sig: base.sig }),
      }),
      () => ({
        what: "signature bit flipped",
        mustReject: true,
        body: JSON.stringify({
          payload: base.payload,
          sig: b64uEncode(flip(b64uDecode(base.sig))),
        }),
      }),
      () => ({
        what: "wrong wire types",
        mustReject: true,
        body: JSON.stringify({ payload: pick(weird), sig: pick(weird) }),
      }),
      async () => {
        const field = pick(fields);
        // Re-signed, so only the field's value is odd. The spine must refuse a bad `v`,
        // `id`, `kind`, `from`, `to` or `ts`; `thread`, `reply_to`, `hops` and `box` it
        // only type-checks loosely (a huge `hops` is still an integer), so those may pass
        // to the hub, which checks them again.
        return {
          what: `field ${field} mangled, re-signed`,
          mustReject: ["v", "id", "kind", "from", "to", "ts"].includes(field),
          body: await resigned({ ...payloadJson, [field]: pick(weird) }),
        };
      },
      () => ({
        what: "deep nesting",
        mustReject: true,
        body: "[".repeat(50_000) + "]".repeat(50_000),
      }),
      async () => {
        const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
        return {
          what: "invalid UTF-8, re-signed",
          mustReject: true,
          body: JSON.stringify(await signRaw(bytes, peer.identity)),
        };
      },
      () => ({
        what: "oversize body",
        mustReject: true,
        body: JSON.stringify({ payload: "A".repeat(300_000), sig: base.sig }),
      }),
      () => {
        const text = JSON.stringify({ payload: b64uEncode(flip(payloadBytes)), sig: base.sig });
        const chunks = text.match(/.{1,7}/gs) ?? [];
        return {
          what: "chunked body",
          mustReject: true,
          body: new ReadableStream<Uint8Array>({
            pull(c) {
              const next = chunks.shift();
              if (next === undefined) c.close();
              else c.enqueue(new TextEncoder().encode(next));
            },
          }),
        };
      },
      () => ({
        what: "wrong content type",
        mustReject: true,
        contentType: pick([
          "text/plain",
          "application/x-www-form-urlencoded",
          "",
          "application/jsonx",
        ]),
        body: JSON.stringify(base),
      }),
      () => ({
        what: "not JSON",
        mustReject: true,
        body: pick(["", "{", "null", "[]", '"x"', '{"payload":', "\u0000\u0001"]),
      }),
      () => ({
        what: "missing sig",
        mustReject: true,
        body: JSON.stringify({ payload: base.payload }),
      }),
    ];
    let next = 0;
    let genuineSent = 0;
    let serverErrors = 0;
    const wronglyAccepted: string[] = [];
    const failures = new Set<string>();
    const queued = new Set<string>();
    let notQueued = 0;
    const worker = async () => {
      while (next < count) {
        const index = next++;
        if (index % GENUINE_EVERY === GENUINE_EVERY - 1) {
          const sender = senders[Math.floor(genuineSent++ / GENUINE_PER_SENDER)]!;
          const wire = await envelopeFor(sender, spine.address);
          const res = await fetch(`${spine.url}/net/inbox`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(wire),
          });
          const answer = await res.json().catch(() => ({})) as { status?: string };
          if (res.status === 202 && answer.status === "queued") queued.add(wire.id);
          else {
            notQueued++;
            failures.add(`genuine answered ${res.status}`);
          }
          continue;
        }
        const c = await pick(makers)();
        const res = await fetch(`${spine.url}/net/inbox`, {
          method: "POST",
          headers: { "content-type": c.contentType ?? "application/json" },
          body: c.body,
        });
        const answer = await res.json().catch(() => ({})) as { error?: string };
        // 502 sender_card_unavailable (a mangled `from` names a host without a card) and
        // 503 mailbox_full are the protocol's answers; any other 5xx is a failure.
        if (
          res.status >= 500 &&
          !(res.status === 502 && answer.error === "sender_card_unavailable") &&
          !(res.status === 503 && answer.error === "mailbox_full")
        ) {
          serverErrors++;
          failures.add(`${res.status} ${answer.error} ${c.what}`);
        }
        if (res.status === 202 && c.mustReject) {
          wronglyAccepted.push(`${c.what} (${c.contentType ?? "json"})`);
          failures.add(`accepted: ${c.what}`);
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;

    // Every genuine envelope queued must be there for the hub.
    const delivered = new Set<string>();
    let after = 0;
    for (;;) {
      const res = await fetch(`${spine.url}/hub/updates?after=${after}&limit=100&timeout=0`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const body = await res.json() as {
        updates: { seq: number; envelope: { payload: string } }[];
      };
      if (body.updates.length === 0) break;
      for (const u of body.updates) {
        after = Math.max(after, u.seq);
        const payload = JSON.parse(new TextDecoder().decode(b64uDecode(u.envelope.payload)));
        if (typeof payload?.id === "string") delivered.add(payload.id);
      }
    }
    const missing = [...queued].filter((id) => !delivered.has(id)).length;
    if (missing > 0) failures.add(`${missing} queued genuine envelopes not in /hub/updates`);

    // Still serving: health, and a fresh valid envelope is taken.
    const health = await fetch(`${spine.url}/hub/health`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    await health.body?.cancel();
    const fresh = await envelopeFor(peer, spine.address);
    const ok = await fetch(`${spine.url}/net/inbox`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fresh),
    });
    await ok.body?.cancel();
    return {
      inputs: next,
      genuine: genuineSent,
      serverErrors,
      wronglyAccepted: wronglyAccepted.length,
      lost: notQueued + missing,
      stillServing: health.status === 200 && ok.status === 202,
      seconds,
      failures: [...failures],
    };
  } finally {
    await Promise.all([peer, ...senders].map((p) => p.stop()));
    await spine.stop();
  }
}

/** The figures as one line. */
export function fuzzLine(f: FuzzFigures): string {
  return `inbox fuzz: ${f.inputs} inputs (${f.genuine} genuine) in ${f.seconds.toFixed(1)} s; ` +
    `5xx other than the protocol's own: ${f.serverErrors}; wrongly accepted: ` +
    `${f.wronglyAccepted}; lost: ${f.lost} (goal 0 for all three); still serving: ` +
    (f.stillServing ? "yes" : "no");
}
