import assert from "node:assert/strict";
import { CONFIG_TEMPLATE } from "@agent/hub";
import { SHIPPED_MODELS } from "@agent/hub/config";
import { Ledger, periodBounds } from "@agent/hub/money";
import { type TempDir, tempDir } from "../_temp_dir.ts";
import { agent as run, type RunResult } from "../cli/_run.ts";

/** `agent --home <home> <args>`, through the suite's one runner (`tests/cli/_run.ts`). */
function agent(home: string, ...args: string[]): Promise<RunResult> {
  return run(["--home", home, ...args]);
}

/** A home holding `config`; a `using` block removes it. */
function home(config = CONFIG_TEMPLATE): TempDir {
  const dir = tempDir("spend_cli_");
  Deno.writeTextFileSync(`${dir.path}/agent.toml`, config);
  return dir;
}

function call(role: string, model: string, usd: number | null) {
  return {
    ts: Date.now() - 1000,
    role,
    provider: "vendor-a" as const,
    model_id: model,
    input_tokens: 100,
    output_tokens: 10,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd,
    channel: "chat" as const,
    session_id: "s",
    peer: null,
  };
}

Deno.test("agent spend reads a missing ledger as $0 and does not create it", async () => {
  using tmp = home();
  const dir = tmp.path;
  const run = await agent(dir, "spend");
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 4);
  assert.match(
    lines[0]!,
    /^brain vendor-a \$0\.00 of \$15\.00 this month, resets \d\d\.\d\d\.\d{4} 00:00$/,
  );
  assert.match(
    lines[1]!,
    /^fast vendor-a \$0\.00 of \$1\.00 today, resets \d\d\.\d\d\.\d{4} 00:00$/,
  );
  assert.match(
    lines[2]!,
    /^memory vendor-a \$0\.00 of \$0\.50 today, resets \d\d\.\d\d\.\d{4} 00:00$/,
  );
  assert.equal(lines[3], "local local-runtime $0.00 this month, no budget");
  assert.throws(() => Deno.statSync(`${dir}/data/spend.sqlite3`), Deno.errors.NotFound);
});

Deno.test("agent spend shows spent budgets, stand-ins and unpriced calls", async () => {
  const config = CONFIG_TEMPLATE + `
[models.roles.quiet]
provider = "fake"
model_id = "scripted"
`;
  using tmp = home(config);
  const dir = tmp.path;
  const ledger = Ledger.open(`${dir}/data/spend.sqlite3`);
  // The template's roles use vendor-a's shipped models.
  const { brain, fast } = SHIPPED_MODELS["vendor-a"];
  ledger.recordMany([
    call("brain", brain, 15.5),
    call("fast", fast, 0.25),
    call("fast", fast, null),
    call("fast", fast, null),
  ]);
  ledger.close();
  const run = await agent(dir, "spend");
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  assert.match(
    lines[0]!,
    /^brain vendor-a \$15\.50 of \$15\.00 this month, resets .* · SPENT, fast answers instead$/,
  );
  assert.match(
    lines[1]!,
    new RegExp(
      `^fast vendor-a \\$0\\.25 of \\$1\\.00 today, resets .* · 2 calls without a price for ${fast}$`,
    ),
  );
  assert.equal(lines[4], "quiet fake no budget (its calls are not counted)");

  const json = await agent(dir, "spend", "--json");
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(Object.keys(report), ["brain", "fast", "memory", "local", "quiet"]);
  const month = periodBounds("month", Date.now());
  assert.equal(report.brain.spent_usd, 15.5);
  assert.equal(report.brain.exhausted, true);
  assert.equal(report.brain.degrade_to, "fast");
  assert.equal(Date.parse(report.brain.since), month.sinceMs);
  assert.equal(Date.parse(report.brain.reset_at), month.resetMs);
  assert.match(report.brain.reset_at, /^\d{4}-\d\d-\d\dT00:00:00\+03:00$/);
  assert.equal(report.fast.unpriced_calls, 2);
  assert.equal(report.quiet.metered, false);
  assert.equal(report.quiet.cap_usd, null);
});

Deno.test("agent spend speaks Turkish with --lang tr", async () => {
  using tmp = home();
  const run = await agent(tmp.path, "--lang", "tr", "spend");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^brain vendor-a \$0,00 \/ \$15,00 bu ay, yenilenme /);
});

Deno.test("agent spend in Turkish writes every number with Turkish separators, --json as machines read it", async () => {
  // Issue 39 W16: counts grouped with "." beside dollars with a "." decimal.
  using tmp = home();
  const dir = tmp.path;
  const ledger = Ledger.open(`${dir}/data/spend.sqlite3`);
  const { brain } = SHIPPED_MODELS["vendor-a"];
  ledger.recordMany([
    { ...call("brain", brain, 1234.5), input_tokens: 1_234_567, output_tokens: 4_321 },
    { ...call("brain", brain, 0.014), session_id: "t" },
  ]);
  ledger.close();
  const run = await agent(dir, "--lang", "tr", "spend");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^brain vendor-a \$1\.234,51 \/ \$15,00 bu ay, yenilenme /);
  const by = await agent(dir, "--lang", "tr", "spend", "--by", "session");
  assert.equal(by.code, 0, by.stderr);
  // The column's digits add up ($1.234,500 + $0,014 = $1.234,514), and the tokens group.
  assert.match(
    by.stdout,
    /chat s +\$1\.234,500 +1 çağrı, 1\.234\.567 giriş \/ 4\.321 çıkış belirteci/,
  );
  assert.match(by.stdout, /chat t +\$0,014 +1 çağrı/);
  assert.match(by.stdout, /\$1\.234,514/);
  assert.doesNotMatch(by.stdout, /\$\d+\.\d{2}(?!\d)/, "no dollar amount with a decimal point");
  const en = await agent(dir, "spend", "--by", "session");
  assert.match(en.stdout, /chat s +\$1,234\.500 +1 call, 1,234,567 in \/ 4,321 out tokens/);
  const json = await agent(dir, "--lang", "tr", "spend", "--json");
  assert.equal(JSON.parse(json.stdout).brain.spent_usd, 1234.514);
});

Deno.test("agent spend fails with one sentence when the ledger cannot be read", async () => {
  using tmp = home();
  const dir = tmp.path;
  Deno.mkdirSync(`${dir}/data`);
  Deno.writeTextFileSync(`${dir}/data/spend.sqlite3`, "not a database ".repeat(100));
  const run = await agent(dir, "spend");
  assert.equal(run.code, 1);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^Cannot open the spend ledger .*spend\.sqlite3: .+\n$/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});

Deno.test("agent spend rejects an unknown option with exit 2", async () => {
  using tmp = home();
  const run = await agent(tmp.path, "spend", "--yaml");
  assert.equal(run.code, 2);
  assert.equal(run.stderr.trim().split("\n").length, 1);
});
