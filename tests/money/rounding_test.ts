/**
 * Amounts show the digits their comparison needs, through the real `agent` command
 * (issue 39 F12): two-decimal rounding made `$0.0000 of $0.0000 (135%)` out of a tiny
 * cap and `$0.01` out of $0.014; tables show a small row as more than `$0.00`.
 */
import assert from "node:assert/strict";
import { CONFIG_TEMPLATE } from "@agent/hub";
import { Ledger } from "@agent/hub/money";
import { tempDir } from "../_temp_dir.ts";
import { agent } from "../cli/_run.ts";

function seed(dir: string, rows: [string, number][]): void {
  const ledger = Ledger.open(`${dir}/data/spend.sqlite3`);
  ledger.recordMany(rows.map(([session, usd]) => ({
    ts: Date.now() - 1000,
    role: "brain",
    provider: "vendor-a" as const,
    model_id: "claude-sonnet-5",
    input_tokens: 10,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd,
    channel: "chat" as const,
    session_id: session,
    peer: null,
    estimated: false,
  })));
  ledger.close();
}

Deno.test("agent spend and doctor show a tiny cap and its spend apart, en and tr", async () => {
  using tmp = tempDir("rounding_");
  const config = CONFIG_TEMPLATE.replace(
    /(\[models\.roles\.brain\.budget\]\nusd = )[0-9.]+/,
    "$10.00002",
  );
  assert.notEqual(config, CONFIG_TEMPLATE);
  Deno.writeTextFileSync(`${tmp.path}/agent.toml`, config);
  seed(tmp.path, [["s1", 0.000027]]);
  const spend = await agent(["--home", tmp.path, "spend"]);
  assert.equal(spend.code, 0, spend.stderr);
  assert.match(spend.stdout, /^brain vendor-a \$0\.000027 of \$0\.000020 this month/m);
  const doctor = await agent(["--home", tmp.path, "doctor"]);
  assert.match(doctor.stdout, /brain has spent \$0\.000027 of \$0\.000020 this month \(135%\)/);
  const tr = await agent(["--home", tmp.path, "--lang", "tr", "spend"]);
  assert.match(tr.stdout, /^brain vendor-a \$0,000027 \/ \$0,000020 bu ay/m);
});

Deno.test("agent spend says $0.014 of a $0.02 cap, and a table row of $0.004 is not $0.00", async () => {
  using tmp = tempDir("rounding_");
  const config = CONFIG_TEMPLATE.replace(
    /(\[models\.roles\.brain\.budget\]\nusd = )[0-9.]+/,
    "$10.02",
  );
  Deno.writeTextFileSync(`${tmp.path}/agent.toml`, config);
  seed(tmp.path, [["chat-a", 0.01], ["chat-b", 0.004]]);
  const spend = await agent(["--home", tmp.path, "spend"]);
  assert.match(spend.stdout, /^brain vendor-a \$0\.014 of \$0\.02 this month/m);
  const by = await agent(["--home", tmp.path, "spend", "--by", "session"]);
  assert.equal(by.code, 0, by.stderr);
  assert.match(by.stdout, /chat-b +\$0\.0040 {2}1 call/);
  assert.match(by.stdout, /chat-a +\$0\.0100 {2}1 call/);
  assert.doesNotMatch(by.stdout, /\$0\.00 /);
});
