import assert from "node:assert/strict";
import { resolvePaths } from "../paths.ts";
import type { DoctorContext } from "../doctor/types.ts";
import { budgetCheck } from "./doctor.ts";
import { Ledger } from "../ledger/ledger.ts";
import { configWith, ist, shippedRoles, spend } from "../ledger/_testing.ts";
import { tempDir } from "../../tests/_temp_dir.ts";
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

Deno.test("budgetCheck() warns for a spent budget, and past the cap reads differently from 80%", async () => {
  using d = context();
  const ledger = Ledger.open(d.paths.ledgerFile);
  ledger.record(spend("brain", ist("2026-05-10T12:00"), 12.5)); // 83% of $15
  ledger.record(spend("fast", ist("2026-05-14T09:00"), 1.33)); // 133% of $1
  ledger.close();
  assert.deepEqual(await budgetCheck(d), [
    {
      name: "budget",
      status: "warn",
      detail: "brain has spent $12.50 of $15.00 this month (83%); it resets 01.06.2026 00:00",
    },
    {
      name: "budget",
      status: "warn",
      detail: "fast has spent $1.33 of $1.00 today (133%) and is not called until 15.05.2026 00:00",
    },
  ]);
  using tr = context({ lang: "tr", paths: d.paths });
  const [, spent] = await budgetCheck(tr);
  assert.equal(
    spent?.detail,
    "fast bugün $1,00 sınırının $1,33 kadarını harcadı (%133) ve 15.05.2026 00:00 saatine kadar çağrılmaz",
  );
});

Deno.test("budgetCheck() reads a ledger it may not write, and names a damaged one's remedy", async () => {
  using d = context();
  const ledger = Ledger.open(d.paths.ledgerFile);
  ledger.record(spend("brain", ist("2026-05-10T12:00"), 1));
  ledger.close();
  Deno.chmodSync(d.paths.ledgerFile, 0o400);
  const [line] = await budgetCheck(d);
  assert.equal(line?.status, "ok");
  assert.match(line!.detail, /^brain \$1\.00 of \$15\.00/);
  Deno.chmodSync(d.paths.ledgerFile, 0o600);
  Deno.writeTextFileSync(d.paths.ledgerFile, "garbage ".repeat(200));
  const [bad] = await budgetCheck(d);
  assert.equal(
    bad?.detail,
    `cannot read the spend ledger ${d.paths.ledgerFile}: the file is damaged or is not a spend ledger; rename it (for example to spend.sqlite3.broken) and the agent starts a new one`,
  );
});

Deno.test("budgetCheck() says when a priced fake model reports no tokens", async () => {
  const roles = shippedRoles();
  const config = configWith({
    brain: { ...roles.brain!, provider: "fake", model_id: "fake-priced" },
  });
  config.models.prices["fake-priced"] = {
    input: 3,
    output: 15,
    cache_read: 3,
    cache_write: 3,
    cache_write_1h: 3,
  };
  using d = context({ config });
  const lines = await budgetCheck(d);
  assert.equal(lines[0]?.status, "ok");
  assert.deepEqual(lines[1], {
    name: "budget",
    status: "info",
    detail:
      "brain's fake model fake-priced has a price but reports 0 tokens: set params.usage (for example { input = 1000, output = 200 }) to spend",
  });
  config.models.roles.brain!.params = { usage: { input: 1000, output: 200 } };
  assert.equal((await budgetCheck(d)).length, 1);
});
