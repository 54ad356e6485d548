/**
 * What `agent mcp add` and `agent mcp list` cost at start (issue 37's benchmark: both
 * under 1 s): the modules a `list` loads reach none of the heavy packages (the MCP SDK,
 * zod, the TOML parser, commander), which load only where a server starts or a file is
 * parsed; a server that only listed its tools is stopped at once, not after a grace.
 */
import assert from "node:assert/strict";
import { McpConnection } from "@agent/hub";
import { tempDir } from "../_temp_dir.ts";
import { packageOf, staticGraph } from "../_static_graph.ts";
import { baseEnv, fixture, homePaths } from "./_servers.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("the modules `agent mcp list` loads reach neither the MCP SDK, zod, the TOML parser nor commander", async () => {
  // The plain path of `cli/main.ts`: the entry, the command table, the run's context
  // (paths, .env, the cached configuration), the command and the light MCP door.
  const path = [
    "cli/main.ts",
    "cli/commands/_registry.ts",
    "cli/_setup.ts",
    "cli/commands/mcp.ts",
    "hub/mcp/mod.ts",
  ];
  for (const file of path) {
    const heavy = (await staticGraph(`${ROOT}${file}`)).filter((s) =>
      /^(@modelcontextprotocol\/sdk|zod|smol-toml|commander)$/.test(packageOf(s) ?? "")
    );
    assert.deepEqual(heavy, [], `${file} loads ${heavy.join(", ")}`);
  }
  // The connection starts a stdio server before it loads the SDK or Node's layer.
  const early = (await staticGraph(`${ROOT}hub/mcp/connection.ts`)).filter((s) =>
    !s.startsWith("file:") || packageOf(s) !== undefined
  );
  assert.deepEqual(early, []);
});

Deno.test("McpConnection.close({ prompt }) stops a server that stays after its input closes at once", async () => {
  await using dir = await tempDir();
  const open = () =>
    McpConnection.open({
      name: "linger",
      server: fixture("linger"),
      env: baseEnv(),
      paths: homePaths(dir.path),
    });
  const listed = await open();
  assert.deepEqual(listed.tools.map((t) => t.name), ["echo", "environment", "read"]);
  let started = performance.now();
  await listed.close({ prompt: true });
  const prompt = performance.now() - started;
  // SIGTERM as the input closes; the old way waited its full second, then killed.
  assert.ok(prompt < 700, `${prompt.toFixed(0)} ms`);

  // A server that worked for us keeps its grace to leave on its own.
  const worked = await open();
  assert.equal((await worked.call("echo", { text: "hi" })).isError, undefined);
  started = performance.now();
  await worked.close();
  assert.ok(performance.now() - started >= 1000);
});

Deno.test("McpConnection.open({ signal }) gives up a start when aborted, and the server is stopped", async () => {
  await using dir = await tempDir();
  const stop = new AbortController();
  const started = performance.now();
  const opening = McpConnection.open({
    name: "silent",
    server: fixture("hang-start"), // never answers `initialize`
    env: baseEnv(),
    paths: homePaths(dir.path),
    signal: stop.signal,
  });
  setTimeout(() => stop.abort(), 300);
  await assert.rejects(opening);
  // Its timeout is 20 s: the abort ended it, and the child is gone (close awaited it).
  assert.ok(performance.now() - started < 3000, `${(performance.now() - started).toFixed(0)} ms`);
});
