import assert from "node:assert/strict";
import { resolvePaths } from "../paths.ts";
import type { DoctorContext } from "../doctor/types.ts";
import { budgetCheck } from "./doctor.ts";
import { Ledger } from "./ledger.ts";
import { configWith, ist, shippedRoles, spend } from "./_testing.ts";
import { tempDir } from "../_testing.ts";
import { loadComponents } from "../app/components.ts";

/** A doctor context over a fresh home, removed at the end of the test's `using` block. */
function context(fields: Partial<DoctorContext> = {}): DoctorContext & Disposable {
  const home = tempDir("money_doctor_");
  return {
    [Symbol.dispose]: () => home[Symbol.dispose](),
    paths: resolvePaths({ home: home.path, env: {} }),
    env: {},
    lang: "en",
    config: configWith(shippedRoles()),
    configError: undefined,
    registry: () => loadComponents(undefined, resolvePaths({ home: "/nowhere", env: {} })),
    now: ist("2026-05-14T12:00"),
    ...fields,
  };
}

Deno.test("budgetCheck() shows each budget against its cap, $0 without a ledger", async () => {
  using d = context();
  assert.deepEqual(await budgetCheck(d), [{
    name: "budget",
    status: "ok",
    detail:
      "brain $0.00 of $15.00 this month (resets 01.06.2026 00:00); fast $0.00 of $1.00 today (resets 15.05.2026 00:00)",
  }]);
  assert.throws(() => Deno.statSync(d.paths.ledgerFile), Deno.errors.NotFound);
  const ledger = Ledger.open(d.paths.ledgerFile);
  ledger.record(spend("brain", ist("2026-05-10T12:00"), 4.5));
  ledger.close();
  const [line] = await budgetCheck(d);
  assert.match(line!.detail, /^brain \$4\.50 of \$15\.00 this month/);
});

Deno.test("budgetCheck() says nothing without budgets or without a configuration", async () => {
  using none = context({ config: undefined });
  assert.deepEqual(await budgetCheck(none), []);
  using unbudgeted = context({ config: configWith({ local: shippedRoles().local! }) });
  assert.deepEqual(await budgetCheck(unbudgeted), []);
});

Deno.test("budgetCheck() fails when the ledger cannot be read", async () => {
  using d = context({ lang: "tr" });
  Deno.mkdirSync(d.paths.dataDir, { recursive: true });
  Deno.writeTextFileSync(d.paths.ledgerFile, "garbage ".repeat(200));
  const [line] = await budgetCheck(d);
  assert.equal(line?.status, "fail");
  assert.equal(line?.name, "budget");
  assert.match(line!.detail, /^harcama defteri .*spend\.sqlite3 okunamıyor: /);
});
