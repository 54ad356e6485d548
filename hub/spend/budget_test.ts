import assert from "node:assert/strict";
import { budgetStatus, checkBudget, isMetered } from "./budget.ts";
import { configWith, ist, shippedRoles, spend, tempLedger } from "../ledger/_testing.ts";

Deno.test("isMetered() is true only with a budget or a failover", () => {
  const roles = shippedRoles();
  assert.equal(isMetered(roles.brain!), true);
  assert.equal(isMetered(roles.local!), true);
  assert.equal(isMetered({ provider: "fake", model_id: "m", params: {} }), false);
});

Deno.test("budgetStatus() is undefined for a role without a budget", () => {
  using ledger = tempLedger();
  assert.equal(budgetStatus(ledger, "local", shippedRoles().local!, Date.now()), undefined);
});

Deno.test("budgetStatus() is exhausted when spend reaches the cap", () => {
  using ledger = tempLedger();
  const fast = shippedRoles().fast!;
  const now = ist("2026-05-14T15:00");
  ledger.record(spend("fast", ist("2026-05-14T09:00"), 0.6));
  let status = budgetStatus(ledger, "fast", fast, now)!;
  assert.deepEqual(status, {
    role: "fast",
    spentUsd: 0.6,
    capUsd: 1,
    exhausted: false,
    sinceMs: ist("2026-05-14T00:00"),
    resetMs: ist("2026-05-15T00:00"),
  });
  ledger.record(spend("fast", ist("2026-05-14T10:00"), 0.4));
  status = budgetStatus(ledger, "fast", fast, now)!;
  assert.equal(status.exhausted, true);
});

Deno.test("budgetStatus() counts from the new period after a reset", () => {
  using ledger = tempLedger();
  const roles = shippedRoles();
  ledger.record(spend("fast", ist("2026-05-14T23:59:59"), 5));
  ledger.record(spend("brain", ist("2026-05-31T23:00"), 20));
  assert.equal(
    budgetStatus(ledger, "fast", roles.fast!, ist("2026-05-14T23:59:59.5"))!.exhausted,
    true,
  );
  assert.equal(budgetStatus(ledger, "fast", roles.fast!, ist("2026-05-15T00:00"))!.spentUsd, 0);
  const brainMay = budgetStatus(ledger, "brain", roles.brain!, ist("2026-05-31T23:59"))!;
  assert.equal(brainMay.exhausted, true);
  assert.equal(brainMay.degradeTo, "fast");
  assert.equal(
    budgetStatus(ledger, "brain", roles.brain!, ist("2026-06-01T00:00"))!.exhausted,
    false,
  );
});

Deno.test("budgetStatus() ignores a weekly budget's previous week", () => {
  using ledger = tempLedger();
  const role = {
    provider: "vendor-b" as const,
    model_id: "m",
    params: {},
    budget: { usd: 2, period: "week" as const },
  };
  ledger.record(spend("weekly", ist("2026-11-22T23:00"), 3)); // Sunday
  assert.equal(budgetStatus(ledger, "weekly", role, ist("2026-11-22T23:30"))!.exhausted, true);
  assert.equal(budgetStatus(ledger, "weekly", role, ist("2026-11-23T00:00"))!.exhausted, false); // Monday
});

Deno.test("budgetStatus() never reaches the cap on unpriced calls", () => {
  using ledger = tempLedger();
  for (let i = 0; i < 50; i++) ledger.record(spend("fast", ist("2026-05-14T09:00") + i, null));
  const status = budgetStatus(ledger, "fast", shippedRoles().fast!, ist("2026-05-14T12:00"))!;
  assert.equal(status.spentUsd, 0);
  assert.equal(status.exhausted, false);
});

Deno.test("checkBudget() calls the role while its budget lasts", () => {
  using ledger = tempLedger();
  const config = configWith(shippedRoles());
  assert.deepEqual(checkBudget(ledger, config, "brain", ist("2026-05-14T12:00")), {
    ok: true,
    role: "brain",
    degraded: [],
  });
  assert.deepEqual(checkBudget(ledger, config, "local", ist("2026-05-14T12:00")), {
    ok: true,
    role: "local",
    degraded: [],
  });
});

Deno.test("checkBudget() degrades a spent role to its stand-in", () => {
  using ledger = tempLedger();
  const config = configWith(shippedRoles());
  ledger.record(spend("brain", ist("2026-05-02T12:00"), 15));
  const decision = checkBudget(ledger, config, "brain", ist("2026-05-14T12:00"));
  assert.equal(decision.ok, true);
  assert.ok(decision.ok);
  assert.equal(decision.role, "fast");
  assert.deepEqual(decision.degraded.map((s) => [s.role, s.spentUsd, s.capUsd]), [[
    "brain",
    15,
    15,
  ]]);
});

Deno.test("checkBudget() ends the turn when the stand-in is spent too", () => {
  using ledger = tempLedger();
  const config = configWith(shippedRoles());
  ledger.record(spend("brain", ist("2026-05-02T12:00"), 16));
  ledger.record(spend("fast", ist("2026-05-14T08:00"), 1.01));
  const decision = checkBudget(ledger, config, "brain", ist("2026-05-14T12:00"));
  assert.ok(!decision.ok);
  assert.equal(decision.spent.role, "brain");
  assert.equal(decision.standIn?.role, "fast");
  assert.equal(decision.standIn?.resetMs, ist("2026-05-15T00:00"));
});

Deno.test("checkBudget() ends the turn for a spent role without a stand-in", () => {
  using ledger = tempLedger();
  const config = configWith(shippedRoles());
  ledger.record(spend("fast", ist("2026-05-14T08:00"), 2));
  const decision = checkBudget(ledger, config, "fast", ist("2026-05-14T12:00"));
  assert.ok(!decision.ok);
  assert.equal(decision.spent.role, "fast");
  assert.equal(decision.standIn, undefined);
});

Deno.test("checkBudget() follows a chain of stand-ins and stops at a loop", () => {
  using ledger = tempLedger();
  const roles = shippedRoles();
  roles.fast!.budget!.degrade_to = "cheap";
  roles.cheap = {
    provider: "vendor-b",
    model_id: "c",
    params: {},
    budget: { usd: 0.1, period: "day", degrade_to: "brain" },
  };
  const config = configWith(roles);
  const now = ist("2026-05-14T12:00");
  ledger.recordMany([spend("brain", now - 1000, 15), spend("fast", now - 1000, 1)]);
  const decision = checkBudget(ledger, config, "brain", now);
  assert.ok(decision.ok);
  assert.equal(decision.role, "cheap");
  assert.deepEqual(decision.degraded.map((s) => s.role), ["brain", "fast"]);
  ledger.record(spend("cheap", now - 1000, 0.1));
  const blocked = checkBudget(ledger, config, "brain", now);
  assert.ok(!blocked.ok);
  assert.equal(blocked.spent.role, "brain");
  assert.equal(blocked.standIn?.role, "cheap");
});
