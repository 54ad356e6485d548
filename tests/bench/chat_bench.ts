/**
 * Chat benchmark, in process:
 * - a whole turn through `buildAgent` with the `fake` provider (system prompt with the
 *   budget line, history read, call chain, ledger row, session writes) while the
 *   session grows to 200 turns; goal: p99 under 50 ms;
 * - the first text of a `vendor-a` answer from a loopback server speaking the
 *   Messages API (SSE), through the call chain; goal: p50 under 20 ms;
 * - failover when the local server refuses the connection; goal: p50 under 50 ms
 *   (the spec allows 3 to 6 s for an absent host, a refusal is immediate).
 *
 * Run: `deno run -A tests/bench/chat_bench.ts`. Prints `<metric>: <value>` lines.
 *
 * @module
 */
import { buildAgent, ModelRouter } from "@agent/hub";
import { parseConfig } from "@agent/hub";
import { Logger } from "@agent/hub/base";
import { Ledger } from "@agent/hub/money";
import { resolvePaths } from "@agent/hub/base";
import { startVendorServer } from "../_vendor_server.ts";

const TURNS = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function print(metric: string, value: string): void {
  console.log(`${metric}: ${value}`);
}

const home = Deno.makeTempDirSync({ prefix: "agent-chat-bench-" });
const paths = resolvePaths({ home, env: {} });
Deno.mkdirSync(paths.personaDir, { recursive: true });
Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "You are a benchmark agent.\n");
const ledger = Ledger.open(paths.ledgerFile);
const logger = new Logger({ file: paths.logFile, stderr: "off" });
const server = startVendorServer({ reply: "Hello from the loopback vendor." });
const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const closedPort = (closed.addr as Deno.NetAddr).port;
closed.close();

try {
  const config = parseConfig(
    `[models.roles.brain]
provider = "fake"
model_id = "fake-brain"
[models.roles.brain.budget]
usd = 15
period = "month"
[models.roles.cloud]
provider = "vendor-a"
model_id = "claude-bench"
[models.roles.cloud.params]
base_url = "${server.url}/v1"
[models.roles.cloud.budget]
usd = 15
period = "month"
[models.roles.local]
provider = "local-runtime"
model_id = "llama3.2"
failover = "brain"
[models.roles.local.params]
base_url = "http://127.0.0.1:${closedPort}"
`,
    "agent.toml",
  );
  const agent = buildAgent({
    config,
    env: {},
    paths,
    channel: "chat",
    role: "brain",
    tools: [],
    persona: { personaFile: `${paths.personaDir}/persona.md` },
    ledger,
    logger,
  });
  const turns: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = performance.now();
    await agent.turn("bench", `message ${i}`);
    turns.push(performance.now() - t0);
  }
  turns.sort((a, b) => a - b);
  print("fake_turn_p50_ms", percentile(turns, 0.5).toFixed(2));
  print("fake_turn_p99_ms", percentile(turns, 0.99).toFixed(2));
  print("fake_turn_goal", "p99 < 50 ms with 200 turns of history");

  const router = new ModelRouter({ config, env: { VENDOR_A_API_KEY: "k" }, ledger, logger });
  const firsts: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    for await (
      const e of router.stream("cloud", { messages: [{ role: "user", content: "Hi" }] }, {
        channel: "cli",
      })
    ) {
      if (e.type === "text") {
        firsts.push(performance.now() - t0);
        break;
      }
    }
  }
  firsts.sort((a, b) => a - b);
  print("vendor_a_first_text_p50_ms", percentile(firsts, 0.5).toFixed(2));
  print("vendor_a_first_text_goal", "p50 < 20 ms against a loopback server");

  const failovers: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await router.generate("local", { messages: [{ role: "user", content: "Hi" }] }, {
      channel: "cli",
    });
    failovers.push(performance.now() - t0);
  }
  failovers.sort((a, b) => a - b);
  print("refused_failover_p50_ms", percentile(failovers, 0.5).toFixed(2));
  print("refused_failover_goal", "p50 < 50 ms");
} finally {
  await server.close();
  ledger.close();
  Deno.removeSync(home, { recursive: true });
}
