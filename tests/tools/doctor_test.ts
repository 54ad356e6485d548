/**
 * `agent doctor`'s tools lines: the shell tool with and without bubblewrap (without,
 * it says so and the tool stays off), the search provider, an MCP server's pin.
 */
import assert from "node:assert/strict";
import { setupHome } from "@agent/hub";
import { resolvePaths } from "@agent/hub/base";
import { agent } from "../cli/_run.ts";
import { tempDir } from "../_temp_dir.ts";

Deno.test("agent doctor says when bubblewrap is missing and the shell stays off; search and MCP lines", async () => {
  await using dir = await tempDir();
  await setupHome(resolvePaths({ env: { AGENT_HOME: dir.path } }), {
    provider: "fake",
    language: "en",
    env: {},
  });
  await Deno.writeTextFile(
    `${dir.path}/agent.toml`,
    '\n[tools.shell]\nenabled = true\n\n[tools.search]\nprovider = "brave"\nbudget = { usd = 5, period = "month", hard = true }\n\n[mcp.servers.files]\ncommand = "mcp-files"\n',
    { append: true },
  );
  await Deno.writeTextFile(`${dir.path}/.env`, "SEARCH_API_KEY=k\n", { mode: 0o600 });
  const lines = (out: string) => out.split("\n").filter((l) => / tools: /.test(l));
  const found = await agent(["--home", dir.path, "doctor"]);
  const bwrap = lines(found.stdout);
  const missing = lines(
    (await agent(["--home", dir.path, "doctor"], { env: { PATH: "/nonexistent" } })).stdout,
  );
  assert.deepEqual(missing, [
    "warn tools: [tools.shell] enabled is true, but bubblewrap (bwrap) is not installed, so the shell tool stays off (apt-get install bubblewrap).",
    "ok tools: web_search: brave, $0.0050 a call, hard cap $5.00 a month.",
    "warn tools: MCP server files: not pinned, so it is off; 'agent mcp pin files' pins it.",
  ]);
  if (bwrap[0]?.startsWith("ok")) {
    assert.equal(
      bwrap[0],
      "ok tools: the shell tool is on, inside bubblewrap (60 s, 64 KB of output a command).",
    );
  }
});
