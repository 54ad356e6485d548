import assert from "node:assert/strict";
import {
  formatCount,
  formatUsd,
  formatUsdAll,
  formatUsdColumn,
  formatUsdFixed,
  parseUsd,
} from "./usd_format.ts";

Deno.test("formatUsdColumn() shows the digits that make a column add up to its total", () => {
  // Two decimals read $0.01 + $0.01 = $0.03 (issue 39, W19).
  assert.deepEqual(formatUsdColumn([0.0137, 0.0137], 0.0274, "en"), {
    parts: ["0.0137", "0.0137"],
    total: "0.0274",
    decimals: 4,
  });
  assert.deepEqual(formatUsdColumn([0.014, 0.014], 0.028, "en"), {
    parts: ["0.014", "0.014"],
    total: "0.028",
    decimals: 3,
  });
  // Whole cents stay at two decimals; one tiny part gives the whole column its digits.
  assert.deepEqual(formatUsdColumn([1.5, 2.25], 3.75, "en"), {
    parts: ["1.50", "2.25"],
    total: "3.75",
    decimals: 2,
  });
  assert.deepEqual(formatUsdColumn([1, 0.0042], 1.0042, "en"), {
    parts: ["1.0000", "0.0042"],
    total: "1.0042",
    decimals: 4,
  });
  // Every shown part adds up, however many there are.
  const parts = Array.from({ length: 186 }, (_, i) => 0.0137 + 0.001 * (i % 9));
  const total = parts.reduce((a, b) => a + b, 0);
  const shown = formatUsdColumn(parts, total, "en");
  const d = shown.total.split(".")[1]!.length;
  assert.equal(
    Math.round(shown.parts.reduce((a, p) => a + Number(p), 0) * 10 ** d),
    Math.round(Number(shown.total) * 10 ** d),
  );
});

Deno.test("formatUsdColumn() reads nothing and bad values as zero", () => {
  assert.deepEqual(formatUsdColumn([], 0, "en"), { parts: [], total: "0.00", decimals: 2 });
  assert.deepEqual(formatUsdColumn([Number.NaN, -1], 0, "tr"), {
    parts: ["0,00", "0,00"],
    total: "0,00",
    decimals: 2,
  });
});

Deno.test("formatUsd() writes Turkish amounts with a decimal comma and a grouping dot", () => {
  // Issue 39 W16: a Turkish page read "1.234" (a count) beside "$0.014" (a dollar amount).
  assert.equal(formatUsd(0.014, "tr"), "0,014");
  assert.equal(formatUsd(1234.56, "tr"), "1.234,56");
  assert.equal(formatUsd(1234567.5, "tr"), "1.234.567,50");
  assert.equal(formatUsd(15, "tr"), "15,00");
  assert.equal(formatUsd(0, "tr"), "0,00");
  // Tiny amounts keep the digits that stop them reading as nothing, in both languages.
  assert.equal(formatUsd(0.000027, "tr"), "0,000027");
  assert.equal(formatUsd(0.000027, "en"), "0.000027");
  assert.equal(formatUsd(0.0042, "en"), "0.0042");
  // English keeps its decimal point and writes dollars as before.
  assert.equal(formatUsd(0.014, "en"), "0.014");
  assert.equal(formatUsd(1234.56, "en"), "1,234.56");
});

Deno.test("formatUsdAll() keeps the digits a comparison needs in both languages", () => {
  assert.deepEqual(formatUsdAll([0.014, 0.02], "tr"), ["0,014", "0,02"]);
  assert.deepEqual(formatUsdAll([0.0149, 0.015], "tr"), ["0,0149", "0,0150"]);
  assert.deepEqual(formatUsdAll([0.0149, 0.015], "en"), ["0.0149", "0.0150"]);
  assert.deepEqual(formatUsdAll([1499.999, 1500], "tr"), ["1.499,999", "1.500,000"]);
});

Deno.test("formatUsdColumn() adds up in Turkish with the same digits as in English", () => {
  const en = formatUsdColumn([0.014, 0.014, 1200], 1200.028, "en");
  const tr = formatUsdColumn([0.014, 0.014, 1200], 1200.028, "tr");
  assert.deepEqual(en, { parts: ["0.014", "0.014", "1,200.000"], total: "1,200.028", decimals: 3 });
  assert.deepEqual(tr, {
    parts: ["0,014", "0,014", "1.200,000"],
    total: "1.200,028",
    decimals: 3,
  });
  assert.equal(formatUsdFixed(0.5, { decimals: 3, lang: "tr" }), "0,500");
  assert.equal(formatUsdFixed(0.5, { decimals: 3, lang: "en" }), "0.500");
});

Deno.test("formatCount() groups thousands as each language does", () => {
  assert.equal(formatCount(1234, "tr"), "1.234");
  assert.equal(formatCount(1234, "en"), "1,234");
  assert.equal(formatCount(987654321, "tr"), "987.654.321");
  assert.equal(formatCount(999, "tr"), "999");
  assert.equal(formatCount(-1234, "en"), "-1,234");
  assert.equal(formatCount(Number.NaN, "en"), "0");
});

Deno.test("parseUsd() reads a Turkish comma and an unambiguous point", () => {
  assert.equal(parseUsd("1,5", "tr"), 1.5);
  assert.equal(parseUsd("$1.234,56", "tr"), 1234.56);
  assert.equal(parseUsd("0.5", "tr"), 0.5);
  assert.equal(parseUsd("1,234.5", "en"), 1234.5);
  assert.equal(parseUsd("1,5", "en"), undefined);
  assert.equal(parseUsd("", "tr"), undefined);
  assert.equal(parseUsd("-1", "tr"), undefined);
});
