import assert from "node:assert/strict";
import { CONFIG_TEMPLATE } from "@agent/hub";
import { Ledger } from "@agent/hub/money";
import { type TempDir, tempDir } from "../_temp_dir.ts";
import { agent, type RunResult } from "../cli/_run.ts";

/** `agent --home <home> doctor <args>`, through the suite's one runner (`tests/cli/_run.ts`). */
function doctor(home: string, ...args: string[]): Promise<RunResult> {
  return agent(["--home", home, "doctor", ...args]);
}

/** A home holding the template configuration; a `using` block removes it. */
function home(): TempDir {
  const dir = tempDir("doctor_budget_");
  Deno.writeTextFileSync(`${dir.path}/agent.toml`, CONFIG_TEMPLATE);
  return dir;
}

Deno.test("agent doctor adds the budget line from the ledger", async () => {
  using tmp = home();
  const dir = tmp.path;
  const ledger = Ledger.open(`${dir}/data/spend.sqlite3`);
  ledger.record({
    ts: Date.now() - 1000,
    role: "brain",
    provider: "vendor-a",
    model_id: "claude-sonnet-5",
    input_tokens: 1,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd: 2.75,
    channel: "tui",
    session_id: "s",
    peer: null,
  });
  ledger.close();
  const run = await doctor(dir);
  const line = run.stdout.split("\n").find((l) => l.includes(" budget: "));
  assert.match(
    line ?? run.stdout,
    /^ok budget: brain \$2\.75 of \$15\.00 this month \(resets \d\d\.\d\d\.\d{4} 00:00\); fast \$0\.00 of \$1\.00 today \(resets \d\d\.\d\d\.\d{4} 00:00\); memory \$0\.00 of \$0\.50 today \(resets \d\d\.\d\d\.\d{4} 00:00\)$/,
  );
});

Deno.test("agent doctor fails the budget check when the ledger cannot be read", async () => {
  using tmp = home();
  const dir = tmp.path;
  Deno.mkdirSync(`${dir}/data`);
  Deno.writeTextFileSync(`${dir}/data/spend.sqlite3`, "not a database ".repeat(100));
  const run = await doctor(dir, "--json");
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout);
  const budget = report.checks.find((c: { name: string }) => c.name === "budget");
  assert.equal(budget.status, "fail");
  assert.match(
    budget.detail,
    /^cannot read the spend ledger .*spend\.sqlite3: the file is damaged or is not a spend ledger; rename it \(for example to spend\.sqlite3\.broken\) and the agent starts a new one$/,
  );
  assert.equal(report.ok, false);
});
