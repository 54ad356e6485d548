/** `deno task spine:dev` as a subprocess: serves on the port asked, keeps state across restarts. */
import assert from "node:assert/strict";
import { generateIdentity } from "@agent/net";
import { bundledModule, parseDevArgs } from "@agent/kit";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function waitForSpine(url: string, child: Deno.ChildProcess): Promise<void> {
  let exited = false;
  child.status.then(() => exited = true);
  await until("spine:dev to start", async () => {
    if (exited) return true;
    const r = await fetch(url);
    await r.body?.cancel();
    return r.ok;
  }, { timeoutMs: 60_000, intervalMs: 200 });
  if (exited) throw new Error("spine:dev ended before it answered");
}

function startDev(
  port: number,
  dir: string,
  env: Record<string, string> = {},
): Deno.ChildProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "spine:dev", "--port", String(port)],
    cwd: ROOT,
    env: {
      SPINE_STATE_DIR: dir,
      HUB_TOKEN: "dev-token",
      ALLOW_INSECURE_PEERS: "1",
      ADDRESS: "",
      AGENT_MODE: "local",
      NO_COLOR: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  running.add(child);
  return child;
}

// The children not stopped yet: a failing assertion stops them in the test's `finally`.
const running = new Set<Deno.ChildProcess>();

async function stopDev(child: Deno.ChildProcess): Promise<string> {
  running.delete(child);
  child.kill("SIGTERM");
  const out = await child.output();
  return new TextDecoder().decode(out.stdout);
}

Deno.test("parseDevArgs() takes --port N or --port=N and refuses anything else", () => {
  assert.deepEqual(parseDevArgs([]), { port: 8787 });
  assert.deepEqual(parseDevArgs(["--port", "9000"]), { port: 9000 });
  assert.deepEqual(parseDevArgs(["--port=9001"]), { port: 9001 });
  assert.deepEqual(parseDevArgs(["--port", "0"]), { error: "badPort" });
  assert.deepEqual(parseDevArgs(["--port"]), { error: "badPort" });
  assert.deepEqual(parseDevArgs(["--port", "70000"]), { error: "badPort" });
  assert.deepEqual(parseDevArgs(["--verbose"]), { error: "badArg", arg: "--verbose" });
});

// (Here, beside the other pure test of the kit's dev servers: a file of its own in the
// unit layer would cost an isolate and Miniflare's load for a test of a millisecond.)
Deno.test("bundledModule() gives Miniflare the bundle as the module it made of a script", () => {
  // Miniflare names a `script` given with `modules: true` `script-<index>` and appends that
  // sourceURL (its source maps look the Worker up by it): the module given must match.
  assert.deepEqual(bundledModule("export default {};"), {
    modules: [{
      type: "ESModule",
      path: "script-0",
      contents: "export default {};\n//# sourceURL=script-0\n",
    }],
  });
  assert.equal(bundledModule("x", 1).modules[0]!.path, "script-1");
  // A bundle that names itself keeps its own name, as Miniflare leaves it.
  const named = "export default {};\n//# sourceURL=worker.js\n";
  assert.equal(bundledModule(named).modules[0]!.contents, named);
});

Deno.test({
  name: "spine:dev serves the spine on the port asked and keeps its state across a restart",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "spine-dev-" });
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const auth = { authorization: "Bearer dev-token" };
    const me = await generateIdentity();
    try {
      let child = startDev(port, dir);
      await waitForSpine(`${url}/`, child);
      assert.deepEqual(await (await fetch(`${url}/`)).text(), `agent spine 127.0.0.1:${port}`);
      const put = await fetch(`${url}/hub/card`, {
        method: "PUT",
        headers: auth,
        body: JSON.stringify({ name: "Dev", sign_key: me.signKey, box_key: me.boxKey }),
      });
      assert.deepEqual(put.status, 200);
      await put.body?.cancel();
      const out = await stopDev(child);
      assert.ok(out.includes(`http://127.0.0.1:${port}`), out);

      // The same state under other variables: the card survives; ADDRESS, AGENT_MODE,
      // ALLOW_INSECURE_PEERS and HUB_TOKEN are the new ones.
      child = startDev(port, dir, {
        ADDRESS: `localhost:${port}`,
        AGENT_MODE: "cloud",
        ALLOW_INSECURE_PEERS: "0",
        HUB_TOKEN: "other-token",
      });
      await waitForSpine(`${url}/`, child);
      const card = await (await fetch(`${url}/.well-known/agent.json`)).json() as {
        sign_key: string;
        address: string;
        inbox: string;
      };
      assert.deepEqual(card.sign_key, me.signKey);
      assert.deepEqual(card.address, `localhost:${port}`);
      assert.deepEqual(card.inbox, `https://localhost:${port}/net/inbox`);
      assert.deepEqual(await (await fetch(`${url}/`)).text(), `agent spine localhost:${port}`);
      const old = await fetch(`${url}/hub/health`, { headers: auth });
      assert.deepEqual([old.status, await old.json()], [401, { error: "unauthorized" }]);
      const health = await fetch(`${url}/hub/health`, {
        headers: { authorization: "Bearer other-token" },
      });
      assert.deepEqual((await health.json() as { mode: string }).mode, "cloud");
      // Cloud mode binds a local D1 with the migrations applied, and KV for files.
      const cloudAuth = { authorization: "Bearer other-token" };
      const state = await fetch(`${url}/hub/state/net.profile`, {
        method: "PUT",
        headers: cloudAuth,
        body: JSON.stringify({ value: { name: "Dev" } }),
      });
      assert.equal(state.status, 200, await state.text());
      const file = await fetch(`${url}/hub/files/agent.toml`, {
        method: "PUT",
        headers: cloudAuth,
        body: "x = 1\n",
      });
      assert.equal(file.status, 200, await file.text());
      await stopDev(child);

      // Both survive a restart in the same state folder.
      child = startDev(port, dir, { AGENT_MODE: "cloud", HUB_TOKEN: "other-token" });
      await waitForSpine(`${url}/`, child);
      const kept = await fetch(`${url}/hub/state/net.profile`, { headers: cloudAuth });
      assert.deepEqual((await kept.json() as { value: unknown }).value, { name: "Dev" });
      const keptFile = await fetch(`${url}/hub/files/agent.toml`, { headers: cloudAuth });
      assert.equal(await keptFile.text(), "x = 1\n");
      await stopDev(child);
    } finally {
      for (const child of running) await stopDev(child);
      await Deno.remove(dir, { recursive: true });
    }
  },
});
