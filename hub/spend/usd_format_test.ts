import assert from "node:assert/strict";
import { formatUsdColumn } from "./usd_format.ts";

Deno.test("formatUsdColumn() shows the digits that make a column add up to its total", () => {
  // Two decimals read $0.01 + $0.01 = $0.03 (issue 39, W19).
  assert.deepEqual(formatUsdColumn([0.0137, 0.0137], 0.0274), {
    parts: ["0.0137", "0.0137"],
    total: "0.0274",
  });
  assert.deepEqual(formatUsdColumn([0.014, 0.014], 0.028), {
    parts: ["0.014", "0.014"],
    total: "0.028",
  });
  // Whole cents stay at two decimals; one tiny part gives the whole column its digits.
  assert.deepEqual(formatUsdColumn([1.5, 2.25], 3.75), { parts: ["1.50", "2.25"], total: "3.75" });
  assert.deepEqual(formatUsdColumn([1, 0.0042], 1.0042), {
    parts: ["1.0000", "0.0042"],
    total: "1.0042",
  });
  // Every shown part adds up, however many there are.
  const parts = Array.from({ length: 186 }, (_, i) => 0.0137 + 0.001 * (i % 9));
  const total = parts.reduce((a, b) => a + b, 0);
  const shown = formatUsdColumn(parts, total);
  const d = shown.total.split(".")[1]!.length;
  assert.equal(
    Math.round(shown.parts.reduce((a, p) => a + Number(p), 0) * 10 ** d),
    Math.round(Number(shown.total) * 10 ** d),
  );
});

Deno.test("formatUsdColumn() reads nothing and bad values as zero", () => {
  assert.deepEqual(formatUsdColumn([], 0), { parts: [], total: "0.00" });
  assert.deepEqual(formatUsdColumn([Number.NaN, -1], 0), {
    parts: ["0.00", "0.00"],
    total: "0.00",
  });
});
