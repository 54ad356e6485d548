import { assertEquals, assertThrows } from "./_test_assert.ts";
import { buildCard, isCardName, parseCard, parseCardInput, senderSignKey } from "./card.ts";

const KEY = "A".repeat(43);
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
  assertEquals(parseCard({ ...CARD, extra: true }, "bob.example"), CARD);
  assertEquals(
    parseCard(buildCard({ name: "Bob", sign_key: KEY, box_key: KEY }, "bob.example", "0.1.0")),
    CARD,
  );
});

Deno.test("parseCard() rejects wrong versions, addresses, names and keys", () => {
  assertThrows(() => parseCard(null), TypeError);
  assertThrows(() => parseCard({ ...CARD, v: 2 }), TypeError, "'v'");
  assertThrows(() => parseCard(CARD, "eve.example"), TypeError, "'address'");
  assertThrows(() => parseCard({ ...CARD, address: "Bob.example" }), TypeError, "'address'");
  assertThrows(() => parseCard({ ...CARD, name: "" }), TypeError, "'name'");
  assertThrows(() => parseCard({ ...CARD, name: "n".repeat(81) }), TypeError, "'name'");
  assertThrows(() => parseCard({ ...CARD, sign_key: "AAAA" }), TypeError, "'sign_key'");
  assertThrows(() => parseCard({ ...CARD, box_key: KEY + "A" }), TypeError, "'box_key'");
  assertThrows(() => parseCard({ ...CARD, inbox: 1 }), TypeError, "'inbox'");
});

Deno.test("isCardName() counts characters, not UTF-16 units", () => {
  assertEquals(isCardName("😀".repeat(80)), true);
  assertEquals(isCardName("😀".repeat(81)), false);
  assertEquals(isCardName(7), false);
});

Deno.test("parseCardInput() checks the PUT /hub/card body", () => {
  assertEquals(parseCardInput({ name: "Bob", sign_key: KEY, box_key: KEY, v: 9 }), {
    name: "Bob",
    sign_key: KEY,
    box_key: KEY,
  });
  assertThrows(() => parseCardInput({ name: "", sign_key: KEY, box_key: KEY }), TypeError);
  assertThrows(
    () => parseCardInput({ name: "B", sign_key: "+" + KEY.slice(1), box_key: KEY }),
    TypeError,
  );
});

Deno.test("senderSignKey() applies only the inbox's card checks", () => {
  assertEquals(
    senderSignKey({ v: 1, address: "bob.example", sign_key: KEY }, "bob.example")?.length,
    32,
  );
  assertEquals(senderSignKey({ ...CARD, v: "1" }, "bob.example"), undefined);
  assertEquals(senderSignKey(CARD, "eve.example"), undefined);
  assertEquals(senderSignKey({ ...CARD, sign_key: "AAAA" }, "bob.example"), undefined);
});
