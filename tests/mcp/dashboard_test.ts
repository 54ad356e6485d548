/**
 * The Settings page's MCP routes (the dashboard's part, its route table called as the
 * dashboard calls it, the session checked before):
 * the servers with their pins and tools, add (or the sentence why not), the changes of a
 * server, pinning exactly the list shown (409 when it moved), remove.
 */
import assert from "node:assert/strict";
import { dashboardMcp, setupHome } from "@agent/hub";
import { HttpError } from "@agent/net";
import { tempDir } from "../_temp_dir.ts";
import { baseEnv, fixture, homePaths } from "./_servers.ts";

Deno.test("dashboard MCP routes: list, add, changes, pin what was shown, remove", async () => {
  await using dir = await tempDir();
  const paths = homePaths(dir.path);
  await setupHome(paths, { provider: "fake", language: "en", env: {} });
  const part = dashboardMcp({ paths, env: baseEnv(), lang: "en" });
  const call = async (name: string, body?: unknown) => {
    const request = new Request(`http://127.0.0.1/dashboard/api/${name}`, {
      method: body === undefined ? "GET" : "POST",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const response = await part.handle(request, { id: "s", csrf: "c", expiresAt: Infinity }, {
      path: `/${name}`,
    });
    // deno-lint-ignore no-explicit-any
    return await response!.json() as any;
  };
  assert.deepEqual(await call("mcp"), { servers: [] });
  const drift = fixture("drift", `${dir.path}/count`);
  const added = await call("mcp/add", { name: "drift", command: drift.command, args: drift.args });
  assert.deepEqual(added, {
    saved:
      "Added the MCP server drift and pinned its tools (1). The hub uses it from its next start.",
    tools: 1,
  });
  const [server] = (await call("mcp")).servers;
  assert.equal(server.state, "pinned");
  assert.equal(server.tools[0].model_name, "drift__echo");
  assert.equal(server.tools[0].tier, 2);
  assert.ok(server.tools[0].tokens > 0);

  const changes = await call("mcp/changes", { name: "drift" });
  assert.equal(changes.changes[0].kind, "changed");
  // The list moves again at every start: pinning the hash seen is refused.
  const moved = await call("mcp/pin", { name: "drift", hash: changes.hash }).catch((e) => e);
  assert.ok(moved instanceof HttpError && moved.status === 409, String(moved));
  await assert.rejects(
    call("mcp/add", { name: "Bad", command: "x" }),
    (e: unknown) =>
      e instanceof HttpError && e.status === 400 &&
      /'Bad' is not a server name/.test(String(e.detail)),
  );
  assert.deepEqual(await call("mcp/remove", { name: "drift" }), {
    saved: "Removed the MCP server drift. The hub stops using it at its next start.",
  });
  assert.deepEqual(await call("mcp"), { servers: [] });
});
