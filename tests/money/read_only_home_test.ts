/**
 * The ledger side of a new user's rough edges, through the real `agent` command:
 * `spend --by day --forecast` honours `--forecast`; estimated calls show in `spend`
 * and `spend --json`; `spend` and `doctor` work on a home that is readable but not
 * writable, and `chat` says in one sentence why it cannot start there (made immutable with `chattr +i`, which binds
 * root too; skipped where `chattr` cannot).
 */
import assert from "node:assert/strict";
import { CONFIG_TEMPLATE } from "@agent/hub";
import { SHIPPED_MODELS } from "@agent/hub/config";
import { Ledger } from "@agent/hub/money";
import { RUN_FLAGS } from "../_agent_flags.ts";
import { type TempDir, tempDir } from "../_temp_dir.ts";

const MAIN = new URL("../../cli/main.ts", import.meta.url).pathname;

async function agent(home: string, args: string[], stdin?: string) {
  const env = Object.fromEntries(
    // Not the task runner's marks either: under `deno task test` the hints would name
    // `deno task agent …` (cli/invocation.ts).
    Object.entries(Deno.env.toObject()).filter(([k]) =>
      !k.startsWith("AGENT_") && k !== "INIT_CWD" && k !== "npm_config_user_agent"
    ),
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...RUN_FLAGS, MAIN, "--home", home, ...args],
    env,
    clearEnv: true,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const out = await child.output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

function home(config = CONFIG_TEMPLATE): TempDir {
  const dir = tempDir("ledger_home_");
  Deno.writeTextFileSync(`${dir.path}/agent.toml`, config);
  return dir;
}

function seed(dir: string): void {
  const { brain, fast } = SHIPPED_MODELS["vendor-a"];
  const ledger = Ledger.open(`${dir}/data/spend.sqlite3`);
  const row = (role: string, model: string, usd: number, estimated: boolean) => ({
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
    estimated,
  });
  ledger.recordMany([row("brain", brain, 2, false), row("fast", fast, 0.5, true)]);
  ledger.close();
}

function chattr(flag: "+i" | "-i", paths: string[]): boolean {
  try {
    return new Deno.Command("chattr", { args: [flag, ...paths], stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

Deno.test("agent spend --by day --forecast adds the forecast; estimated calls are shown", async () => {
  using tmp = home();
  seed(tmp.path);
  const run = await agent(tmp.path, ["spend", "--by", "day", "--forecast"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^Forecast: /m);
  assert.match(run.stdout, /1 estimated$/m);
  const json = JSON.parse(
    (await agent(tmp.path, ["spend", "--by", "day", "--forecast", "--json"])).stdout,
  );
  assert.equal(json.forecast.brain.cap_usd, 15, "the forecast travels beside the breakdown");
  assert.equal(json.total.estimated_calls, 1);
  const plain = await agent(tmp.path, ["spend"]);
  assert.match(plain.stdout, /^fast .* · 1 call estimated \(no usage came back\)$/m);
  const report = JSON.parse((await agent(tmp.path, ["spend", "--json"])).stdout);
  assert.equal(report.fast.estimated_calls, 1);
  assert.equal(report.brain.estimated_calls, 0);
  const tr = await agent(tmp.path, ["--lang", "tr", "spend"]);
  assert.match(tr.stdout, /· 1 çağrı tahmini \(kullanım bilgisi gelmedi\)$/m);
});

Deno.test({
  name:
    "spend and doctor work on a home that is readable but not writable; chat says why it cannot",
  ignore: Deno.build.os !== "linux",
  async fn() {
    using tmp = home(
      CONFIG_TEMPLATE.replace(/provider = "vendor-a"/g, 'provider = "fake"'),
    );
    seed(tmp.path);
    const frozen = [
      tmp.path,
      `${tmp.path}/agent.toml`,
      `${tmp.path}/data`,
      `${tmp.path}/data/spend.sqlite3`,
    ];
    if (!chattr("+i", frozen)) {
      console.log("read-only home: chattr is not available here; skipped");
      return;
    }
    try {
      assert.throws(() => Deno.writeTextFileSync(`${tmp.path}/data/x`, ""));
      const spend = await agent(tmp.path, ["spend"]);
      assert.equal(spend.code, 0, spend.stderr);
      assert.match(spend.stdout, /^brain fake \$2\.00 of \$15\.00 this month/m);
      const doctor = await agent(tmp.path, ["doctor"]);
      assert.doesNotMatch(doctor.stdout + doctor.stderr, /readonly database/);
      assert.match(doctor.stdout, /^ok budget: brain \$2\.00 of \$15\.00/m);
      // Chat stores its sessions in the data folder: one sentence, before anything opens.
      const chat = await agent(tmp.path, ["chat"], "hello\n");
      assert.equal(chat.code, 1);
      assert.equal(chat.stdout, "");
      assert.equal(
        chat.stderr.trim(),
        `Cannot start agent chat: ${tmp.path}/data cannot be written (a read-only home), and agent chat keeps its sessions there; make it writable or run it as the home's owner. \`agent spend\` and \`agent doctor\` only read and work here.`,
      );
    } finally {
      chattr("-i", frozen);
    }
  },
});
