import { assertEquals, assertThrows } from "./_test_assert.ts";
import { isMessageText, MESSAGE_TEXT_MAX, parsePlaintext } from "./plaintext.ts";

Deno.test("parsePlaintext() keeps known keys per kind", () => {
  assertEquals(parsePlaintext("contact_request", { name: "A", text: "hi", x: 1 }), {
    name: "A",
    text: "hi",
  });
  assertEquals(parsePlaintext("contact_accept", { name: "", text: "ignored" }), { name: "" });
  assertEquals(parsePlaintext("message", { text: "t", sub: "chef-2" }), {
    text: "t",
    sub: "chef-2",
  });
  assertEquals(parsePlaintext("message", { text: "t" }), { text: "t" });
});

Deno.test("parsePlaintext() rejects missing fields, bad sub and long text", () => {
  assertThrows(() => parsePlaintext("message", "text"), TypeError);
  assertThrows(() => parsePlaintext("contact_request", { name: "A" }), TypeError, "'text'");
  assertThrows(() => parsePlaintext("contact_accept", {}), TypeError, "'name'");
  for (const sub of ["", "a", "1chef", "Chef", "chef_x", "c".repeat(32), false]) {
    assertThrows(() => parsePlaintext("message", { text: "t", sub }), TypeError, "'sub'");
  }
  assertEquals(parsePlaintext("message", { text: "t", sub: "c".repeat(31) }).sub, "c".repeat(31));
  assertThrows(() => parsePlaintext("message", { text: "x".repeat(8001) }), RangeError);
});

Deno.test("isMessageText() counts characters up to 8000", () => {
  assertEquals(isMessageText("x".repeat(MESSAGE_TEXT_MAX)), true);
  assertEquals(isMessageText("x".repeat(MESSAGE_TEXT_MAX + 1)), false);
  assertEquals(isMessageText("😀".repeat(MESSAGE_TEXT_MAX)), true);
  assertEquals(isMessageText("😀".repeat(MESSAGE_TEXT_MAX) + "x"), false);
  assertEquals(isMessageText(null), false);
});
