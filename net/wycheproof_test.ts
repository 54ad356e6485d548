// Wycheproof (C2SP, testvectors_v1) through the primitives the protocol's doors run:
// Ed25519 verification (envelopes, universe requests), X25519 and HKDF-SHA256 (the box
// key), ChaCha20-Poly1305 (the box). The files are committed under
// tests/vectors/wycheproof/ with their licence note; each test prints how many vectors
// of its file passed, and every one must.
//
// What "passed" means: a `valid` vector gives exactly the expected output; an `invalid`
// one is refused (an error, `false`, or an output other than the one given); an
// `acceptable` one either gives the expected output or is refused (for X25519 the
// all-zero shared secret, which the box refuses on purpose, is one of them).

import assert from "node:assert/strict";
import {
  aeadOpen,
  aeadSeal,
  ed25519Verify,
  hkdfSha256,
  x25519SharedFromSeed,
} from "./_primitives.ts";

const DIR = new URL("../tests/vectors/wycheproof/", import.meta.url);

interface Vector {
  tcId: number;
  result: "valid" | "invalid" | "acceptable";
  flags: string[];
  [field: string]: unknown;
}

interface VectorFile<G> {
  algorithm: string;
  numberOfTests: number;
  testGroups: (G & { tests: Vector[] })[];
}

async function load<G>(name: string): Promise<VectorFile<G>> {
  return JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, DIR)));
}

function hex(text: unknown): Uint8Array<ArrayBuffer> {
  const s = String(text);
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Runs every vector of a file; returns the ids that did not pass. */
async function run<G>(
  file: VectorFile<G>,
  check: (group: G, v: Vector) => Promise<"output" | "refused" | "other">,
): Promise<{ total: number; failed: string[] }> {
  const failed: string[] = [];
  let total = 0;
  for (const group of file.testGroups) {
    for (const v of group.tests) {
      total++;
      const got = await check(group, v);
      const ok = v.result === "valid"
        ? got === "output"
        : v.result === "invalid"
        ? got !== "output"
        : got === "output" || got === "refused";
      if (!ok) failed.push(`tcId ${v.tcId} (${v.result}, ${v.flags.join(",")}): ${got}`);
    }
  }
  return { total, failed };
}

function report(name: string, result: { total: number; failed: string[] }, declared: number) {
  console.log(
    `wycheproof ${name}: ${result.total - result.failed.length}/${result.total} vectors passed`,
  );
  assert.equal(result.total, declared, `${name}: every vector of the file ran`);
  assert.deepEqual(result.failed, [], name);
}

Deno.test("wycheproof ed25519_test: Ed25519 verification as envelopes use it", async () => {
  const file = await load<{ publicKey: { pk: string } }>("ed25519_test");
  const result = await run(file, async (group, v) => {
    const ok = await ed25519Verify(hex(v.msg), hex(v.sig), hex(group.publicKey.pk));
    return ok ? "output" : "refused";
  });
  report("ed25519_test", result, file.numberOfTests);
});

Deno.test("wycheproof x25519_test: X25519 as the box derives its secret", async () => {
  const file = await load<{ curve: string }>("x25519_test");
  const result = await run(file, async (_group, v) => {
    try {
      const shared = await x25519SharedFromSeed(hex(v.private), hex(v.public));
      return toHex(shared) === v.shared ? "output" : "other";
    } catch {
      return "refused";
    }
  });
  report("x25519_test", result, file.numberOfTests);
});

Deno.test("wycheproof hkdf_sha256_test: HKDF-SHA256 as the box derives its key", async () => {
  const file = await load<{ keySize: number }>("hkdf_sha256_test");
  const result = await run(file, async (_group, v) => {
    try {
      const okm = await hkdfSha256(hex(v.ikm), hex(v.salt), hex(v.info), Number(v.size));
      return toHex(okm) === v.okm ? "output" : "other";
    } catch {
      return "refused";
    }
  });
  report("hkdf_sha256_test", result, file.numberOfTests);
});

Deno.test("wycheproof chacha20_poly1305_test: the box's AEAD, sealing and opening", async () => {
  const file = await load<{ ivSize: number }>("chacha20_poly1305_test");
  const result = await run(file, (_group, v) => {
    const [key, iv, aad, msg] = [hex(v.key), hex(v.iv), hex(v.aad), hex(v.msg)];
    const sealed = toHex(hex(`${v.ct}${v.tag}`));
    let opened: string | undefined;
    try {
      opened = toHex(aeadOpen(key, iv, aad, hex(sealed)));
    } catch {
      opened = undefined;
    }
    let encrypted: string | undefined;
    try {
      encrypted = toHex(aeadSeal(key, iv, aad, msg));
    } catch {
      encrypted = undefined;
    }
    // Both directions must agree with the vector for it to count as the output.
    if (opened === v.msg && encrypted === sealed) return Promise.resolve("output");
    return Promise.resolve(opened === undefined ? "refused" : "other");
  });
  report("chacha20_poly1305_test", result, file.numberOfTests);
});
