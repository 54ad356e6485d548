import assert from "node:assert/strict";
import { forecastLine, forecastOf, forecastReport } from "./forecast.ts";
import { spendReport } from "./report.ts";
import { configWith, ist, shippedRoles, spend, tempLedger } from "../ledger/_testing.ts";

const config = configWith(shippedRoles());

Deno.test("forecastOf() projects the cap at the period's pace so far", () => {
  using ledger = tempLedger();
  // brain: $5 by the 6th at noon of a 30-day month: $1/day, the cap of $15 on the 16th.
  ledger.record(spend("brain", ist("2026-11-01T12:00"), 5));
  const now = ist("2026-11-06T00:00");
  const f = forecastReport(spendReport(config, ledger, now), now);
  assert.deepEqual(f.brain, {
    spent_usd: 5,
    cap_usd: 15,
    pace_usd_per_day: 1,
    projected_usd: 30,
    reached: false,
    reaches_at: "2026-11-16T00:00:00+03:00",
    reset_at: "2026-12-01T00:00:00+03:00",
  });
  assert.equal(f.local, undefined);
  assert.equal(
    forecastLine({ brain: f.brain! }, "en"),
    "Forecast: brain reaches $15.00 around 16.11.2026 00:00 ($1.00/day)",
  );
});

Deno.test("forecastOf() says not this period when the pace ends below the cap", () => {
  using ledger = tempLedger();
  ledger.record(spend("brain", ist("2026-11-02T12:00"), 1));
  const now = ist("2026-11-11T00:00");
  const f = forecastOf(spendReport(config, ledger, now).brain!, now)!;
  assert.equal(f.reaches_at, null);
  assert.equal(f.projected_usd, 3);
  assert.equal(
    forecastLine({ brain: f }, "en"),
    "Forecast: brain not this period ($3.00 of $15.00 by 01.12.2026 00:00 at $0.10/day)",
  );
});

Deno.test("forecastOf() in the first minutes of a period does not read one call as a runaway pace", () => {
  using ledger = tempLedger();
  // $0.10 of the $1 daily budget at 00:05: the plain average would reach the cap at 00:50.
  ledger.record(spend("fast", ist("2026-11-06T00:04"), 0.1));
  const now = ist("2026-11-06T00:05");
  const f = forecastOf(spendReport(config, ledger, now).fast!, now)!;
  // The pace counts at least 1.2 hours (5% of the day): the cap not before 10:53.
  assert.equal(f.pace_usd_per_day, 2);
  assert.equal(f.reaches_at, "2026-11-06T10:53:00+03:00");
});

Deno.test("forecastOf() of a spent budget says reached; a role without budget has none", () => {
  using ledger = tempLedger();
  ledger.record(spend("fast", ist("2026-11-06T09:00"), 1.5));
  const now = ist("2026-11-06T10:00");
  const report = spendReport(config, ledger, now);
  const f = forecastOf(report.fast!, now)!;
  assert.equal(f.reached, true);
  assert.equal(f.reaches_at, null);
  assert.equal(forecastOf(report.local!, now), undefined);
  assert.equal(forecastLine({ fast: f }, "tr"), "Tahmin: fast $1,00 sınırına ulaştı");
  assert.equal(forecastLine({}, "en"), "Forecast: no role has a budget.");
});
