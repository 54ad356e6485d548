import assert from "node:assert/strict";
import { isMessageText, MESSAGE_TEXT_MAX, parsePlaintext } from "./plaintext.ts";

Deno.test("parsePlaintext() keeps known keys per kind", () => {
  assert.deepEqual(parsePlaintext("contact_request", { name: "A", text: "hi", x: 1 }), {
    name: "A",
    text: "hi",
  });
  assert.deepEqual(parsePlaintext("contact_accept", { name: "", text: "ignored" }), { name: "" });
  assert.deepEqual(parsePlaintext("message", { text: "t", sub: "chef-2" }), {
    text: "t",
    sub: "chef-2",
  });
  assert.deepEqual(parsePlaintext("message", { text: "t" }), { text: "t" });
});

Deno.test("parsePlaintext() rejects missing fields, bad sub and long text", () => {
  assert.throws(() => parsePlaintext("message", "text"), TypeError);
  assert.throws(
    () => parsePlaintext("contact_request", { name: "A" }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'text'"),
  );
  assert.throws(
    () => parsePlaintext("contact_accept", {}),
    (e: unknown) => e instanceof TypeError && e.message.includes("'name'"),
  );
  for (const sub of ["", "a", "1chef", "Chef", "chef_x", "c".repeat(32), false]) {
    assert.throws(
      () => parsePlaintext("message", { text: "t", sub }),
      (e: unknown) => e instanceof TypeError && e.message.includes("'sub'"),
    );
  }
  assert.deepEqual(
    parsePlaintext("message", { text: "t", sub: "c".repeat(31) }).sub,
    "c".repeat(31),
  );
  assert.throws(() => parsePlaintext("message", { text: "x".repeat(8001) }), RangeError);
});

Deno.test("isMessageText() counts characters up to 8000", () => {
  assert.deepEqual(isMessageText("x".repeat(MESSAGE_TEXT_MAX)), true);
  assert.deepEqual(isMessageText("x".repeat(MESSAGE_TEXT_MAX + 1)), false);
  assert.deepEqual(isMessageText("😀".repeat(MESSAGE_TEXT_MAX)), true);
  assert.deepEqual(isMessageText("😀".repeat(MESSAGE_TEXT_MAX) + "x"), false);
  assert.deepEqual(isMessageText(null), false);
});

Deno.test("parsePlaintext() keeps only a message's text and sub (an unknown key such as error is dropped)", () => {
  assert.deepEqual(
    parsePlaintext("message", { text: "t", sub: "chef", error: "no_public_sub" }),
    { text: "t", sub: "chef" },
  );
});
