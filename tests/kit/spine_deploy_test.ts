/**
 * `agent net spine deploy DIR` against a stand-in package runner first on PATH: the
 * steps in order, the token on standard input only, nothing secret printed, `.env`
 * written 0600, and each failure one sentence naming its step.
 */
import assert from "node:assert/strict";
import { readEnvFileSync } from "@agent/hub/base";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { FAKE_EMAIL, FAKE_URL, fakeRunner, type FakeRunnerBehaviour } from "./_fake_runner.ts";
import { initSpineProject } from "@agent/kit/spine";

interface Setup {
  home: string;
  dir: string;
  runner: Awaited<ReturnType<typeof fakeRunner>>;
}

async function setup(): Promise<Setup> {
  const root = await tempHome();
  const home = `${root}/home`;
  const dir = `${root}/spine`;
  // The project `agent net spine init DIR` writes (spine_init_test.ts runs that command).
  await initSpineProject(dir, {});
  return { home, dir, runner: await fakeRunner(root) };
}

function deploy(s: Setup, behaviour: FakeRunnerBehaviour = {}, extra: string[] = []) {
  return agent(["--home", s.home, "net", "spine", "deploy", s.dir, ...extra], {
    env: s.runner.env(behaviour),
  });
}

/** The hub's `.env` as the agent reads it. */
function envOf(home: string): Record<string, string> {
  return readEnvFileSync(`${home}/.env`);
}

Deno.test("spine deploy runs the four steps in order and writes both variables to .env 0600", async () => {
  const s = await setup();
  try {
    const r = await deploy(s);
    assert.equal(r.code, 0, r.stderr);
    const calls = await s.runner.calls();
    assert.deepEqual(calls, [
      "npx --yes wrangler@4.86.0 whoami --json",
      "npm install --no-audit --no-fund",
      "npx wrangler deploy",
      "npx wrangler secret put HUB_TOKEN",
    ]);
    const env = envOf(s.home);
    assert.equal(env.AGENT_SPINE_URL, FAKE_URL);
    const token = env.AGENT_SPINE_TOKEN ?? "";
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await Deno.stat(`${s.home}/.env`)).mode! & 0o777, 0o600);
    // The token went in on standard input, and nowhere else.
    assert.equal(await s.runner.stdin(), `secret put HUB_TOKEN:${token}\n`);
    for (const text of [calls.join("\n"), r.stdout, r.stderr]) {
      assert.ok(!text.includes(token), text);
      assert.ok(!text.includes(FAKE_EMAIL), text);
    }
    // The echo of the secret is shown masked; each step has its progress line.
    assert.match(r.stdout, /received \*\*\*/);
    const steps = r.stdout.split("\n").filter((l) => /^\[\d\/4\]/.test(l));
    assert.deepEqual(steps.map((l) => l.slice(0, 5)), [
      "[1/4]",
      "[2/4]",
      "[2/4]",
      "[3/4]",
      "[4/4]",
    ]);
    assert.match(r.stdout, /^ {6}Uploaded agent-spine/m);
    assert.match(r.stdout, new RegExp(`deployed at ${FAKE_URL.replaceAll(".", "\\.")}`));
    assert.match(r.stdout, /agent net init\n.*agent net publish/s);
  } finally {
    await cleanup();
  }
});

Deno.test("spine deploy keeps an existing token and uses https://<address> with --address", async () => {
  const s = await setup();
  try {
    await Deno.mkdir(s.home, { recursive: true });
    await Deno.writeTextFile(`${s.home}/.env`, "# mine\nAGENT_SPINE_TOKEN=kept-token-123\n", {
      mode: 0o600,
    });
    const r = await deploy(s, {}, ["--address", "spine.example.com"]);
    assert.equal(r.code, 0, r.stderr);
    const env = envOf(s.home);
    assert.equal(env.AGENT_SPINE_TOKEN, "kept-token-123");
    assert.equal(env.AGENT_SPINE_URL, "https://spine.example.com");
    assert.match(await Deno.readTextFile(`${s.home}/.env`), /^# mine$/m);
    assert.equal(await s.runner.stdin(), "secret put HUB_TOKEN:kept-token-123\n");
    assert.ok(!r.stdout.includes("kept-token-123"));
    assert.match(r.stdout, /kept the AGENT_SPINE_TOKEN/);
  } finally {
    await cleanup();
  }
});

Deno.test("spine deploy, logged out: the login instruction, exit 1, nothing else run or written", async () => {
  const s = await setup();
  try {
    const r = await deploy(s, { loggedIn: false });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      "Step 1 (login) failed: wrangler is not logged in; run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then deploy again.",
    );
    assert.deepEqual(await s.runner.calls(), ["npx --yes wrangler@4.86.0 whoami --json"]);
    assert.deepEqual(envOf(s.home), {});
    assert.ok(!(r.stdout + r.stderr).includes(FAKE_EMAIL));
  } finally {
    await cleanup();
  }
});

Deno.test("spine deploy without a package runner on PATH says to install Node.js", async () => {
  const s = await setup();
  try {
    await Deno.remove(`${s.runner.bin}/npx`);
    const r = await deploy(s);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^Step 1 \(login\) failed: `npx` was not found; install Node\.js/);
  } finally {
    await cleanup();
  }
});

const FAILURES = [
  { fail: "install", n: 2, step: "npm install", calls: 2, token: false },
  { fail: "deploy", n: 2, step: "wrangler deploy", calls: 3, token: false },
  { fail: "secret", n: 3, step: "secret HUB_TOKEN", calls: 4, token: true },
] as const;

for (const { fail, n, step, calls, token } of FAILURES) {
  Deno.test(`spine deploy, ${step} failing: one sentence naming step ${n}, exit 1, .env consistent`, async () => {
    const s = await setup();
    try {
      const r = await deploy(s, { fail });
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr.trim().split("\n").at(-1),
        `Step ${n} (${step}) failed (exit 1); the output above says why.`,
      );
      assert.equal((await s.runner.calls()).length, calls);
      const env = envOf(s.home);
      // Never a URL without its token; a token written before `secret put` is put again
      // by the next deploy.
      assert.equal(env.AGENT_SPINE_URL, undefined);
      assert.equal(env.AGENT_SPINE_TOKEN !== undefined, token);
      if (token) {
        assert.ok(!(r.stdout + r.stderr).includes(env.AGENT_SPINE_TOKEN!));
        const again = await deploy(s);
        assert.equal(again.code, 0, again.stderr);
        assert.equal((envOf(s.home)).AGENT_SPINE_TOKEN, env.AGENT_SPINE_TOKEN);
      }
    } finally {
      await cleanup();
    }
  });
}

Deno.test("spine deploy whose deploy names no workers.dev URL asks for --address", async () => {
  const s = await setup();
  try {
    const r = await deploy(s, { noUrl: true });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^Step 4 \(url\) failed: the deploy named no workers\.dev URL/);
    assert.equal((envOf(s.home)).AGENT_SPINE_URL, undefined);
  } finally {
    await cleanup();
  }
});

Deno.test("spine deploy refuses a folder that is not a spine project, and a bad --address", async () => {
  const s = await setup();
  try {
    const empty = await tempHome();
    const r = await agent(["--home", s.home, "net", "spine", "deploy", empty], {
      env: s.runner.env(),
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is not a spine project/);
    const bad = await deploy(s, {}, ["--address", "Not_A_Host"]);
    assert.equal(bad.code, 2);
    assert.deepEqual(await s.runner.calls(), []);
  } finally {
    await cleanup();
  }
});
