/**
 * The brain on workerd: its environment, `GET /hub/brain`, the keep-awake cron, and the
 * messenger webhook ending at the spine (secret, storage, hand-over, redelivery).
 */
import assert from "node:assert/strict";
import { messengerWebhookSecret } from "@agent/net";
import { bundleWorker, startMiniflare, stopMiniflare } from "@agent/kit";
import { hub } from "./_fixtures.ts";
import { type RunningSpine } from "./_harness.ts";
import { sharedSpineTest, spineTest, TOKEN } from "./_setup.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";

/** A stand-in brain process: records requests, answers /health and takes updates. */
function fakeBrain(port: number = freePort()) {
  const requests: { method: string; path: string; secret: string | null; body: string }[] = [];
  let status = 200;
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    requests.push({
      method: request.method,
      path,
      secret: request.headers.get("x-telegram-bot-api-secret-token"),
      body: await request.text(),
    });
    if (status !== 200) return Response.json({ error: "busy" }, { status });
    if (path === "/health") return Response.json({ ok: true, version: "9.9.9", hub: null });
    return Response.json({ ok: true });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setStatus(s: number) {
      status = s;
    },
    stop: () => server.shutdown(),
  };
}

function update(id: number) {
  return {
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: 1, type: "private" }, text: `m${id}` },
  };
}

async function postUpdate(spine: RunningSpine, body: unknown, secret?: string) {
  const r = await fetch(`${spine.url}/messenger/webhook`, {
    method: "POST",
    headers: secret === undefined ? {} : { "x-telegram-bot-api-secret-token": secret },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

async function pending(spine: RunningSpine): Promise<number[]> {
  const db = await spine.mf.getD1Database("DB");
  const { results } = await db.prepare(
    "SELECT update_id FROM messenger_updates ORDER BY update_id",
  ).all<{ update_id: number }>();
  return results.map((r: { update_id: number }) => r.update_id);
}

Deno.test("brain: the container's environment is assembled exactly as specified", async () => {
  Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
  const dir = await Deno.makeTempDir({ prefix: "agent-brain-env-" });
  const script = await bundleWorker(
    new URL("./_brain_env_worker.ts", import.meta.url).pathname,
    `${dir}/worker.js`,
  );
  // Both environments are Workers of one workerd (a start each cost ~0.4 CPU-seconds).
  let mf: ReturnType<typeof startMiniflare> | undefined;
  const environments = async (...each: Record<string, string>[]) => {
    mf = startMiniflare({
      cf: false,
      workers: each.map((bindings, i) => ({
        name: `env${i}`,
        routes: [`env${i}.test/*`],
        modules: true,
        script,
        compatibilityDate: "2026-04-20",
        bindings,
      })),
    });
    const answers = [];
    for (let i = 0; i < each.length; i++) {
      answers.push(await (await mf.dispatchFetch(`http://env${i}.test/`)).json());
    }
    return answers;
  };
  try {
    const all = {
      VENDOR_A_API_KEY: "a",
      VENDOR_A_WORKSPACE_ID: "aw",
      VENDOR_D_REGION: "eu-central-1",
      VENDOR_D_ACCESS_KEY_ID: "dk",
      VENDOR_D_SECRET_ACCESS_KEY: "ds",
      VENDOR_D_BEARER_TOKEN: "db",
      VENDOR_B_API_KEY: "b",
      VENDOR_C_API_KEY: "c",
      VENDOR_C_ALT_API_KEY: "c2",
      MESSENGER_BOT_TOKEN: "123:abc",
      MESSENGER_ALLOWED_CHAT_IDS: "1,2",
      AGENT_NET_IDENTITY: "eyJ9",
      AGENT_LANG: "tr",
    };
    const [full, sparse] = await environments(
      {
        ...all,
        SPINE_URL: "https://spine.example/",
        ADDRESS: "me.example",
        HUB_TOKEN: "tok",
        // Not for the container:
        AGENT_MODE: "cloud",
        KEEP_AWAKE: "1",
        ALLOW_INSECURE_PEERS: "1",
        OTHER_SECRET: "x",
      },
      // SPINE_URL empty: https://<ADDRESS>; empty secrets are left out.
      {
        SPINE_URL: "",
        ADDRESS: "me.example",
        HUB_TOKEN: "tok",
        VENDOR_B_API_KEY: "",
        AGENT_LANG: "  ",
      },
    );
    assert.deepEqual(full, {
      AGENT_SPINE_URL: "https://spine.example",
      AGENT_SPINE_TOKEN: "tok",
      ...all,
    });
    assert.deepEqual(sparse, { AGENT_SPINE_URL: "https://me.example", AGENT_SPINE_TOKEN: "tok" });
  } finally {
    if (mf !== undefined) await stopMiniflare(mf);
    await Deno.remove(dir, { recursive: true });
  }
});

sharedSpineTest("brain: without a brain GET /hub/brain is 503 brain_unavailable", {
  mode: "cloud",
}, async (spine) => {
  const r = await hub(spine.url, TOKEN, "/hub/brain");
  assert.deepEqual([r.status, r.body], [503, { error: "brain_unavailable" }]);
});

spineTest("brain: a container that cannot start is 503 brain_unavailable, not a crash", {
  mode: "cloud",
  brainBinding: true,
}, async (spine) => {
  const r = await hub(spine.url, TOKEN, "/hub/brain");
  assert.deepEqual([r.status, r.body], [503, { error: "brain_unavailable" }]);
  assert.ok(spine.logs.some((line) => line.includes("brain_unavailable")), spine.logs.join("\n"));
});

const brain = fakeBrain();
const deadPort = freePort();

// The spine of the tests whose brain answers (KEEP_AWAKE as wrangler.jsonc has it).
const AWAKE = { mode: "cloud", vars: { BRAIN_URL: brain.url, KEEP_AWAKE: "0" } } as const;

sharedSpineTest("brain: GET /hub/brain passes the brain's /health through", {
  ...AWAKE,
}, async (spine) => {
  const r = await hub(spine.url, TOKEN, "/hub/brain");
  assert.deepEqual([r.status, r.body], [200, { ok: true, version: "9.9.9", hub: null }]);
  assert.equal((await hub(spine.url, TOKEN, "/hub/brain", { method: "POST" })).status, 405);
});

sharedSpineTest("brain: a brain that does not answer is 503 brain_unavailable", {
  mode: "cloud",
  vars: { BRAIN_URL: `http://127.0.0.1:${deadPort}` },
}, async (spine) => {
  const r = await hub(spine.url, TOKEN, "/hub/brain");
  assert.deepEqual([r.status, r.body], [503, { error: "brain_unavailable" }]);
});

spineTest("brain: the cron pings /health only with KEEP_AWAKE=1", {
  mode: "cloud",
  vars: { BRAIN_URL: brain.url, KEEP_AWAKE: "1" },
}, async (spine) => {
  brain.requests.length = 0;
  await spine.cron(Date.now());
  assert.deepEqual(brain.requests.map((r) => `${r.method} ${r.path}`), ["GET /health"]);
});

sharedSpineTest("brain: no keep-awake ping without KEEP_AWAKE=1", {
  ...AWAKE,
}, async (spine) => {
  brain.requests.length = 0;
  await spine.cron(Date.now());
  assert.deepEqual(brain.requests, []);
});

spineTest("webhook: local mode is cloud_mode_off, and nothing is stored", {
  relationalStore: true,
}, async (spine) => {
  const r = await postUpdate(spine, update(1), await messengerWebhookSecret(TOKEN));
  assert.deepEqual([r.status, r.body], [404, { error: "cloud_mode_off" }]);
  assert.deepEqual(await pending(spine), []);
});

sharedSpineTest("webhook: Telegram's secret is checked; bad updates are refused", {
  mode: "cloud",
}, async (spine) => {
  const secret = await messengerWebhookSecret(TOKEN);
  for (
    const wrong of [
      undefined,
      "",
      secret.slice(1),
      `${secret}x`,
      await messengerWebhookSecret("other"),
    ]
  ) {
    const r = await postUpdate(spine, update(1), wrong);
    assert.deepEqual([r.status, r.body], [401, { error: "unauthorized" }], String(wrong));
  }
  for (const bad of ["not json", "{}", '{"update_id":"1"}', '{"update_id":-1}', "[]"]) {
    const r = await postUpdate(spine, bad, secret);
    assert.equal(r.status, 400, bad);
  }
  const big = await postUpdate(spine, { update_id: 5, pad: "x".repeat(1024 * 1024) }, secret);
  assert.deepEqual([big.status, big.body], [413, { error: "too_large" }]);
  assert.deepEqual(await pending(spine), []);
  const get = await fetch(`${spine.url}/messenger/webhook`);
  assert.equal(get.status, 405);
  await get.body?.cancel();
});

spineTest("webhook: without HUB_TOKEN it is not_configured", {
  mode: "cloud",
  hubToken: undefined,
}, async (spine) => {
  const r = await postUpdate(spine, update(1), "anything");
  assert.deepEqual([r.status, r.body], [503, { error: "not_configured" }]);
});

sharedSpineTest(
  "webhook: a sleeping brain loses nothing; updates wait and are handed over in order",
  {
    mode: "cloud",
    vars: { BRAIN_URL: `http://127.0.0.1:${deadPort}` },
  },
  async (spine) => {
    const secret = await messengerWebhookSecret(TOKEN);
    for (const id of [12, 10, 11, 10]) {
      const r = await postUpdate(spine, update(id), secret);
      assert.deepEqual([r.status, r.body], [200, { ok: true }]);
    }
    // Telegram's resend of 10 is stored once; nothing reached a brain.
    assert.deepEqual(await pending(spine), [10, 11, 12]);
    // The brain wakes on the dead port; the cron hands the updates over in order.
    const late = fakeBrain(deadPort);
    try {
      late.setStatus(503);
      await spine.cron(Date.now());
      assert.deepEqual(await pending(spine), [10, 11, 12]);
      late.setStatus(200);
      late.requests.length = 0;
      await spine.cron(Date.now());
      assert.deepEqual(await pending(spine), []);
      assert.deepEqual(
        late.requests.map((r) => [r.path, JSON.parse(r.body).update_id, r.secret === secret]),
        [["/messenger/webhook", 10, true], ["/messenger/webhook", 11, true], [
          "/messenger/webhook",
          12,
          true,
        ]],
      );
    } finally {
      await late.stop();
    }
  },
);

sharedSpineTest("webhook: an awake brain gets the update right away", {
  ...AWAKE,
}, async (spine) => {
  brain.requests.length = 0;
  const r = await postUpdate(spine, update(77), await messengerWebhookSecret(TOKEN));
  assert.equal(r.status, 200);
  await until(
    "the spine to drain its pending updates",
    async () => (await pending(spine)).length === 0,
  ).catch(() => {});
  assert.deepEqual(await pending(spine), []);
  assert.deepEqual(brain.requests.map((q) => JSON.parse(q.body).update_id), [77]);
});

Deno.test("brain: the stand-in brain stops", async () => {
  await brain.stop();
});
