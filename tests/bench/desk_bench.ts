/**
 * Desk benchmark, in process: what the conversation desk adds to a turn. The same turn
 * with the `fake` provider (system prompt, history, call chain, ledger row, session
 * writes) is run two ways, interleaved so both see the same machine: straight through
 * `Agent.turn` as the channels did before the desk (the baseline), and through a desk
 * conversation with a subscriber rendering every event (the way a channel does).
 * Each way grows its own session to 300 turns. Goal: the desk adds under 2 ms a turn.
 *
 * Run: `deno task bench desk`. Prints `<metric>: <value>` lines.
 *
 * @module
 */
import { buildAgent, Desk, type DeskEvent, parseConfig } from "@agent/hub";
import { Logger, resolvePaths } from "@agent/hub/base";
import { Ledger } from "@agent/hub/money";
import { median, percentile } from "./_stats.ts";

const TURNS = 300;

function print(metric: string, value: string): void {
  console.log(`${metric}: ${value}`);
}

const home = Deno.makeTempDirSync({ prefix: "agent-desk-bench-" });
try {
  const paths = resolvePaths({ home, env: {} });
  Deno.mkdirSync(paths.personaDir, { recursive: true });
  Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "You are a benchmark agent.\n");
  const config = parseConfig(
    `[models.roles.brain]
provider = "fake"
model_id = "fake-brain"
[models.roles.brain.budget]
usd = 15
period = "month"
`,
    "agent.toml",
  );
  const ledger = Ledger.open(paths.ledgerFile);
  const logger = new Logger({ file: paths.logFile, stderr: "off" });
  const agent = buildAgent({
    config,
    env: {},
    paths,
    channel: "chat",
    role: "brain",
    tools: [],
    persona: {
      personaFile: `${paths.personaDir}/persona.md`,
      userFile: `${paths.personaDir}/user.md`,
    },
    ledger,
    logger,
    lang: "en",
  });
  const desk = new Desk({ config, env: {}, paths, lang: "en", logger, ledger, tools: [] });
  const conversation = await desk.open("chat");
  let rendered = "";
  conversation.subscribe((event: DeskEvent) => {
    if (event.type === "TEXT_MESSAGE_CONTENT") rendered += event.delta;
  });

  const direct: number[] = [];
  const viaDesk: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    let at = performance.now();
    let text = "";
    await agent.turn("bench-direct", `message ${i}`, { onText: (chunk) => text += chunk });
    direct.push(performance.now() - at);
    at = performance.now();
    const outcome = await conversation.submit(`message ${i}`);
    viaDesk.push(performance.now() - at);
    if (outcome.kind !== "answered" || text === "") throw new Error(`turn ${i}: ${outcome.kind}`);
  }
  await desk.close();
  ledger.close();
  if (!rendered.includes("Okay.")) throw new Error("the desk's events carried no text");

  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  print("turns each way", String(TURNS));
  print("Agent.turn p50 / p99", `${fmt(median(direct))} / ${fmt(percentile(direct, 99))}`);
  print("desk turn p50 / p99", `${fmt(median(viaDesk))} / ${fmt(percentile(viaDesk, 99))}`);
  const added = median(viaDesk) - median(direct);
  print("desk overhead (p50 difference)", fmt(added));
  // Each desk turn against the direct turn just before it: a loaded machine's slow
  // stretches hit both of a pair, so their differences scatter less than the medians.
  const paired = median(viaDesk.map((ms, i) => ms - direct[i]!));
  print("desk overhead (median of paired differences)", fmt(paired));
  print("ratio desk / Agent.turn (p50)", `${(median(viaDesk) / median(direct)).toFixed(3)}×`);
  print("goal: under 2 ms added", added < 2 ? "met" : "NOT MET");
} finally {
  Deno.removeSync(home, { recursive: true });
}
