/**
 * `agent dashboard --no-open` as a person runs it: with this home's hub running it
 * prints a sign-in address whose code works once; with no hub it says so, starts one
 * in the background and still prints the address; another home's hub on the port is
 * refused with one sentence; `--cloud` without the spine in `.env` is a usage error (exit 2),
 * in the sentence `agent jobs --cloud` uses.
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "../cli/_run.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { freePort } from "../_port.ts";
import { initHome } from "../_init_home.ts";

async function home(port: number): Promise<string> {
  const dir = await initHome();
  const toml = await Deno.readTextFile(`${dir}/agent.toml`);
  await Deno.writeTextFile(`${dir}/agent.toml`, toml.replace(/^port = \d+$/m, `port = ${port}`));
  return dir;
}

/** Trades the code in `url` as the page does; the answer's status. */
async function login(url: string): Promise<number> {
  const { origin, hash } = new URL(url);
  const res = await fetch(`${origin}/dashboard/api/login`, {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify({ code: hash.slice("#code=".length) }),
  });
  await res.body?.cancel();
  return res.status;
}

const URL_LINE = /^http:\/\/127\.0\.0\.1:(\d+)\/dashboard\/#code=[A-Za-z0-9_-]{43}$/m;

Deno.test({
  name: "agent dashboard --no-open: prints a one-time sign-in address for this home's hub",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    const [a, b] = [await home(port), await home(port)];
    const hub = spawnHubProcess(a);
    try {
      await untilHub(port);
      const run = await agent(["--home", a, "dashboard", "--no-open"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, "");
      const url = URL_LINE.exec(run.stdout)?.[0];
      assert.ok(url, run.stdout);
      assert.match(run.stdout, /^Open this address in a browser on this machine/);
      assert.equal(await login(url), 200);
      assert.equal(await login(url), 401, "the code works once");
      // Another home on the same port: one sentence, exit 1.
      const other = await agent(["--home", b, "dashboard", "--no-open"]);
      assert.equal(other.code, 1);
      assert.equal(other.stdout, "");
      assert.match(
        other.stderr,
        /^The hub on 127\.0\.0\.1:\d+ serves another home \(.*\); give this home another \[hub\] port\.\n$/,
      );
    } finally {
      hub.kill("SIGTERM");
      await hub.status;
      await cleanup();
    }
  },
});

Deno.test({
  name: "agent dashboard --no-open: with no hub running it says so and starts one first",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    const dir = await home(port);
    try {
      const run = await agent(["--home", dir, "dashboard", "--no-open"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^No hub runs for this home; starting one in the background/);
      const url = URL_LINE.exec(run.stdout)?.[0];
      assert.ok(url, run.stdout);
      assert.equal(Number(URL_LINE.exec(run.stdout)?.[1]), port);
      assert.equal(await login(url), 200);
    } finally {
      const stop = await agent(["--home", dir, "hub", "stop"]);
      assert.equal(stop.code, 0, stop.stderr);
      await cleanup();
    }
  },
});

Deno.test("agent dashboard --cloud: a missing spine variable is a usage error (exit 2), said as agent jobs --cloud says it", async () => {
  try {
    const dir = await initHome();
    const cases: [Record<string, string>, string][] = [
      [{}, "AGENT_SPINE_URL"],
      [{ AGENT_SPINE_URL: "http://127.0.0.1:9" }, "AGENT_SPINE_TOKEN"],
    ];
    for (const [env, variable] of cases) {
      const sentence = `Cloud mode needs ${variable} in .env or the environment.\n`;
      const dashboard = await agent(["--home", dir, "dashboard", "--cloud", "--no-open"], { env });
      const jobs = await agent(["--home", dir, "jobs", "list", "--cloud"], { env });
      for (const run of [dashboard, jobs]) {
        assert.equal(run.code, 2, run.stderr);
        assert.equal(run.stdout, "");
        assert.equal(run.stderr, sentence);
      }
    }
    const tr = await agent(["--home", dir, "--lang", "tr", "dashboard", "--cloud"]);
    assert.equal(tr.code, 2);
    assert.equal(
      tr.stderr,
      "Bulut kipi için .env dosyasında ya da ortamda AGENT_SPINE_URL gerekli.\n",
    );
  } finally {
    await cleanup();
  }
});
