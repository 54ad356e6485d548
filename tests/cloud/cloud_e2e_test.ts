/**
 * Cloud mode end to end without Docker: a cloud spine from the spine's own runtime
 * (workerd), `agent cloud push` from one home, `agent cloud pull` into another, and
 * `agent cloud run` as a process in an empty home standing in for the container.
 *
 * The tests take turns on one cloud spine (`fileSpines()`: a cloud start is ~1
 * CPU-second), each starting from a spine without files (`emptyFiles()`); its brain's
 * port stays unanswered. Only the chat test writes sessions there. `cloud run` gets a
 * spine of its own: its brain answers, and the messenger's session it stores would be in
 * the chat test's listing.
 */
import { until } from "../_poll.ts";
import assert from "node:assert/strict";
import { messengerWebhookSecret } from "@agent/net";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { hub } from "../spine/_fixtures.ts";
import { fileSpines, type RunningSpine, startSpine } from "../spine/_harness.ts";
import { freePort } from "../_port.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { hasPython, playTerminal } from "../_pty.ts";
import { OWNER, textsIn } from "../messenger/_hub.ts";
import {
  cloud,
  CLOUD_TOKEN,
  cloudHome,
  cloudSpine,
  cloudSpineOptions,
  emptyFiles,
  pushHome,
  refuseCloudRun,
  runBrain,
  setEnv,
} from "./_cloud.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };

const spines = fileSpines();
// Nothing listens here: `cloud status` finds the brain unavailable, as on a fresh spine.
const idleBrainPort = freePort();

/** The file's cloud spine, without files. */
async function sharedCloudSpine(): Promise<{ spine: RunningSpine }> {
  const spine = await spines(cloudSpineOptions(idleBrainPort));
  await emptyFiles(spine);
  return { spine };
}

async function spineFiles(url: string): Promise<string[]> {
  const r = await hub(url, CLOUD_TOKEN, "/hub/files");
  return (r.body.files as { name: string }[]).map((f) => f.name);
}

Deno.test({
  name: "cloud push: asks first, skips what is not a sub-agent file, keeps user.md home",
  ...SLOW,
  async fn() {
    const { spine } = await sharedCloudSpine();
    try {
      const home = await cloudHome(spine);
      const noTerminal = await cloud(home, ["push"]);
      assert.equal(noTerminal.code, 2);
      assert.match(noTerminal.stderr, /No terminal to ask on: pass --yes/);
      assert.deepEqual(await spineFiles(spine.url), []);

      const pushed = await cloud(home, ["push", "-y"]);
      assert.equal(pushed.code, 0, pushed.stderr);
      assert.match(pushed.stdout, /Skipped persona\/subs\/drafts\/: a folder\./);
      assert.match(pushed.stdout, /Skipped persona\/subs\/linked\.md: a symbolic link\./);
      assert.match(pushed.stdout, /Skipped persona\/subs\/notes\.txt: not a plain sub-agent/);
      assert.match(pushed.stdout, /persona\/user\.md stays on this machine/);
      assert.match(pushed.stdout, /Pushed 4 file\(s\)\./);
      assert.deepEqual(await spineFiles(spine.url), [
        "agent.toml",
        "persona/persona.md",
        "persona/net.md",
        "persona/subs/writer.md",
      ]);
      const r = await fetch(`${spine.url}/hub/files/persona/persona.md`, {
        headers: { authorization: `Bearer ${CLOUD_TOKEN}` },
      });
      assert.equal(await r.text(), "# Persona\nHelpful and brief.\n");
      assert.ok(!(await spineFiles(spine.url)).includes(".env"));

      const withUser = await cloud(home, ["push", "-y", "--include-user"]);
      assert.equal(withUser.code, 0, withUser.stderr);
      assert.ok((await spineFiles(spine.url)).includes("persona/user.md"));

      // A sub-agent file gone locally is deleted from the spine.
      await Deno.remove(`${home}/persona/subs/writer.md`);
      const gone = await cloud(home, ["push", "-y"]);
      assert.match(gone.stdout, /Deletes from the spine[^\n]*\n {2}persona\/subs\/writer\.md/);
      assert.match(gone.stdout, /deleted 1/);
      assert.ok(!(await spineFiles(spine.url)).includes("persona/subs/writer.md"));
      // Without persona/subs/ nothing is deleted.
      await hub(spine.url, CLOUD_TOKEN, "/hub/files/persona/subs/kept.md", {
        method: "PUT",
        body: "# kept\n",
      });
      await Deno.remove(`${home}/persona/subs`, { recursive: true });
      await pushHome(home);
      assert.ok((await spineFiles(spine.url)).includes("persona/subs/kept.md"));
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "cloud pull: writes missing files, keeps differing ones unless --force, deletes nothing",
  ...SLOW,
  async fn() {
    const { spine } = await sharedCloudSpine();
    try {
      const home = await cloudHome(spine);
      await pushHome(home);
      const other = await tempHome();
      await setEnv(other, { AGENT_SPINE_URL: spine.url, AGENT_SPINE_TOKEN: CLOUD_TOKEN });
      await Deno.mkdir(`${other}/persona`, { recursive: true });
      await Deno.writeTextFile(`${other}/persona/persona.md`, "# Mine\n");
      await Deno.writeTextFile(`${other}/persona/local-only.md`, "stays\n");
      const pulled = await cloud(other, ["pull"]);
      assert.equal(pulled.code, 0, pulled.stderr);
      assert.match(pulled.stdout, /Wrote agent\.toml\./);
      assert.match(pulled.stdout, /Kept your persona\/persona\.md: it differs/);
      assert.equal(await Deno.readTextFile(`${other}/persona/persona.md`), "# Mine\n");
      assert.equal(
        await Deno.readTextFile(`${other}/persona/subs/writer.md`),
        "# Writer\npublic: true\n",
      );
      const again = await cloud(other, ["pull"]);
      assert.match(again.stdout, /agent\.toml is up to date\./);
      const forced = await cloud(other, ["pull", "--force"]);
      assert.match(forced.stdout, /Wrote persona\/persona\.md\./);
      assert.equal(
        await Deno.readTextFile(`${other}/persona/persona.md`),
        "# Persona\nHelpful and brief.\n",
      );
      assert.equal(await Deno.readTextFile(`${other}/persona/local-only.md`), "stays\n");
      await assert.rejects(() => Deno.stat(`${other}/.env.pulled`));
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "cloud run: pulls into an empty home, rewrites two keys, serves /health, answers the messenger through the spine, stops on SIGTERM",
  ...SLOW,
  async fn() {
    const { spine, brainPort } = await cloudSpine();
    const bot = startBotServer();
    let brain: Awaited<ReturnType<typeof runBrain>> | undefined;
    try {
      const home = await cloudHome(spine, { replies: ["Hello from the cloud."] });
      await pushHome(home);
      // The brain knows only the spine (and the container's secrets), not the laptop's home.
      await hub(spine.url, CLOUD_TOKEN, "/hub/files/persona/subs/stale.md", {
        method: "PUT",
        body: "# gone soon\n",
      });
      const empty = await tempHome();
      await Deno.mkdir(`${empty}/persona/subs`, { recursive: true });
      await Deno.writeTextFile(`${empty}/persona/subs/old.md`, "# removed by run\n");
      await hub(spine.url, CLOUD_TOKEN, "/hub/files/persona/subs/stale.md", { method: "DELETE" });
      brain = await runBrain(empty, brainPort, {
        AGENT_SPINE_URL: spine.url,
        AGENT_SPINE_TOKEN: CLOUD_TOKEN,
        MESSENGER_BOT_TOKEN: bot.token,
        MESSENGER_ALLOWED_CHAT_IDS: String(OWNER),
        MESSENGER_API_ROOT: bot.apiRoot,
      });
      console.log(`agent cloud run healthy after ${brain.healthyAfterMs.toFixed(0)} ms`);

      const toml = await Deno.readTextFile(`${empty}/agent.toml`);
      assert.match(toml, /^# my agent, pushed to the cloud$/m);
      assert.match(toml, /\[sessions\]\n(#[^\n]*\n)*backend = "spine"/);
      assert.match(toml, /\[net\][^[]*\nstore = "spine"/);
      const original = await Deno.readTextFile(`${home}/agent.toml`);
      const changed = toml.split("\n").filter((line, i) => line !== original.split("\n")[i]);
      assert.ok(changed.length <= 2, changed.join("\n"));
      await assert.rejects(() => Deno.stat(`${empty}/persona/subs/old.md`));
      assert.equal(
        await Deno.readTextFile(`${empty}/persona/subs/writer.md`),
        "# Writer\npublic: true\n",
      );

      const health = await (await fetch(`http://127.0.0.1:${brainPort}/health`)).json() as {
        ok: boolean;
        version: string;
        hub: unknown;
      };
      assert.equal(health.ok, true);
      assert.match(health.version, /^\d+\.\d+\.\d+/);
      assert.ok(health.hub === null || typeof health.hub === "object");
      // GET /hub/brain passes the brain's /health through.
      const viaSpine = await hub(spine.url, CLOUD_TOKEN, "/hub/brain");
      assert.equal(viaSpine.status, 200);
      assert.equal(viaSpine.body.ok, true);
      assert.equal(typeof viaSpine.body.hub, "object");

      // Telegram posts to the spine; a wrong secret is refused, the right one answered.
      const update = (id: number, text: string) => ({
        update_id: id,
        message: {
          message_id: id,
          date: Math.floor(Date.now() / 1000),
          chat: { id: OWNER, type: "private", first_name: "Owner" },
          from: { id: OWNER, is_bot: false, first_name: "Owner" },
          text,
        },
      });
      const wrong = await fetch(`${spine.url}/messenger/webhook`, {
        method: "POST",
        headers: { "x-telegram-bot-api-secret-token": "nope" },
        body: JSON.stringify(update(1, "sneaky")),
      });
      assert.deepEqual([wrong.status, await wrong.json()], [401, { error: "unauthorized" }]);
      const secret = await messengerWebhookSecret(CLOUD_TOKEN);
      const taken = await fetch(`${spine.url}/messenger/webhook`, {
        method: "POST",
        headers: { "x-telegram-bot-api-secret-token": secret },
        body: JSON.stringify(update(2, "Hi from Telegram")),
      });
      assert.deepEqual([taken.status, await taken.json()], [200, { ok: true }]);
      await bot.until("the answer", () => textsIn(bot, OWNER).includes("Hello from the cloud."));
      assert.ok(!textsIn(bot, OWNER).some((text) => text.includes("sneaky")));
      // The session lives in the spine's relational store; the answer is stored as its
      // step ends, a moment after the messenger was sent its text.
      type Listed = { session_id: string; message_count: number };
      const chat = await until("the answer stored in the spine", async () => {
        const sessions = (await hub(spine.url, CLOUD_TOKEN, "/hub/sessions")).body
          .sessions as Listed[];
        const found = sessions.find((s) => s.session_id.startsWith("messenger-"));
        return found !== undefined && found.message_count >= 2 ? found : undefined;
      });
      await assert.rejects(() => Deno.stat(`${empty}/data/sessions/${chat.session_id}`));

      const end = await brain.stop();
      assert.equal(end.code, 0, end.stderr);
      assert.equal(end.stderr.trim(), "");
      assert.ok(!end.stdout.includes(CLOUD_TOKEN) && !end.stdout.includes(bot.token));
      brain = undefined;
    } finally {
      await brain?.stop();
      await bot.stop();
      await spine.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "cloud run refuses: missing variables, a local-mode spine, a foreign agent.toml",
  ...SLOW,
  async fn() {
    const { spine } = await sharedCloudSpine();
    const local = await startSpine({ hubToken: CLOUD_TOKEN });
    try {
      const home = await cloudHome(spine);
      await pushHome(home);
      const refusals: [Record<string, string>, RegExp][] = [
        [
          { AGENT_SPINE_TOKEN: CLOUD_TOKEN },
          /Cloud mode needs AGENT_SPINE_URL in \.env or the environment\./,
        ],
        [{ AGENT_SPINE_URL: spine.url }, /Cloud mode needs AGENT_SPINE_TOKEN/],
        [
          { AGENT_SPINE_URL: local.url, AGENT_SPINE_TOKEN: CLOUD_TOKEN },
          /runs in local mode; agent cloud needs a spine deployed in cloud mode/,
        ],
        [
          { AGENT_SPINE_URL: spine.url, AGENT_SPINE_TOKEN: "wrong" },
          /answered HTTP 401 unauthorized/,
        ],
      ];
      for (const [env, message] of refusals) {
        const empty = await tempHome();
        await assert.rejects(() => refuseCloudRun(empty, env), message);
        await assert.rejects(() => Deno.stat(`${empty}/agent.toml`));
      }
      // A home with an agent.toml that cloud run did not write is left alone.
      await assert.rejects(
        () => refuseCloudRun(home, { AGENT_SPINE_URL: spine.url, AGENT_SPINE_TOKEN: CLOUD_TOKEN }),
        /holds an agent\.toml that agent cloud run did not write/,
      );
      assert.match(await Deno.readTextFile(`${home}/agent.toml`), /backend = "file"/);
      // And one line each, no stack.
      // A missing setting is a usage error, as for every --cloud option.
      const r = await cloud(await tempHome(), ["run"], { AGENT_SPINE_URL: spine.url });
      assert.equal(r.code, 2);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    } finally {
      await local.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "cloud status: the spine's mode, its files and the brain (unavailable without one)",
  ...SLOW,
  async fn() {
    const { spine } = await sharedCloudSpine();
    try {
      const home = await cloudHome(spine);
      const before = await cloud(home, ["status"]);
      assert.equal(before.code, 0, before.stderr);
      assert.match(before.stdout, /cloud mode · address 127\.0\.0\.1:\d+/);
      assert.match(before.stdout, /files on the spine: none/);
      assert.match(before.stdout, /brain: brain_unavailable/);
      await pushHome(home);
      const after = await cloud(home, ["status"]);
      assert.match(after.stdout, /files on the spine:\n {2}agent\.toml +[\d.]+ (B|KiB)/);
      const tr = await cloud(home, ["status"], { AGENT_LANG: "tr" });
      assert.match(tr.stdout, /cloud kipi/);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "chat with [sessions] backend = spine keeps its session on the spine and resumes it",
  ...SLOW,
  async fn() {
    const { spine } = await sharedCloudSpine();
    try {
      const home = await cloudHome(spine, { replies: ["First answer.", "Second answer."] });
      const toml = await Deno.readTextFile(`${home}/agent.toml`);
      await Deno.writeTextFile(
        `${home}/agent.toml`,
        toml.replace(/^backend = "file"$/m, 'backend = "spine"'),
      );
      const first = await agent(["--home", home, "chat", "--session", "cloudy"], {
        stdin: "Hello there\n",
      });
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /First answer\./);
      await assert.rejects(() => Deno.stat(`${home}/data/sessions/cloudy`));
      const listed = (await hub(spine.url, CLOUD_TOKEN, "/hub/sessions")).body.sessions as {
        session_id: string;
        message_count: number;
      }[];
      assert.deepEqual(listed.map((s) => [s.session_id, s.message_count]), [["cloudy", 2]]);
      const resumed = await agent(["--home", home, "chat", "--resume"], { stdin: "Again\n" });
      assert.equal(resumed.code, 0, resumed.stderr);
      // The scripted model starts its replies again in a new process.
      assert.match(resumed.stdout, /First answer\./);
      const after = (await hub(spine.url, CLOUD_TOKEN, "/hub/sessions")).body.sessions as {
        message_count: number;
      }[];
      assert.equal(after[0]!.message_count, 4);
      // Without the token the spine backend is refused before anything opens.
      const other = await tempHome();
      await Deno.copyFile(`${home}/agent.toml`, `${other}/agent.toml`);
      const refused = await agent(["--home", other, "chat"], { stdin: "hi\n" });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /\[sessions\] backend 'spine' needs AGENT_SPINE_URL in \.env/);
      assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    } finally {
      await cleanup();
    }
  },
});

/** `agent cloud push` in a pseudo-terminal, answering its questions with `steps`. */
const pushInTerminal = (home: string, steps: string[]) => playTerminal(home, steps, "cloud push");

Deno.test({
  name: "cloud push in a terminal: asks about user.md (default no), then whether to go ahead",
  ignore: !hasPython,
  ...SLOW,
  async fn() {
    const { spine } = await sharedCloudSpine();
    try {
      const home = await cloudHome(spine);
      const declined = await pushInTerminal(home, [
        "wait:your private profile?",
        "send:y\\r",
        "wait:Go ahead?",
        "send:n\\r",
      ]);
      assert.equal(declined.code, 1, declined.screen);
      assert.match(declined.screen, /persona\/user\.md/);
      assert.match(declined.screen, /Nothing was uploaded\./);
      assert.deepEqual(await spineFiles(spine.url), []);

      const pushed = await pushInTerminal(home, [
        "wait:your private profile?",
        "send:\\r",
        "wait:Go ahead?",
        "send:y\\r",
      ]);
      assert.equal(pushed.code, 0, pushed.screen);
      assert.match(pushed.screen, /persona\/user\.md stays on this machine/);
      assert.ok(!(await spineFiles(spine.url)).includes("persona/user.md"));
      assert.ok((await spineFiles(spine.url)).includes("agent.toml"));
    } finally {
      await cleanup();
    }
  },
});
