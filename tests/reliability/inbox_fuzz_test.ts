/**
 * Inbox fuzz: structure-aware mutations of valid envelopes against the spine on
 * workerd. Figure: how many were sent, with 0 answers of 5xx, 0 envelopes accepted
 * that should not be, and the spine still serving at the end.
 */
import assert from "node:assert/strict";
import { b64uDecode, b64uEncode } from "@agent/net";
import { envelopeFor, signRaw, startPeer } from "../spine/_fixtures.ts";
import { startSpine } from "../spine/_harness.ts";

const COUNT = Number(Deno.env.get("FUZZ_COUNT") ?? "10000");
const CONCURRENCY = 16;

/** A deterministic random source (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
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

Deno.test({
  name: "inbox fuzz: 10,000 mutations, no 5xx, nothing accepted that should not be, still serving",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const spine = await startSpine({ hubToken: "fz", rateLimits: false });
    const peer = await startPeer("Fuzzer");
    const rand = random(20261124);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
    try {
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
      let sent = 0;
      let serverErrors = 0;
      const wronglyAccepted: string[] = [];
      const failures = new Set<string>();
      const worker = async () => {
        while (sent < COUNT) {
          sent++;
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
          }
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = (performance.now() - started) / 1000;
      // Still serving: health, and a fresh valid envelope is taken.
      const health = await fetch(`${spine.url}/hub/health`, {
        headers: { authorization: "Bearer fz" },
      });
      assert.equal(health.status, 200);
      await health.body?.cancel();
      const fresh = await envelopeFor(peer, spine.address);
      const ok = await fetch(`${spine.url}/net/inbox`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(fresh),
      });
      assert.equal(ok.status, 202);
      await ok.body?.cancel();
      console.log(
        `inbox fuzz: ${sent} mutations in ${
          seconds.toFixed(1)
        } s; 5xx answers: ${serverErrors}; wrongly accepted: ${wronglyAccepted.length}; still serving: yes`,
      );
      assert.equal(serverErrors, 0, [...failures].join("; "));
      assert.deepEqual(wronglyAccepted, []);
      assert.ok(sent >= COUNT);
    } finally {
      await peer.stop();
      await spine.stop();
    }
  },
});
