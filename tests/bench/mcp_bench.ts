/**
 * MCP servers' costs:
 *
 * - `agent mcp add` for server-everything (the CLI starts, the server starts over
 *   stdio, initialises and lists its 13 tools, the table and the pin are written), then
 *   the first `agent mcp list`, as the owner runs them. Goal: add + list under 1 s.
 *   Printed against the goal and against `agent --version` run in the same loop (the
 *   CLI's bare start on this machine at this moment), with the load average, so a
 *   figure taken on a busy machine says so.
 * - The server's own start and first `tools/list`, in process.
 * - With 100 MCP tools configured, what a "hello" turn sends in tool definitions (the
 *   ledger row's `tool_tokens`) against what all 100 would take. Goal: at most 10% of
 *   the role's `context_tokens`.
 *
 * Run: `deno task bench mcp`.
 *
 * @module
 */
import { McpConnection, setupHome } from "@agent/hub";
import { resolvePaths } from "@agent/hub/base";
import { definitionTokens } from "@agent/hub/mcp";
import { AGENT_FLAGS } from "../_agent_flags.ts";
import { baseEnv, everything, homePaths } from "../mcp/_servers.ts";
import { CONTEXT_TOKENS, hundredTools } from "../mcp/_hundred_tools.ts";
import { median } from "./_stats.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "5");
const ROOT = new URL("../../", import.meta.url).pathname;
const GOAL_MS = 1000;

async function agentRun(home: string, args: string[]): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...AGENT_FLAGS, `${ROOT}cli/main.ts`, "--home", home, ...args],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return performance.now() - started;
}

const dir = await Deno.makeTempDir({ prefix: "agent-bench-mcp-" });
try {
  const server = everything();
  const loadBefore = Deno.loadavg()[0]!;
  // The owner's commands, each run in a fresh home, beside the CLI's bare start.
  const version: number[] = [];
  const add: number[] = [];
  const list: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const home = `${dir}/home-${i}`;
    await setupHome(resolvePaths({ env: { AGENT_HOME: home } }), {
      provider: "fake",
      language: "en",
      env: {},
    });
    const a = await agentRun(home, [
      "mcp",
      "add",
      "everything",
      "--",
      server.command!,
      ...server.args,
    ]);
    const l = await agentRun(home, ["mcp", "list"]);
    const v = await agentRun(home, ["--version"]);
    if (i === 0) continue; // the warm-up fills the module cache
    add.push(a);
    list.push(l);
    version.push(v);
  }
  // The server alone: start, initialise, list.
  const paths = homePaths(`${dir}/home-1`);
  const open: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c = await McpConnection.open({ name: "everything", server, env: baseEnv(), paths });
    open.push(c.startMs);
    await c.close({ prompt: true });
  }
  const base = median(version);
  const times = (ms: number) => `${(ms / base).toFixed(1)}x agent --version`;
  const total = median(add) + median(list);
  console.log(`runs: ${RUNS}`);
  console.log(
    `load_average_1m: ${loadBefore.toFixed(2)} before, ${Deno.loadavg()[0]!.toFixed(2)} after`,
  );
  console.log(`agent_version_ms: ${base.toFixed(0)} (the baseline: the CLI's bare start)`);
  console.log(`server_start_and_list_ms: ${median(open).toFixed(0)} (in process)`);
  console.log(`agent_mcp_add_ms: ${median(add).toFixed(0)} (${times(median(add))})`);
  console.log(`agent_mcp_list_ms: ${median(list).toFixed(0)} (${times(median(list))})`);
  console.log(
    `add_plus_list_ms: ${total.toFixed(0)} (${times(total)}; ${
      (total / GOAL_MS).toFixed(2)
    } of the goal: ${total < GOAL_MS ? "met" : "missed"})`,
  );
  console.log(`goal: add_plus_list_ms < ${GOAL_MS}`);

  // 100 tools, a hello turn.
  {
    await using many = await hundredTools(`${dir}/turn`, ["Hello!"]);
    await many.agent.turn("s1", "hello");
    const sent = many.ledger.rowsSince(0)[0]!.tool_tokens ?? 0;
    const all = many.mcp.statuses()[0]!.listed.reduce((n, t) => n + definitionTokens("many", t), 0);
    console.log(`mcp_tools: ${many.mcp.tools().length}`);
    console.log(`all_definitions_tokens: ${all}`);
    console.log(`hello_turn_definition_tokens: ${sent}`);
    console.log(`share_of_context_tokens: ${(sent / CONTEXT_TOKENS * 100).toFixed(1)}%`);
    console.log("goal: share_of_context_tokens <= 10%");
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
