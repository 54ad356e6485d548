import assert from "node:assert/strict";
import { b64uEncode } from "./b64u.ts";
import { signEnvelope } from "./envelope.ts";
import { generateIdentity } from "./identity.ts";
import {
  parseUniverseRequest,
  signUniverseRequest,
  type UniversePayload,
  verifyUniverseRequest,
} from "./universe_request.ts";

const BASE = { v: 1, universe: "universe.example", address: "alice.example", ts: 1_700_000_000 };

function wireOf(payload: unknown): { payload: string; sig: string } {
  return { payload: b64uEncode(new TextEncoder().encode(JSON.stringify(payload))), sig: "AA" };
}

function detailOf(payload: unknown): string {
  const r = parseUniverseRequest(wireOf(payload));
  if (r.ok) throw new Error(`expected a bad request: ${JSON.stringify(payload)}`);
  return r.detail;
}

Deno.test("signUniverseRequest() output verifies and parses back", async () => {
  const me = await generateIdentity();
  const join: UniversePayload = { ...BASE, v: 1, kind: "join", owner: "Ada", about: "Cooks." };
  const wire = await signUniverseRequest(join, me);
  assert.ok(await verifyUniverseRequest(wire, me.signKey));
  const parsed = parseUniverseRequest({ ...wire, extra: 1 });
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.payload, join);
  assert.deepEqual(parsed.wire, wire);
});

Deno.test("verifyUniverseRequest() does not accept envelope signatures (domain separation)", async () => {
  const me = await generateIdentity();
  const envelope = await signEnvelope({
    v: 1,
    id: "abcdefghijklmnop",
    kind: "message",
    from: "alice.example",
    to: "bob.example",
    ts: 1,
    thread: "abcdefghijklmnop",
    reply_to: null,
    hops: 0,
    box: { epk: "", nonce: "", ct: "" },
  }, me);
  assert.deepEqual(await verifyUniverseRequest(envelope, me.signKey), false);
  const other = await generateIdentity();
  const wire = await signUniverseRequest({ ...BASE, v: 1, kind: "leave" }, me);
  assert.deepEqual(await verifyUniverseRequest(wire, other.signKey), false);
  assert.deepEqual(await verifyUniverseRequest({ ...wire, sig: "AAAA" }, me.signKey), false);
  assert.deepEqual(await verifyUniverseRequest({ ...wire, payload: "!" }, me.signKey), false);
});

Deno.test("parseUniverseRequest() fills in missing texts and drops unknown keys", () => {
  const join = parseUniverseRequest(wireOf({ ...BASE, kind: "join", extra: true }));
  assert.ok(join.ok);
  assert.deepEqual(join.payload, { ...BASE, kind: "join", owner: "", about: "" });
  const report = parseUniverseRequest(
    wireOf({
      ...BASE,
      kind: "report",
      links: [{ peer: "bob.example", messages: 0, x: 1 }],
      subs: [{ name: "chef" }],
    }),
  );
  assert.ok(report.ok);
  assert.deepEqual(report.payload, {
    ...BASE,
    kind: "report",
    links: [{ peer: "bob.example", messages: 0 }],
    subs: [{ name: "chef", about: "" }],
  });
  const bare = parseUniverseRequest(wireOf({ ...BASE, kind: "report", links: [] }));
  assert.ok(bare.ok && !("subs" in bare.payload));
});

Deno.test("parseUniverseRequest() names the first bad field", () => {
  assert.deepEqual(parseUniverseRequest(null).ok, false);
  const noSig = parseUniverseRequest({ payload: "e30" });
  assert.deepEqual(noSig.ok ? "" : noSig.detail, "'sig' is missing");
  const big = parseUniverseRequest(wireOf({ ...BASE, kind: "leave", pad: "x".repeat(65_536) }));
  assert.deepEqual(big.ok ? "" : big.detail, "the payload is larger than 64 KiB");
  const link = { peer: "bob.example", messages: 1 };
  const cases: [unknown, string][] = [
    [{ ...BASE, v: 2, kind: "leave" }, "payload 'v' must be 1"],
    [{ ...BASE, kind: "hello" }, "payload 'kind' must be join, report or leave"],
    [{ ...BASE, kind: "leave", universe: 3 }, "payload 'universe' must be a non-empty string"],
    [{ ...BASE, kind: "leave", address: "A.example" }, "payload 'address' must be a valid address"],
    [{ ...BASE, kind: "leave", ts: "1" }, "payload 'ts' must be an integer"],
    [
      { ...BASE, kind: "join", owner: "o".repeat(61) },
      "payload 'owner' has more than 60 characters",
    ],
    [
      { ...BASE, kind: "join", about: "a".repeat(201) },
      "payload 'about' has more than 200 characters",
    ],
    [{ ...BASE, kind: "join", owner: 5 }, "payload 'owner' must be a string"],
    [{ ...BASE, kind: "report" }, "payload 'links' must be a list"],
    [
      { ...BASE, kind: "report", links: Array(501).fill(link) },
      "payload 'links' has more than 500 entries",
    ],
    [
      { ...BASE, kind: "report", links: [{ peer: "x/y", messages: 1 }] },
      "payload 'links[0].peer' must be a valid address",
    ],
    [
      { ...BASE, kind: "report", links: [link, { ...link, messages: -1 }] },
      "payload 'links[1].messages' must be an integer at least 0",
    ],
    [{ ...BASE, kind: "report", links: [], subs: {} }, "payload 'subs' must be a list"],
    [
      { ...BASE, kind: "report", links: [], subs: Array(21).fill({ name: "ab" }) },
      "payload 'subs' has more than 20 entries",
    ],
    [
      { ...BASE, kind: "report", links: [], subs: [{ name: "A" }] },
      "payload 'subs[0].name' must match ^[a-z][a-z0-9-]{1,30}$",
    ],
    [
      { ...BASE, kind: "report", links: [], subs: [{ name: "ab", about: "a".repeat(201) }] },
      "payload 'subs[0].about' has more than 200 characters",
    ],
  ];
  for (const [payload, detail] of cases) assert.deepEqual(detailOf(payload), detail);
  // Limits count characters, not UTF-16 units.
  assert.ok(parseUniverseRequest(wireOf({ ...BASE, kind: "join", owner: "😀".repeat(60) })).ok);
});

Deno.test("signUniverseRequest() refuses a malformed payload", async () => {
  const me = await generateIdentity();
  await assert.rejects(() =>
    signUniverseRequest(
      { ...BASE, v: 1, kind: "report", links: [{ peer: "Bad", messages: 1 }] },
      me,
    ), (e: unknown) => e instanceof TypeError && e.message.includes("links[0].peer"));
});
