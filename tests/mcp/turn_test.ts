/**
 * MCP tools in a real turn (the fake provider scripting the calls): with 100 tools
 * configured, a "hello" turn sends at most 10% of `context_tokens` in definitions (the
 * ledger row says how many), the model finds a held-back tool with `find_tools` and
 * calls it at the next step; a turn whose server died goes on with one sentence.
 */
import assert from "node:assert/strict";
import { McpServers, type ToolContext } from "@agent/hub";
import { PinStore } from "@agent/hub/mcp";
import { config } from "../_models.ts";
import { tempDir } from "../_temp_dir.ts";
import { baseEnv, fixture, homePaths } from "./_servers.ts";
import { CONTEXT_TOKENS, hundredTools } from "./_hundred_tools.ts";

Deno.test("100 MCP tools: a hello turn sends at most 10% of context_tokens in definitions; find_tools brings one in", async () => {
  await using dir = await tempDir();
  await using s = await hundredTools(dir.path, [
    "Hello!",
    '/tool find_tools {"query":"number 42"}',
    '/tool many__tool_042 {"query":"the weather"}',
    "It is sunny.",
  ]);
  assert.equal(s.mcp.tools().length, 100);
  const hello = await s.agent.turn("s1", "hello");
  assert.equal(hello.text, "Hello!");
  const [row] = s.ledger.rowsSince(0);
  assert.ok(
    row!.tool_tokens! > 0 && row!.tool_tokens! <= CONTEXT_TOKENS * 0.1,
    `${row!.tool_tokens}`,
  );
  // All 100 definitions would not fit.
  const all = s.mcp.tools().reduce(
    (n, t) => n + JSON.stringify(t.jsonSchema).length + t.description.length,
    0,
  );
  assert.ok(all / 4 > CONTEXT_TOKENS * 0.1);

  const results: [string, unknown][] = [];
  const found = await s.agent.turn("s1", "weather?", {
    onToolResult: (name, output) => results.push([name, output]),
  });
  assert.equal(found.text, "It is sunny.");
  assert.equal(results[0]![0], "find_tools");
  assert.equal((results[0]![1] as { found: { name: string }[] }).found[0]!.name, "many__tool_042");
  assert.equal(results[1]![0], "many__tool_042");
  assert.equal((results[1]![1] as { text: string }).text, "tool_042 looked up the weather");
  const rows = s.ledger.rowsSince(0);
  // The step after find_tools carried the found definition too, still under the share.
  assert.ok(rows[2]!.tool_tokens! > rows[1]!.tool_tokens!);
  assert.ok(rows.every((r) => r.tool_tokens! <= CONTEXT_TOKENS * 0.1));
});

Deno.test("an MCP server that dies mid-call: the call ends in one sentence naming it, the owner told in their language", async () => {
  await using dir = await tempDir();
  const paths = homePaths(dir.path);
  const cfg = config("");
  cfg.mcp.servers.crashes = { ...fixture("crash"), tiers: { echo: 1 } };
  const first = new McpServers({ config: cfg, env: baseEnv(), paths, lang: "en" });
  await first.start();
  await new PinStore(paths.dataDir).pin("crashes", first.statuses()[0]!.listed);
  await first.close();
  const told: string[] = [];
  const mcp = new McpServers({
    config: cfg,
    env: baseEnv(),
    paths,
    lang: "tr",
    notify: (s) => told.push(s),
  });
  try {
    await mcp.start();
    const echo = mcp.tools().find((t) => t.name === "crashes__echo")!;
    const context: ToolContext = { paths, env: {} };
    await assert.rejects(echo.execute({ text: "x" }, context), {
      message: "The MCP server crashes stopped during the call to echo.",
    });
    assert.deepEqual(told, ["MCP sunucusu crashes, echo çağrısı sırasında durdu."]);
  } finally {
    await mcp.close();
  }
});
