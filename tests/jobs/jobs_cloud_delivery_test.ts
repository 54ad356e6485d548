/**
 * In cloud mode a job's answer and its log entry outlive the brain's container, end to
 * end: a cloud spine on workerd, a real `agent cloud run` brain with the fake model and
 * the loopback Bot API. While the Bot API refuses every send, the answers wait, and the
 * spine holds them (`job_deliveries`); the brain is SIGKILLed and its data folder is
 * gone (a new one starts in an empty home, as a new container does). The spine's cron
 * wakes a sleeping brain for an answer whose next try is due; once the Bot API accepts
 * again, the new brain delivers each waiting answer exactly once (and publishes none of
 * their events again: the old brain did, before the spine heard of them), and the job
 * log (the new brain's, and `agent jobs log --cloud` on the laptop) still shows the runs.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { hub } from "../spine/_fixtures.ts";
import { CLOUD_TOKEN, cloudHome, cloudSpine, pushHome, runBrain } from "../cloud/_cloud.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { OWNER, textsIn } from "../messenger/_hub.ts";
import { query, results, SLOW, writeJob } from "./_jobs.ts";
import { until } from "../_poll.ts";
import { fakeInitHome } from "../_init_home.ts";

interface SpineRow {
  slot_id: string;
  target: string;
  state: string;
  attempts: number;
  parts_sent: number;
}

Deno.test({
  name:
    "jobs in cloud mode: answers refused before the brain is killed arrive once from a new container; the log survives",
  ...SLOW,
  async fn() {
    const { spine, brainPort } = await cloudSpine();
    const bot = startBotServer();
    let brain: Awaited<ReturnType<typeof runBrain>> | undefined;
    let fake: Deno.HttpServer | undefined;
    try {
      const home = await cloudHome(spine);
      await writeJob(home, "tick", "schedule: '* * * * * *'\nmissed: skip");
      await pushHome(home);
      const env = {
        AGENT_SPINE_URL: spine.url,
        AGENT_SPINE_TOKEN: CLOUD_TOKEN,
        MESSENGER_BOT_TOKEN: bot.token,
        MESSENGER_API_ROOT: bot.apiRoot,
        MESSENGER_ALLOWED_CHAT_IDS: String(OWNER),
      };
      const pending = async () =>
        ((await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/deliveries")).body
          .deliveries as SpineRow[]).filter((d) => d.target === `chat:${OWNER}`);
      // The Bot API refuses every message for now (a 502 is worth trying again).
      bot.fail("sendMessage", { code: 502, description: "Bad Gateway", times: 100_000 });
      const first = await tempHome();
      brain = await runBrain(first, brainPort, env);
      await until(
        "two refused answers on the spine",
        async () => (await pending()).filter((d) => d.attempts >= 1).length >= 2,
        { timeoutMs: 40_000 },
      );
      // The container goes, and its disk with it.
      brain.child.kill("SIGKILL");
      await brain.stop();
      brain = undefined;
      const waiting = await pending();
      assert.ok(waiting.length >= 2 && waiting.every((d) => d.parts_sent === 0));
      // Each answer's event was published before the spine heard of the answer, so no
      // events target waits there, however the kill fell between a publish and its mark.
      const events = ((await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/deliveries")).body
        .deliveries as SpineRow[]).filter((d) => d.target === "events");
      assert.deepEqual(events, []);
      assert.equal(results(textsIn(bot, OWNER), "tick").length, 0);

      // A sleeping brain (a stand-in counting /health) is woken for the due answers.
      let woken = 0;
      fake = Deno.serve({ port: brainPort, hostname: "127.0.0.1", onListen() {} }, (req) => {
        if (new URL(req.url).pathname === "/health") woken++;
        return Response.json({ ok: true });
      });
      // No job is due (the killed brain's next one is set far away): only the answers wake it.
      await hub(spine.url, CLOUD_TOKEN, "/hub/state/jobs.next", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ value: { next_ms: Date.now() + 86_400_000 } }),
      });
      await spine.cron(Date.now() - 10 * 60_000);
      assert.equal(woken, 0, "woken before an answer's next try was due");
      await spine.cron(Date.now() + 6 * 60_000);
      assert.equal(woken, 1);
      await fake.shutdown();
      fake = undefined;

      // The job stops; the Bot API accepts again; a new container starts with an empty disk.
      await writeJob(home, "tick", "schedule: '0 0 1 1 *'\nmissed: skip");
      await pushHome(home);
      bot.unfail("sendMessage");
      const fresh = await tempHome();
      brain = await runBrain(fresh, brainPort, env);
      await until("every waiting answer sent", async () => (await pending()).length === 0, {
        timeoutMs: 40_000,
      });
      // A moment for a second copy to show, were one on its way.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const delivered = results(textsIn(bot, OWNER), "tick");
      // What the new container read from the spine and sent: every answer waiting when the
      // old one died (and any write of it the spine took after), each once, whole.
      const sent = query<{ slot_id: string; state: string; parts_sent: number }>(
        fresh,
        "SELECT slot_id, state, parts_sent FROM deliveries WHERE target = ?",
        `chat:${OWNER}`,
      );
      const slots = new Set(waiting.map((d) => d.slot_id));
      for (const slot of slots) assert.ok(sent.some((d) => d.slot_id === slot), slot);
      assert.ok(sent.every((d) => d.state === "sent" && d.parts_sent === 1), JSON.stringify(sent));
      // The old brain sent none (the Bot API refused all): one message per answer, none twice.
      assert.equal(delivered.length, sent.length, delivered.join("\n---\n"));
      // The old container published their events; the new one publishes none of them again.
      const published = async (dir: string) =>
        (await Deno.readTextFile(`${dir}/data/net/events.jsonl`).catch(() => "")).split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as { type: string; slot_id?: string })
          .filter((e) => e.type === "job.result" && slots.has(e.slot_id ?? ""))
          .map((e) => e.slot_id);
      assert.deepEqual(new Set(await published(first)), slots);
      assert.deepEqual(await published(fresh), []);

      // The job log of the killed container: in the new brain's store, and from the laptop.
      const runs = query<{ slot_id: string; state: string }>(
        fresh,
        "SELECT slot_id, state FROM runs WHERE job = ?",
        "tick",
      );
      for (const slot of slots) {
        assert.deepEqual(runs.filter((r) => r.slot_id === slot).map((r) => r.state), ["ok"]);
      }
      const log = await agent(["--home", home, "jobs", "log", "tick", "--cloud", "--json"]);
      assert.equal(log.code, 0, log.stderr);
      const logged = JSON.parse(log.stdout) as {
        slot_id: string;
        state: string;
        slot_ms: number;
      }[];
      for (const slot of slots) {
        assert.ok(logged.some((r) => r.slot_id === slot && r.state === "ok"), slot);
      }
      const list = await agent(["--home", home, "jobs", "list", "--cloud", "--json"]);
      assert.equal(list.code, 0, list.stderr);
      const listing = JSON.parse(list.stdout);
      assert.equal(listing.log, "cloud");
      const newest = [...logged].sort((a, b) => b.slot_ms - a.slot_ms)[0]!;
      assert.deepEqual(
        listing.jobs.map((j: { name: string; last_state: string }) => [j.name, j.last_state]),
        [["tick", newest.state]],
      );
      const stopped = await brain.stop();
      brain = undefined;
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.ok(!stopped.stderr.includes(bot.token));
    } finally {
      await brain?.stop();
      await fake?.shutdown();
      await bot.stop();
      await spine.stop();
      await cleanup();
    }
  },
});

Deno.test("agent jobs log --cloud: without the spine in .env, one sentence; a spine that is down, one sentence", async () => {
  try {
    const home = await fakeInitHome();
    const r = await agent(["--home", home, "jobs", "log", "--cloud"]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Cloud mode needs AGENT_SPINE_URL in \.env or the environment\./);
    assert.ok(!r.stderr.includes("    at "), r.stderr);
    // agent jobs list --cloud says the same, as the usage error it is (exit 2).
    const list = await agent(["--home", home, "jobs", "list", "--cloud"]);
    assert.equal(list.code, 2);
    assert.equal(
      list.stderr.trim(),
      "Cloud mode needs AGENT_SPINE_URL in .env or the environment.",
    );
    await Deno.writeTextFile(
      `${home}/.env`,
      `AGENT_SPINE_URL=http://127.0.0.1:9\nAGENT_SPINE_TOKEN=${CLOUD_TOKEN}\n`,
      { append: true, mode: 0o600 },
    );
    const down = await agent(["--home", home, "jobs", "log", "--cloud"]);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /^Cannot read the cloud job log: /m);
    const listDown = await agent(["--home", home, "jobs", "list", "--cloud"]);
    assert.equal(listDown.code, 1);
    assert.match(listDown.stderr, /^Cannot read the cloud job log: /m);
    assert.ok(!down.stderr.includes(CLOUD_TOKEN) && !down.stderr.includes("    at "), down.stderr);
  } finally {
    await cleanup();
  }
});
