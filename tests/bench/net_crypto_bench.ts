/**
 * Hub-side envelope crypto benchmark: verify the envelope signature and open the box,
 * per envelope, with net/ (Web Crypto Ed25519, X25519 and HKDF; @noble/ciphers
 * ChaCha20-Poly1305) against Node's native `crypto` (Ed25519 verify, X25519
 * diffieHellman, hkdfSync, chacha20-poly1305 decipher) doing the same work, both
 * including the b64u decoding and JSON parsing the hub does for each envelope.
 * Envelopes are handled one after another, as the hub does. Goal: net/ reaches at least
 * 0.8 of the native rate.
 *
 * Run: `deno run -A tests/bench/net_crypto_bench.ts [envelopes]`. Prints `<metric>: <value>`.
 *
 * @module
 */
import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  hkdfSync,
  type KeyObject,
  verify as nodeVerify,
} from "node:crypto";
import { Buffer } from "node:buffer";
import {
  b64uDecode,
  b64uEncode,
  type Box,
  generateIdentity,
  type Identity,
  identityToJson,
  newEnvelopeId,
  openBox,
  parseWireEnvelope,
  sealBox,
  signEnvelope,
  verifyAndOpen,
  verifyAndOpenAll,
  verifyEnvelope,
  type WireEnvelope,
} from "@agent/net";

const ENVELOPES = Number(Deno.args[0] ?? 2000);
const SENDERS = 10;
const ROUNDS = 5;
const PAGE = 50;
const GOAL = 0.8;

interface Sample {
  wire: WireEnvelope;
  signKey: string;
}

function print(metric: string, value: string): void {
  console.log(`${metric}: ${value}`);
}

/** Builds `count` signed message envelopes from a few senders to `hub`. */
async function makeEnvelopes(hub: Identity, count: number): Promise<Sample[]> {
  const senders = await Promise.all(Array.from({ length: SENDERS }, () => generateIdentity()));
  const samples: Sample[] = [];
  const text = "Hello from another agent. ".repeat(8);
  for (let i = 0; i < count; i++) {
    const sender = senders[i % SENDERS]!;
    const header = {
      id: newEnvelopeId(),
      kind: "message" as const,
      from: `sender${i % SENDERS}.example`,
      to: "hub.example",
    };
    const box = await sealBox({ text: `${text}#${i}` }, header, hub.boxKey);
    const wire = await signEnvelope({
      v: 1,
      ...header,
      ts: 1_767_225_600 + i,
      thread: header.id,
      reply_to: null,
      hops: 0,
      box,
    }, sender);
    samples.push({ wire, signKey: sender.signKey });
  }
  return samples;
}

/** net/, step by step: parse, verifyEnvelope(), then openBox(). */
async function runNetSteps(hub: Identity, samples: Sample[]): Promise<number> {
  let opened = 0;
  for (const { wire, signKey } of samples) {
    const parsed = parseWireEnvelope(wire);
    if (!parsed.ok || !await verifyEnvelope(parsed.wire, signKey)) throw new Error("verify");
    const p = parsed.payload;
    const plain = await openBox(p.box, { id: p.id, kind: p.kind, from: p.from, to: p.to }, hub);
    if ("text" in plain && plain.text.length > 0) opened++;
  }
  return opened;
}

/** net/, one envelope at a time: parse, then verifyAndOpen(). */
async function runNetOne(hub: Identity, samples: Sample[]): Promise<number> {
  let opened = 0;
  for (const { wire, signKey } of samples) {
    const parsed = parseWireEnvelope(wire);
    if (!parsed.ok) throw new Error(parsed.detail);
    const result = await verifyAndOpen(parsed, signKey, hub);
    if (result.ok && "text" in result.plaintext) opened++;
  }
  return opened;
}

/** net/, a page of updates at a time (the spine's default limit, 50): verifyAndOpenAll(). */
async function runNetPages(hub: Identity, samples: Sample[]): Promise<number> {
  let opened = 0;
  for (let i = 0; i < samples.length; i += PAGE) {
    const items = samples.slice(i, i + PAGE).map(({ wire, signKey }) => {
      const parsed = parseWireEnvelope(wire);
      if (!parsed.ok) throw new Error(parsed.detail);
      return { parsed, signKey };
    });
    for (const result of await verifyAndOpenAll(items, hub)) {
      if (result.ok && "text" in result.plaintext) opened++;
    }
  }
  return opened;
}

const PREFIX = Buffer.from("agent-net/1\n");
const INFO = Buffer.from("agent-net/1 box");

/** Node's native crypto doing the same work. */
function runNative(
  hubPrivate: KeyObject,
  hubBoxKey: Uint8Array,
  senderKeys: Map<string, KeyObject>,
  samples: Sample[],
): number {
  let opened = 0;
  for (const { wire, signKey } of samples) {
    const payloadBytes = Buffer.from(wire.payload, "base64url");
    const sig = Buffer.from(wire.sig, "base64url");
    const p = JSON.parse(payloadBytes.toString("utf8"));
    const key = senderKeys.get(signKey)!;
    if (!nodeVerify(null, Buffer.concat([PREFIX, payloadBytes]), key, sig)) {
      throw new Error("verify");
    }
    const box = p.box as Box;
    const epk = Buffer.from(box.epk, "base64url");
    const peer = createPublicKey({ key: { kty: "OKP", crv: "X25519", x: box.epk }, format: "jwk" });
    const shared = diffieHellman({ privateKey: hubPrivate, publicKey: peer });
    if (shared.every((b) => b === 0)) throw new Error("zero");
    const k = Buffer.from(
      hkdfSync("sha256", shared, Buffer.concat([epk, hubBoxKey]), INFO, 32),
    );
    const ct = Buffer.from(box.ct, "base64url");
    const decipher = createDecipheriv("chacha20-poly1305", k, Buffer.from(box.nonce, "base64url"), {
      authTagLength: 16,
    });
    decipher.setAAD(Buffer.from(`agent-net/1|${p.id}|${p.kind}|${p.from}|${p.to}`), {
      plaintextLength: ct.length - 16,
    });
    decipher.setAuthTag(ct.subarray(ct.length - 16));
    const plain = Buffer.concat([
      decipher.update(ct.subarray(0, ct.length - 16)),
      decipher.final(),
    ]);
    const parsed = JSON.parse(plain.toString("utf8"));
    if (typeof parsed.text === "string" && parsed.text.length > 0) opened++;
  }
  return opened;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const hub = await generateIdentity();
const samples = await makeEnvelopes(hub, ENVELOPES);
const hubPrivate = createPrivateKey({
  key: {
    kty: "OKP",
    crv: "X25519",
    x: hub.boxKey,
    d: identityToJson(hub).box_seed,
  },
  format: "jwk",
});
const senderKeys = new Map<string, KeyObject>();
for (const { signKey } of samples) {
  if (!senderKeys.has(signKey)) {
    senderKeys.set(
      signKey,
      createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: signKey }, format: "jwk" }),
    );
  }
}
// Sanity: both paths accept every envelope and agree on the byte encodings.
if (b64uEncode(b64uDecode(samples[0]!.wire.payload)) !== samples[0]!.wire.payload) {
  throw new Error("b64u");
}

// Warm up every path (JIT, key caches), then interleave rounds so drift hits all alike.
const paths = {
  steps: (list: Sample[]) => runNetSteps(hub, list),
  one: (list: Sample[]) => runNetOne(hub, list),
  pages: (list: Sample[]) => runNetPages(hub, list),
  native: (list: Sample[]) =>
    Promise.resolve(runNative(hubPrivate, hub.boxKeyBytes, senderKeys, list)),
};
const rates: Record<keyof typeof paths, number[]> = { steps: [], one: [], pages: [], native: [] };
for (const run of Object.values(paths)) await run(samples.slice(0, 200));
for (let round = 0; round < ROUNDS; round++) {
  for (
    const [name, run] of Object.entries(paths) as [
      keyof typeof paths,
      (l: Sample[]) => Promise<number>,
    ][]
  ) {
    const t = performance.now();
    if (await run(samples) !== samples.length) throw new Error(`${name} failed to open`);
    rates[name].push(samples.length / ((performance.now() - t) / 1000));
  }
}
const native = median(rates.native);
const one = median(rates.one);
const pages = median(rates.pages);
print("envelopes", String(samples.length));
print("native_verify_open_per_s", native.toFixed(0));
print("net_steps_verify_open_per_s", median(rates.steps).toFixed(0));
print("net_one_at_a_time_verify_open_per_s", one.toFixed(0));
print("net_page50_verify_open_per_s", pages.toFixed(0));
print("ratio_steps", (median(rates.steps) / native).toFixed(2));
print("ratio_one_at_a_time", (one / native).toFixed(2));
print("ratio_page50", (pages / native).toFixed(2));
print("goal", `net/ verify+open rate >= ${GOAL} x native (hub path: verifyAndOpenAll per page)`);
print("goal_met", String(pages / native >= GOAL));
