/**
 * `agent doctor` checks the network end to end when `AGENT_SPINE_URL` is set: a spine
 * on workerd, the CLI as a subprocess.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { fileSpines, startSpine } from "../spine/_harness.ts";
import { networkCheck } from "@agent/hub";
import { resolvePaths } from "@agent/hub/base";
import { initHomeAt } from "../_init_home.ts";
import { netInit, netPublished } from "../_net_here.ts";

const TOKEN = "doctor-token-0123456789abcdef";

// The first two tests take turns on one spine: the second only asks it with a wrong
// token, which changes nothing the first reads (the card, the waiting count).
const spines = fileSpines();

async function home(url: string, token = TOKEN): Promise<string> {
  const dir = await tempHome();
  await initHomeAt(dir);
  const env = `AGENT_SPINE_URL=${url}\nAGENT_SPINE_TOKEN=${token}\nAGENT_NET_ALLOW_INSECURE=1\n`;
  await Deno.writeTextFile(`${dir}/.env`, env, { append: true });
  return dir;
}

function lines(stdout: string, ...names: string[]): string[] {
  return stdout.split("\n").filter((l) => names.some((n) => l.includes(` ${n}: `)));
}

Deno.test({
  name: "doctor: spine, card and version all ok after init and publish",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const spine = await spines({ hubToken: TOKEN });
    try {
      const dir = await home(spine.url);
      let r = await agent(["--home", dir, "doctor"]);
      assert.deepEqual(lines(r.stdout, "spine", "card", "spine version"), [
        `ok spine: ${spine.url} answers: address ${spine.address}, mode local, 0 waiting`,
        "warn card: the spine serves no card yet; run `agent net publish`",
        "ok spine version: spine 0.1.0, as this agent's kit",
      ]);
      // Made and published in process (the `net` commands' own tests run them).
      await netPublished(dir, "Doc");
      r = await agent(["--home", dir, "doctor"]);
      assert.deepEqual(lines(r.stdout, "card"), [
        `ok card: the card of ${spine.address} (Doc) carries this agent's keys`,
      ]);

      // Another identity on this machine than the one published.
      await Deno.rename(`${dir}/data/net/identity.json`, `${dir}/data/net/identity.old`);
      await netInit(dir);
      r = await agent(["--home", dir, "doctor"]);
      assert.equal(r.code, 1);
      assert.deepEqual(lines(r.stdout, "card"), [
        "fail card: the published card's sign_key, box_key differ from this agent's identity; run `agent net publish`",
      ]);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "doctor: a wrong token, a spine without HUB_TOKEN and a spine that does not answer fail",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const spine = await spines({ hubToken: TOKEN });
    const bare = await startSpine({ hubToken: undefined });
    try {
      let r = await agent(["--home", await home(spine.url, "wrong-token"), "doctor"]);
      assert.equal(r.code, 1);
      assert.deepEqual(lines(r.stdout, "spine"), [
        `fail spine: ${spine.url} refused AGENT_SPINE_TOKEN (401); the token in .env is not the spine's HUB_TOKEN`,
      ]);
      assert.ok(!r.stdout.includes("wrong-token"));
      r = await agent(["--home", await home(bare.url), "doctor"]);
      assert.deepEqual(lines(r.stdout, "spine"), [
        `fail spine: ${bare.url} has no HUB_TOKEN secret (503); run \`agent net spine deploy DIR\` again`,
      ]);
      const gone = bare.url;
      await bare.stop();
      r = await agent(["--home", await home(gone), "--lang", "tr", "doctor"]);
      assert.match(
        lines(r.stdout, "spine")[0] ?? "",
        new RegExp(`^fail spine: ${gone} yanıt vermiyor: `),
      );
      // No URL, no network lines.
      const plain = await tempHome();
      await initHomeAt(plain);
      r = await agent(["--home", plain, "doctor"]);
      assert.deepEqual(lines(r.stdout, "spine", "card", "spine version"), []);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "networkCheck() warns with the redeploy commands when the spine is older than the kit",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const spine = await startSpine({ hubToken: TOKEN, address: "spine.example.com" });
    try {
      const dir = await tempHome();
      const lines = await networkCheck({
        paths: resolvePaths({ home: dir, env: {} }),
        env: { AGENT_SPINE_URL: spine.url, AGENT_SPINE_TOKEN: TOKEN },
        lang: "en",
        config: undefined,
        configError: undefined,
        now: Date.now(),
        registry: () => Promise.reject(new Error("not needed")),
        spineKitVersion: "0.2.0",
      });
      assert.deepEqual(lines.at(-1), {
        name: "spine version",
        status: "warn",
        detail:
          "spine 0.1.0 is older than this agent's kit 0.2.0; redeploy: `agent net spine init NEW_DIR --address spine.example.com` then `agent net spine deploy NEW_DIR --address spine.example.com` (the Mailbox keeps its state)",
      });
    } finally {
      await spine.stop();
      await cleanup();
    }
  },
});
