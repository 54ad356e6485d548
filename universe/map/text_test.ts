import assert from "node:assert/strict";
import { cleanText } from "@agent/net";
import { foldText, lineOf } from "./text.ts";

Deno.test("lineOf() (the page's copy) agrees with the protocol's cleanText() on the BMP and the tags", () => {
  let all = "";
  for (let cp = 0; cp <= 0xe0fff; cp = cp === 0xffff ? 0xe0000 : cp + 1) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    all += `|${String.fromCodePoint(cp)}|`;
  }
  assert.equal(lineOf(all), cleanText(all, Infinity));
});

Deno.test("lineOf() and foldText() drop bidi and zero-width characters (U2)", () => {
  assert.equal(lineOf("Ada\u061C\u200B Lovelace\u2060"), "Ada Lovelace");
  assert.equal(foldText("Öz\u200Blem\u061C"), "ozlem");
});
