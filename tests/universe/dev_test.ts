/**
 * `deno task universe:dev` keeps its state across restarts; `deno task universe:deploy`
 * (the CLI's `net universe deploy`, from a stand-in package runner here) says in one
 * sentence that wrangler is not logged in (and prints no account e-mail).
 */
import assert from "node:assert/strict";
import { type RunningUniverse, startAgent } from "./_harness.ts";
import { FAKE_EMAIL, fakeRunner } from "../kit/_fake_runner.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

function dev(port: number, dir: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "universe:dev", "--port", String(port)],
    cwd: ROOT,
    env: { UNIVERSE_STATE_DIR: dir, ALLOW_INSECURE_PEERS: "1", UNIVERSE: "", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function ready(url: string): Promise<void> {
  await until("universe:dev to start", async () => {
    const res = await fetch(`${url}/api/universe`);
    await res.body?.cancel();
    return res.ok;
  }, { intervalMs: 200 });
}

Deno.test({
  name: "universe:dev serves on the port asked and keeps the directory across a restart",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "universe-dev-" });
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const universe = { url, host: `127.0.0.1:${port}` } as RunningUniverse;
    const a = await startAgent("Kept");
    try {
      let child = dev(port, dir);
      await ready(url);
      assert.equal((await a.post(universe, {})).status, 200);
      child.kill("SIGTERM");
      const out = new TextDecoder().decode((await child.output()).stdout);
      assert.match(out, new RegExp(`Universe listening on http://127\\.0\\.0\\.1:${port}`));
      child = dev(port, dir);
      await ready(url);
      // The directory kept the agent (the stored snapshot follows at the alarm's next build).
      const kept = await fetch(`${url}/api/taus/${a.address}`);
      assert.equal((await kept.json() as { name: string }).name, "Kept");
      child.kill("SIGTERM");
      await child.output();
    } finally {
      await a.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("universe:deploy without a wrangler session: one sentence, exit 1", async () => {
  const root = await Deno.makeTempDir({ prefix: "universe-deploy-" });
  // The task writes the project into the checkout's .universe-build/: one left behind by
  // this test would hold an older kit at the next run, so it goes again afterwards.
  const build = `${ROOT}.universe-build`;
  const hadBuild = await Deno.stat(build).then(() => true, () => false);
  try {
    const runner = await fakeRunner(root);
    const deno = Deno.execPath().replace(/\/[^/]*$/, "");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "universe:deploy"],
      cwd: ROOT,
      env: { ...runner.env({ loggedIn: false }), PATH: `${runner.bin}:${deno}`, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 1);
    assert.equal(
      new TextDecoder().decode(out.stderr).trim().split("\n").at(-1),
      "wrangler is not logged in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then deploy again.",
    );
    assert.ok(!new TextDecoder().decode(out.stdout).includes(FAKE_EMAIL));
  } finally {
    await Deno.remove(root, { recursive: true });
    if (!hadBuild) await Deno.remove(build, { recursive: true }).catch(() => {});
  }
});
