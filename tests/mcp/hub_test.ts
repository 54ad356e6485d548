/**
 * The hub with MCP servers: a pinned server's tools reach the hub (and `/status`'s `mcp`
 * block), a server that cannot start is a `tool.notice` owner event with its sentence
 * and a `failed` state, and closing the hub stops the servers.
 */
import assert from "node:assert/strict";
import { Logger, McpServers, setupHome, startHub } from "@agent/hub";
import { PinStore } from "@agent/hub/mcp";
import { loadConfig } from "@agent/hub/config";
import { tempDir } from "../_temp_dir.ts";
import { baseEnv, fixture, homePaths, server } from "./_servers.ts";

Deno.test("the hub starts its MCP servers: tools in, a failed one told once as a tool.notice", async () => {
  await using dir = await tempDir();
  const paths = homePaths(dir.path);
  await setupHome(paths, { provider: "fake", language: "en", env: {} });
  const config = await loadConfig(paths);
  config.mcp.servers.files = { ...fixture("ok"), tiers: { echo: 1 } };
  config.mcp.servers.gone = server({ command: "/no/such/mcp-server" });
  // The owner pinned `files` (as `agent mcp add` does).
  const first = new McpServers({ config, env: baseEnv(), paths, lang: "en" });
  await first.start();
  await new PinStore(paths.dataDir).pin("files", first.statuses()[0]!.listed);
  await first.close();

  const hub = await startHub({
    config,
    env: baseEnv(),
    paths,
    lang: "en",
    logger: new Logger({ file: paths.logFile, stderr: "off" }),
    services: [],
  });
  try {
    const mcp = hub.context.mcp!;
    assert.deepEqual(mcp.tools().map((t) => [t.name, t.tier]), [
      ["files__echo", 1],
      ["files__environment", 2],
      ["files__read", 2],
    ]);
    assert.deepEqual(hub.blocks().mcp, {
      servers: [
        { name: "files", state: "pinned", tools: 3 },
        {
          name: "gone",
          state: "failed",
          tools: 0,
          sentence:
            "The MCP server gone did not start: the program /no/such/mcp-server was not found.",
        },
      ],
    });
    let notices: { type: string; server: string; text: string }[] = [];
    for (let i = 0; i < 50 && notices.length === 0; i++) {
      const lines = await Deno.readTextFile(`${paths.netDir}/events.jsonl`).catch(() => "");
      notices = lines.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
        .filter((e) => e.type === "tool.notice");
      if (notices.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.server, "gone");
    assert.match(notices[0]!.text, /^The MCP server gone did not start/);
  } finally {
    await hub.close();
  }
});
