import assert from "node:assert/strict";
import { checkBudget } from "./budget.ts";
import { budgetLine, spendLines, spendReport } from "./report.ts";
import {
  budgetBlockedSentence,
  budgetSpentSentence,
  degradeLogLine,
  degradeNotice,
  formatUsd,
  formatUsdAll,
  standInSpentSentence,
} from "./sentences.ts";
import { configWith, ist, shippedRoles, spend, tempLedger } from "../ledger/_testing.ts";

const NOW = ist("2026-05-14T12:00");

Deno.test("spendReport() gives every role a spend object with the spec's fields", () => {
  using ledger = tempLedger();
  ledger.recordMany([
    spend("brain", ist("2026-05-03T10:00"), 2.5),
    spend("brain", ist("2026-04-30T10:00"), 7),
    spend("fast", ist("2026-05-14T09:00"), 0.1),
    spend("fast", ist("2026-05-14T09:01"), 0.2),
  ]);
  const report = spendReport(configWith(shippedRoles()), ledger, NOW);
  assert.deepEqual(Object.keys(report), ["brain", "fast", "local"]);
  assert.deepEqual(report.brain, {
    provider: "vendor-a",
    model_id: "brain-model",
    spent_usd: 2.5,
    cap_usd: 15,
    period: "month",
    since: "2026-05-01T00:00:00+03:00",
    reset_at: "2026-06-01T00:00:00+03:00",
    exhausted: false,
    degrade_to: "fast",
    unpriced_calls: 0,
    estimated_calls: 0,
    metered: true,
  });
  assert.deepEqual(Object.keys(report.brain!), [
    "provider",
    "model_id",
    "spent_usd",
    "cap_usd",
    "period",
    "since",
    "reset_at",
    "exhausted",
    "degrade_to",
    "unpriced_calls",
    "estimated_calls",
    "metered",
  ]);
  assert.equal(report.fast!.spent_usd, 0.3); // not 0.30000000000000004
  assert.equal(report.fast!.since, "2026-05-14T00:00:00+03:00");
  assert.equal("degrade_to" in report.fast!, false);
  assert.deepEqual(report.local, {
    provider: "local-runtime",
    model_id: "local-model",
    spent_usd: 0,
    cap_usd: null,
    period: "month",
    since: "2026-05-01T00:00:00+03:00",
    reset_at: "2026-06-01T00:00:00+03:00",
    exhausted: false,
    unpriced_calls: 0,
    estimated_calls: 0,
    metered: true,
  });
});

Deno.test("spendReport() without a ledger reads as nothing spent", () => {
  const report = spendReport(configWith(shippedRoles()), undefined, NOW);
  assert.equal(report.brain!.spent_usd, 0);
  assert.equal(report.fast!.exhausted, false);
});

Deno.test("spendLines() prints one line per role in the spec's shape", () => {
  using ledger = tempLedger();
  ledger.record(spend("brain", ist("2026-05-03T10:00"), 1.234));
  const roles = shippedRoles();
  roles.quiet = { provider: "fake", model_id: "scripted", params: {} };
  const report = spendReport(configWith(roles), ledger, NOW);
  assert.deepEqual(spendLines(report, "en"), [
    "brain vendor-a $1.23 of $15.00 this month, resets 01.06.2026 00:00",
    "fast vendor-a $0.00 of $1.00 today, resets 15.05.2026 00:00",
    "local local-runtime $0.00 this month, no budget",
    "quiet fake no budget (its calls are not counted)",
  ]);
});

Deno.test("spendLines() marks a spent budget, its stand-in and unpriced calls", () => {
  using ledger = tempLedger();
  const roles = shippedRoles();
  roles.weekly = {
    provider: "vendor-b",
    model_id: "odd-model",
    params: {},
    budget: { usd: 0.5, period: "week" },
  };
  ledger.recordMany([
    spend("brain", ist("2026-05-03T10:00"), 15.2),
    spend("fast", ist("2026-05-14T10:00"), 0.5),
    spend("fast", ist("2026-05-14T10:01"), null),
    spend("weekly", ist("2026-05-11T10:00"), null),
    spend("weekly", ist("2026-05-12T10:00"), null),
    spend("weekly", ist("2026-05-12T10:00"), 0.004),
  ]);
  const report = spendReport(configWith(roles), ledger, NOW);
  assert.deepEqual(spendLines(report, "en"), [
    "brain vendor-a $15.20 of $15.00 this month, resets 01.06.2026 00:00 · SPENT, fast answers instead",
    "fast vendor-a $0.50 of $1.00 today, resets 15.05.2026 00:00 · 1 call without a price for fast-model",
    "local local-runtime $0.00 this month, no budget",
    "weekly vendor-b $0.0040 of $0.50 this week, resets 18.05.2026 00:00 · 2 calls without a price for odd-model",
  ]);
  assert.deepEqual(spendLines(report, "tr").slice(0, 2), [
    "brain vendor-a $15,20 / $15,00 bu ay, yenilenme 01.06.2026 00:00 · TÜKENDİ, yerine fast yanıtlar",
    "fast vendor-a $0,50 / $1,00 bugün, yenilenme 15.05.2026 00:00 · fast-model için fiyatı olmayan 1 çağrı",
  ]);
});

Deno.test("budgetLine() lists budgeted roles, or says unknown without any", () => {
  using ledger = tempLedger();
  ledger.record(spend("brain", ist("2026-05-03T10:00"), 3));
  const report = spendReport(configWith(shippedRoles()), ledger, NOW);
  assert.equal(
    budgetLine(report, "en"),
    "Budget: brain $3.00 of $15.00 this month (resets 01.06.2026 00:00); fast $0.00 of $1.00 today (resets 15.05.2026 00:00)",
  );
  const unbudgeted = spendReport(configWith({ local: shippedRoles().local! }), ledger, NOW);
  assert.equal(budgetLine(unbudgeted, "en"), "Budget: unknown.");
  assert.equal(budgetLine(unbudgeted, "tr"), "Bütçe: bilinmiyor.");
});

Deno.test("formatUsd() uses two decimals, a third for a tenth of a cent, two digits below a cent", () => {
  assert.deepEqual(
    [0, 0.01, 0.005, 0.014, 0.000027, 0.25, 1.005, 15, 123.456, -1, Number.NaN].map((v) =>
      formatUsd(v, "en")
    ),
    [
      "0.00",
      "0.01",
      "0.0050",
      "0.014",
      "0.000027",
      "0.25",
      "1.00",
      "15.00",
      "123.46",
      "0.00",
      "0.00",
    ],
  );
});

Deno.test("formatUsdAll() keeps amounts that differ apart, so a comparison reads true", () => {
  // Issue 39 F12: $0.014 against a $0.02 ceiling read "$0.01 ... would pass ... $0.02",
  // and a tiny cap "$0.0000 of $0.0000 (135%)".
  assert.deepEqual(formatUsdAll([0.014, 0.02], "en"), ["0.014", "0.02"]);
  assert.deepEqual(formatUsdAll([0.000027, 0.00002], "en"), ["0.000027", "0.000020"]);
  assert.deepEqual(formatUsdAll([0.0149, 0.015], "en"), ["0.0149", "0.0150"]);
  assert.deepEqual(formatUsdAll([14.999, 15], "en"), ["14.999", "15.000"]);
  assert.deepEqual(formatUsdAll([15, 15], "en"), ["15.00", "15.00"]);
});

Deno.test("budget sentences read exactly as the spec's Errors table", () => {
  using ledger = tempLedger();
  const config = configWith(shippedRoles());
  ledger.record(spend("fast", ist("2026-05-14T08:00"), 1.02));
  const fastOnly = checkBudget(ledger, config, "fast", NOW);
  assert.ok(!fastOnly.ok);
  assert.equal(
    budgetBlockedSentence("en", fastOnly),
    "The fast budget is spent ($1.02 of $1.00) and resets at 15.05.2026 00:00. To raise the cap, change it in agent.toml.",
  );
  assert.equal(budgetSpentSentence("en", fastOnly.spent), budgetBlockedSentence("en", fastOnly));
  assert.equal(
    budgetBlockedSentence("tr", fastOnly),
    "fast bütçesi tükendi ($1,00 sınırından $1,02 harcandı) ve 15.05.2026 00:00 itibarıyla yenilenir. Sınırı yükseltmek için agent.toml dosyasında değiştirin.",
  );
  ledger.record(spend("brain", ist("2026-05-02T08:00"), 15));
  const both = checkBudget(ledger, config, "brain", NOW);
  assert.ok(!both.ok && both.standIn !== undefined);
  assert.equal(
    budgetBlockedSentence("en", both),
    "The brain budget is spent until 01.06.2026 00:00, and fast, which stands in for it, is spent too until 15.05.2026 00:00.",
  );
  assert.equal(
    standInSpentSentence("tr", { spent: both.spent, standIn: both.standIn }),
    "brain bütçesi 01.06.2026 00:00 saatine kadar tükendi; onun yerine geçen fast de 15.05.2026 00:00 saatine kadar tükendi.",
  );
  assert.equal(
    degradeNotice("en", both.spent, "fast"),
    "(brain budget spent until 01.06.2026 00:00; fast answered.)",
  );
  assert.equal(
    degradeLogLine(both.spent, "fast"),
    "role brain: budget spent ($15.00 of $15.00, resets 2026-06-01T00:00:00+03:00); fast answers instead",
  );
});

Deno.test("spendLines() names a stand-in only when it really answers", () => {
  using ledger = tempLedger();
  const config = configWith(shippedRoles());
  const now = ist("2026-11-06T12:00");
  ledger.record(spend("brain", ist("2026-11-06T09:00"), 16));
  let lines = spendLines(spendReport(config, ledger, now), "en");
  assert.match(lines[0]!, / · SPENT, fast answers instead$/);
  // fast is spent too: nobody answers for brain.
  ledger.record(spend("fast", ist("2026-11-06T10:00"), 1.5));
  lines = spendLines(spendReport(config, ledger, now), "en");
  assert.match(lines[0]!, / · SPENT$/);
  assert.match(lines[1]!, / · SPENT$/);
});
