/**
 * `agent net spine deploy DIR` on a cloud project, against the stand-in package runner
 * and a local Bot API server: the remote D1 migrations, each secret fed through standard
 * input only (never in argv, never in the output), `SPINE_URL` filled and deployed
 * again, the webhook registered with the spine's URL and the derived secret, and the bot
 * token scrubbed from a refusal. A local-mode project runs none of it.
 */
import assert from "node:assert/strict";
import { readEnvFileSync } from "@agent/hub/base";
import { initSpineProject } from "@agent/kit/spine";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { FAKE_EMAIL, FAKE_URL, fakeRunner, type FakeRunnerBehaviour } from "./_fake_runner.ts";
import { type BotServer, startBotServer } from "../messenger/_bot_server.ts";
import {
  generateIdentity,
  identityToEnv,
  identityToJson,
  messengerWebhookSecret,
} from "@agent/net";

/** The JSONC text as a value (comment lines and trailing commas removed). */
// deno-lint-ignore no-explicit-any
function parseJsonc(text: string): any {
  const bare = text.split("\n").filter((l) => !l.trim().startsWith("//")).join("\n")
    .replace(/,(\s*[}\]])/g, "$1");
  return JSON.parse(bare);
}

const CONFIG = `[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-5-mini"
`;

const SECRETS = {
  VENDOR_B_API_KEY: "sk-vendor-b-secret-value-0001",
  // No role uses vendor-c: this key stays on the machine.
  VENDOR_C_API_KEY: "vendor-c-unused-secret-0002",
  MESSENGER_ALLOWED_CHAT_IDS: "424242,515151",
};

interface Setup {
  home: string;
  dir: string;
  runner: Awaited<ReturnType<typeof fakeRunner>>;
  bot: BotServer;
  identity: string;
}

async function setup(
  project: { cloud: boolean; address?: string } = { cloud: true },
): Promise<Setup> {
  const root = await tempHome();
  const home = `${root}/home`;
  const dir = `${root}/spine`;
  // The project `agent net spine init DIR [--cloud] [--address A]` writes, in this process
  // (spine_init_cloud_test.ts runs that command). The deploy's runner is a stand-in, so
  // the brain's bundle may be one too (no bundling).
  await initSpineProject(dir, {
    ...project,
    ...(project.cloud
      ? { bundle: new TextEncoder().encode("// a stand-in for the brain's bundle\n") }
      : {}),
  });
  await Deno.mkdir(home, { recursive: true });
  await Deno.writeTextFile(`${home}/agent.toml`, CONFIG);
  const bot = startBotServer();
  const env = { ...SECRETS, MESSENGER_BOT_TOKEN: bot.token, MESSENGER_API_ROOT: bot.apiRoot };
  await Deno.writeTextFile(
    `${home}/.env`,
    Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(""),
    { mode: 0o600 },
  );
  const identity = await generateIdentity();
  await Deno.mkdir(`${home}/data/net`, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(
    `${home}/data/net/identity.json`,
    `${JSON.stringify(identityToJson(identity))}\n`,
    { mode: 0o600 },
  );
  return { home, dir, runner: await fakeRunner(root), bot, identity: identityToEnv(identity) };
}

function deploy(s: Setup, behaviour: FakeRunnerBehaviour = {}, lang = "en") {
  return agent(["--home", s.home, "--lang", lang, "net", "spine", "deploy", s.dir], {
    env: s.runner.env(behaviour),
  });
}

/** The hub's `.env` as the agent reads it. */
function envOf(home: string): Record<string, string> {
  return readEnvFileSync(`${home}/.env`);
}

Deno.test("cloud deploy: migrations, every secret through stdin only, SPINE_URL filled, the webhook registered", async () => {
  const s = await setup();
  try {
    const r = await deploy(s);
    assert.equal(r.code, 0, r.stderr);
    const calls = await s.runner.calls();
    assert.deepEqual(calls, [
      "npx --yes wrangler@4.86.0 whoami --json",
      "npm install --no-audit --no-fund",
      "npx wrangler deploy",
      "npx wrangler d1 migrations apply DB --remote",
      "npx wrangler secret put HUB_TOKEN",
      "npx wrangler secret put VENDOR_B_API_KEY",
      "npx wrangler secret put MESSENGER_BOT_TOKEN",
      "npx wrangler secret put MESSENGER_ALLOWED_CHAT_IDS",
      "npx wrangler secret put AGENT_NET_IDENTITY",
      "npx wrangler deploy",
    ]);
    const env = envOf(s.home);
    const token = env.AGENT_SPINE_TOKEN!;
    assert.equal(env.AGENT_SPINE_URL, FAKE_URL);
    const values = {
      HUB_TOKEN: token,
      VENDOR_B_API_KEY: SECRETS.VENDOR_B_API_KEY,
      MESSENGER_BOT_TOKEN: s.bot.token,
      MESSENGER_ALLOWED_CHAT_IDS: SECRETS.MESSENGER_ALLOWED_CHAT_IDS,
      AGENT_NET_IDENTITY: s.identity,
    };
    // Each value came in on standard input, in order, and nowhere else.
    assert.equal(
      await s.runner.stdin(),
      Object.entries(values).map(([name, value]) => `secret put ${name}:${value}\n`).join(""),
    );
    for (const text of [calls.join("\n"), r.stdout, r.stderr]) {
      for (const value of [...Object.values(values), FAKE_EMAIL, SECRETS.VENDOR_C_API_KEY]) {
        assert.ok(!text.includes(value), `${value} shown in:\n${text}`);
      }
    }
    assert.match(r.stdout, /received \*\*\*/);
    const steps = r.stdout.split("\n").filter((l) => /^\[\d\/4\]/.test(l));
    assert.deepEqual(steps, [
      "[1/4] Checking the wrangler login…",
      "[2/4] Installing wrangler (npm install)…",
      "[2/4] Deploying the spine (wrangler deploy)…",
      "[2/4] Applying the database migrations (wrangler d1 migrations apply DB --remote)…",
      "[3/4] Setting the secret HUB_TOKEN…",
      "[3/4] Setting the cloud secrets from .env and the environment…",
      "[4/4] Writing AGENT_SPINE_URL…",
      "[4/4] Writing SPINE_URL into wrangler.jsonc and deploying again (wrangler deploy)…",
      "[4/4] Registering the messenger webhook (setWebhook)…",
    ]);
    for (const name of Object.keys(values).slice(1)) {
      assert.match(r.stdout, new RegExp(`^ {6}set ${name}$`, "m"));
    }
    // SPINE_URL now holds the deployed URL, comments kept.
    const text = await Deno.readTextFile(`${s.dir}/wrangler.jsonc`);
    assert.equal(parseJsonc(text).vars.SPINE_URL, FAKE_URL);
    assert.match(text, /\/\/ The spine's public URL/);
    assert.match(r.stdout, new RegExp(`SPINE_URL in wrangler\\.jsonc is now ${FAKE_URL}`));
    // The webhook: the spine's route, the secret derived from the hub token, two kinds.
    const hooks = s.bot.callsOf("setWebhook");
    assert.equal(hooks.length, 1);
    assert.equal(hooks[0]!.token, s.bot.token);
    assert.deepEqual(hooks[0]!.body, {
      url: `${FAKE_URL}/messenger/webhook`,
      secret_token: await messengerWebhookSecret(token),
      allowed_updates: ["message", "callback_query"],
    });
    assert.match(r.stdout, /\n {2}agent cloud push\n {2}agent net publish\n$/);
  } finally {
    await s.bot.stop();
    await cleanup();
  }
});

Deno.test("cloud deploy with SPINE_URL set at init deploys once and registers https://<address>; no identity, no AGENT_NET_IDENTITY", async () => {
  const s = await setup({ cloud: true, address: "me.example.com" });
  try {
    // Without an identity nothing joins the network yet: no AGENT_NET_IDENTITY.
    await Deno.remove(`${s.home}/data/net/identity.json`);
    const r = await deploy(s);
    assert.equal(r.code, 0, r.stderr);
    const calls = await s.runner.calls();
    assert.equal(calls.filter((c) => c === "npx wrangler deploy").length, 1);
    const env = envOf(s.home);
    assert.equal(env.AGENT_SPINE_URL, "https://me.example.com");
    assert.equal(
      s.bot.callsOf("setWebhook")[0]?.body.url,
      "https://me.example.com/messenger/webhook",
    );
    assert.ok(!r.stdout.includes("SPINE_URL in wrangler.jsonc"));
    assert.ok(!calls.some((c) => c.includes("AGENT_NET_IDENTITY")));
    assert.match(
      r.stdout,
      new RegExp(`agent net init, then agent net spine deploy ${s.dir} again, to join`),
    );
  } finally {
    await s.bot.stop();
    await cleanup();
  }
});

Deno.test("cloud deploy: a refused webhook is one sentence naming step 4, with the bot token scrubbed", async () => {
  const s = await setup();
  try {
    s.bot.fail("setWebhook", {
      code: 400,
      description: `Bad Request: bad webhook for bot${s.bot.token}`,
    });
    const r = await deploy(s, {}, "tr");
    assert.equal(r.code, 1);
    const last = r.stderr.trim().split("\n").at(-1)!;
    assert.match(last, /^Adım 4 \(mesajlaşma webhook'u\) başarısız: the Bot API answered 400: /);
    assert.ok(last.includes("bot***"), last);
    assert.ok(!(r.stdout + r.stderr).includes(s.bot.token));
    // The spine was deployed and .env written before the webhook.
    assert.equal((envOf(s.home)).AGENT_SPINE_URL, FAKE_URL);
  } finally {
    await s.bot.stop();
    await cleanup();
  }
});

Deno.test("cloud deploy: a failing migration stops at step 2 before any secret", async () => {
  const s = await setup();
  try {
    const r = await deploy(s, { fail: "migrate" });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim().split("\n").at(-1),
      "Step 2 (wrangler d1 migrations apply) failed (exit 1); the output above says why.",
    );
    assert.equal(await s.runner.stdin(), "");
    assert.equal(s.bot.callsOf("setWebhook").length, 0);
  } finally {
    await s.bot.stop();
    await cleanup();
  }
});

Deno.test("local deploy with the same .env: no D1 migration, no extra secret, no webhook", async () => {
  const s = await setup({ cloud: false });
  try {
    const r = await deploy(s);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await s.runner.calls(), [
      "npx --yes wrangler@4.86.0 whoami --json",
      "npm install --no-audit --no-fund",
      "npx wrangler deploy",
      "npx wrangler secret put HUB_TOKEN",
    ]);
    const token = (envOf(s.home)).AGENT_SPINE_TOKEN;
    assert.equal(await s.runner.stdin(), `secret put HUB_TOKEN:${token}\n`);
    assert.equal(s.bot.calls.length, 0);
    assert.ok(!(r.stdout + r.stderr).includes(s.bot.token));
    assert.match(r.stdout, /agent net init\n.*agent net publish\n$/s);
  } finally {
    await s.bot.stop();
    await cleanup();
  }
});

Deno.test("cloud deploy says which role will lack credentials and sets what there is", async () => {
  const s = await setup();
  try {
    await Deno.writeTextFile(
      `${s.home}/agent.toml`,
      `${CONFIG}\n[models.roles.fast]\nprovider = "vendor-a"\nmodel_id = "claude-haiku-4-5"\n`,
    );
    const r = await deploy(s);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^ {6}role fast has no credentials here \(VENDOR_A_API_KEY is not set\): it will fail in the cloud$/m,
    );
    const calls = await s.runner.calls();
    assert.ok(calls.includes("npx wrangler secret put VENDOR_B_API_KEY"));
    assert.ok(!calls.some((c) => c.includes("VENDOR_A")));
  } finally {
    await s.bot.stop();
    await cleanup();
  }
});
