import assert from "node:assert/strict";
import { b64uEncode } from "./b64u.ts";
import { buildCard, isCardName, parseCard, parseCardInput, senderSignKey } from "./card.ts";

// RFC 8032's first test key: a real Ed25519 point (all-zero keys are refused as small-order).
const KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const CARD = {
  v: 1,
  address: "bob.example",
  name: "Bob",
  sign_key: KEY,
  box_key: KEY,
  inbox: "https://bob.example/net/inbox",
  software: "agent-spine/0.1.0",
};

Deno.test("parseCard() accepts a served card and drops unknown keys", () => {
  assert.deepEqual(parseCard({ ...CARD, extra: true }, "bob.example"), CARD);
  assert.deepEqual(
    parseCard(buildCard({ name: "Bob", sign_key: KEY, box_key: KEY }, "bob.example", "0.1.0")),
    CARD,
  );
});

Deno.test("parseCard() rejects wrong versions, addresses, names and keys", () => {
  assert.throws(() => parseCard(null), TypeError);
  assert.throws(
    () => parseCard({ ...CARD, v: 2 }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'v'"),
  );
  assert.throws(
    () => parseCard(CARD, "eve.example"),
    (e: unknown) => e instanceof TypeError && e.message.includes("'address'"),
  );
  assert.throws(
    () => parseCard({ ...CARD, address: "Bob.example" }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'address'"),
  );
  assert.throws(
    () => parseCard({ ...CARD, name: "" }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'name'"),
  );
  assert.throws(
    () => parseCard({ ...CARD, name: "n".repeat(81) }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'name'"),
  );
  assert.throws(
    () => parseCard({ ...CARD, sign_key: "AAAA" }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'sign_key'"),
  );
  assert.throws(
    () => parseCard({ ...CARD, box_key: KEY + "A" }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'box_key'"),
  );
  assert.throws(
    () => parseCard({ ...CARD, inbox: 1 }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'inbox'"),
  );
});

Deno.test("isCardName() counts characters, not UTF-16 units", () => {
  assert.deepEqual(isCardName("😀".repeat(80)), true);
  assert.deepEqual(isCardName("😀".repeat(81)), false);
  assert.deepEqual(isCardName(7), false);
});

Deno.test("parseCardInput() checks the PUT /hub/card body", () => {
  assert.deepEqual(parseCardInput({ name: "Bob", sign_key: KEY, box_key: KEY, v: 9 }), {
    name: "Bob",
    sign_key: KEY,
    box_key: KEY,
  });
  assert.throws(() => parseCardInput({ name: "", sign_key: KEY, box_key: KEY }), TypeError);
  assert.throws(
    () => parseCardInput({ name: "B", sign_key: "+" + KEY.slice(1), box_key: KEY }),
    TypeError,
  );
});

Deno.test("senderSignKey() applies only the inbox's card checks", () => {
  assert.deepEqual(
    senderSignKey({ v: 1, address: "bob.example", sign_key: KEY }, "bob.example")?.length,
    32,
  );
  assert.deepEqual(senderSignKey({ ...CARD, v: "1" }, "bob.example"), undefined);
  assert.deepEqual(senderSignKey(CARD, "eve.example"), undefined);
  assert.deepEqual(senderSignKey({ ...CARD, sign_key: "AAAA" }, "bob.example"), undefined);
});

Deno.test("parseCardInput() and parseCard() store keys without padding", () => {
  const input = parseCardInput({ name: "Bob", sign_key: KEY + "=", box_key: KEY + "=" });
  assert.deepEqual([input.sign_key, input.box_key], [KEY, KEY]);
  const card = parseCard({ ...CARD, sign_key: KEY + "=", box_key: KEY + "=" }, "bob.example");
  assert.deepEqual([card.sign_key, card.box_key], [KEY, KEY]);
});

Deno.test("parseCardInput() and parseCard() refuse small-order keys, naming the key", () => {
  const zero = "A".repeat(43);
  const identity = b64uEncode(Uint8Array.from({ length: 32 }, (_, i) => i === 0 ? 1 : 0));
  const identitySigned = b64uEncode(
    Uint8Array.from({ length: 32 }, (_, i) => i === 0 ? 1 : i === 31 ? 0x80 : 0),
  );
  for (const bad of [zero, identity, identitySigned, zero + "="]) {
    for (const field of ["sign_key", "box_key"] as const) {
      const named = (e: unknown) =>
        e instanceof TypeError && e.message.includes(`'${field}' is a small-order`);
      assert.throws(() => parseCardInput({ name: "B", ...KEYS, [field]: bad }), named);
      assert.throws(() => parseCard({ ...CARD, [field]: bad }, "bob.example"), named);
    }
  }
  assert.deepEqual(senderSignKey({ ...CARD, sign_key: identity }, "bob.example"), undefined);
});

const KEYS = { sign_key: KEY, box_key: KEY };
