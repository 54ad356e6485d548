import assert from "node:assert/strict";
import { budgetWarningLogLine, budgetWarningSentence, claimBudgetWarnings } from "./warnings.ts";
import { configWith, ist, shippedRoles, spend, tempLedger } from "../ledger/_testing.ts";

Deno.test("claimBudgetWarnings() gives a warning once per role, period and surface", () => {
  using ledger = tempLedger();
  const config = configWith(shippedRoles());
  const at = (text: string) => ist(text);
  ledger.record(spend("fast", at("2026-11-06T09:00"), 0.79));
  assert.deepEqual(
    claimBudgetWarnings(ledger, config, at("2026-11-06T09:01"), { surface: "hub" }),
    [],
  );
  ledger.record(spend("fast", at("2026-11-06T09:30"), 0.02));
  const first = claimBudgetWarnings(ledger, config, at("2026-11-06T09:31"), { surface: "hub" });
  assert.deepEqual(first.map((w) => [w.role, w.spentUsd, w.capUsd, w.warnAt]), [[
    "fast",
    0.81,
    1,
    0.8,
  ]]);
  assert.equal(
    budgetWarningSentence("en", first[0]!),
    "Budget warning: fast has spent $0.81 of $1.00 today (81%); it resets 07.11.2026 00:00.",
  );
  assert.equal(
    budgetWarningSentence("tr", first[0]!),
    "Bütçe uyarısı: fast bugün $1,00 sınırının $0,81 kadarını harcadı (%81); yenilenme 07.11.2026 00:00.",
  );
  assert.equal(
    budgetWarningLogLine(first[0]!),
    "budget: fast passed 80% of its $1.00 day cap ($0.81 spent)",
  );
  // Told: not again this period for the hub, however much more is spent...
  ledger.record(spend("fast", at("2026-11-06T10:00"), 0.1));
  assert.deepEqual(
    claimBudgetWarnings(ledger, config, at("2026-11-06T10:01"), { surface: "hub" }),
    [],
  );
  // ...but chat tells its own user once too.
  assert.equal(
    claimBudgetWarnings(ledger, config, at("2026-11-06T10:01"), { surface: "chat" }).length,
    1,
  );
  // The next day is a new period.
  ledger.record(spend("fast", at("2026-11-07T08:00"), 0.9));
  assert.equal(
    claimBudgetWarnings(ledger, config, at("2026-11-07T08:01"), { surface: "hub" }).length,
    1,
  );
});

Deno.test("claimBudgetWarnings() follows warn_at per role, and 0 switches it off", () => {
  using ledger = tempLedger();
  const roles = shippedRoles();
  roles.fast!.budget!.warn_at = 0;
  roles.brain!.budget!.warn_at = 0.5;
  const config = configWith(roles);
  ledger.record(spend("fast", ist("2026-11-06T09:00"), 0.99));
  ledger.record(spend("brain", ist("2026-11-06T09:00"), 7.5));
  const now = ist("2026-11-06T09:01");
  const told = claimBudgetWarnings(ledger, config, now, { surface: "hub" });
  assert.deepEqual(told.map((w) => w.role), ["brain"]);
});

Deno.test("budgetWarningSentence() past the cap says the role is not called, unlike the 80% warning", () => {
  const warning = {
    role: "fast",
    spentUsd: 1.33,
    capUsd: 1,
    warnAt: 0.8,
    period: "day" as const,
    sinceMs: Date.UTC(2026, 4, 13, 21),
    resetMs: Date.UTC(2026, 4, 14, 21),
  };
  assert.equal(
    budgetWarningSentence("en", warning),
    "Budget spent: fast has spent $1.33 of $1.00 today (133%); it is not called until 15.05.2026 00:00.",
  );
  assert.equal(
    budgetWarningSentence("tr", warning),
    "Bütçe tükendi: fast bugün $1,00 sınırının $1,33 kadarını harcadı (%133); 15.05.2026 00:00 saatine kadar çağrılmaz.",
  );
  assert.equal(budgetWarningLogLine(warning), "budget: fast spent its $1.00 day cap ($1.33 spent)");
  const near = { ...warning, spentUsd: 0.85 };
  assert.match(
    budgetWarningSentence("en", near),
    /^Budget warning: fast has spent \$0\.85 of \$1\.00 today \(85%\); it resets /,
  );
});
