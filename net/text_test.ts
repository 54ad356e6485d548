import assert from "node:assert/strict";
import { cleanText } from "./text.ts";

Deno.test("cleanText() removes bidi, zero-width and invisible characters (U2)", () => {
  const invisible = [
    "\u061C", // Arabic letter mark
    "\u200B", // zero-width space
    "\u200C", // zero-width non-joiner
    "\u200D", // zero-width joiner
    "\u200E",
    "\u200F",
    "\u202A",
    "\u202E",
    "\u2060", // word joiner
    "\u2063", // invisible separator
    "\u2066",
    "\u2069",
    "\uFEFF", // zero-width no-break space
    "\u00AD", // soft hyphen
    "\u034F", // combining grapheme joiner
    "\u180E", // Mongolian vowel separator
  ];
  for (const c of invisible) {
    const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    assert.equal(cleanText(`Ad${c}a${c}`, 80), "Ada", code);
    assert.equal(cleanText(`${c}${c}`, 80), "", code);
  }
  for (const blank of ["\u3164", "\u115F", "\u1160", "\uFFA0", "\u2800"]) {
    assert.equal(cleanText(`Ada${blank}Lovelace${blank}`, 80), "Ada Lovelace");
  }
  // Letters and marks that carry meaning stay.
  assert.equal(cleanText("Özlem Işık · café ❤️ 東京", 80), "Özlem Işık · café ❤️ 東京");
  assert.equal(cleanText("x".repeat(100), 80), "x".repeat(80));
});
