/**
 * Jobs move with the persona: `agent cloud push` uploads `persona/jobs/<name>.md` to a
 * cloud spine on workerd (and deletes a job removed here), `agent cloud pull` writes
 * them into another home, where `agent jobs list` reads them. In cloud mode the brain
 * (`agent cloud run`) tells the spine when its next job is due (`jobs.next` in the
 * state routes) and the spine's cron, on workerd, wakes the brain before it.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { hub } from "../spine/_fixtures.ts";
import {
  cloud,
  CLOUD_TOKEN,
  cloudHome,
  cloudSpine,
  pushHome,
  runBrain,
  setEnv,
} from "../cloud/_cloud.ts";
import { until } from "../_poll.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };

async function spineFiles(url: string): Promise<string[]> {
  const r = await hub(url, CLOUD_TOKEN, "/hub/files");
  return (r.body.files as { name: string }[]).map((f) => f.name);
}

Deno.test({
  name: "jobs: cloud push uploads persona/jobs/, pull writes them into another home",
  ...SLOW,
  async fn() {
    const { spine } = await cloudSpine();
    try {
      const home = await cloudHome(spine);
      await Deno.mkdir(`${home}/persona/jobs`, { recursive: true });
      const job = "---\nschedule: 0 8 * * *\ndeliver: events\n---\nThe news, please.\n";
      await Deno.writeTextFile(`${home}/persona/jobs/news.md`, job);
      await Deno.writeTextFile(`${home}/persona/jobs/old.md`, job);
      const pushed = await cloud(home, ["push", "-y"]);
      assert.equal(pushed.code, 0, pushed.stderr);
      const files = await spineFiles(spine.url);
      assert.ok(files.includes("persona/jobs/news.md"), files.join(", "));
      assert.ok(files.includes("persona/jobs/old.md"));
      await Deno.remove(`${home}/persona/jobs/old.md`);
      const again = await cloud(home, ["push", "-y"]);
      assert.match(again.stdout, /Deletes from the spine[^\n]*\n {2}persona\/jobs\/old\.md/);
      assert.ok(!(await spineFiles(spine.url)).includes("persona/jobs/old.md"));

      const other = await tempHome();
      await setEnv(other, { AGENT_SPINE_URL: spine.url, AGENT_SPINE_TOKEN: CLOUD_TOKEN });
      const pulled = await cloud(other, ["pull"]);
      assert.equal(pulled.code, 0, pulled.stderr);
      assert.equal(await Deno.readTextFile(`${other}/persona/jobs/news.md`), job);
      const list = await agent(["--home", other, "jobs", "list", "--json"]);
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual(JSON.parse(list.stdout).jobs.map((j: { name: string }) => j.name), ["news"]);
    } finally {
      await spine.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "jobs: the brain tells the spine its next due time; the spine's cron wakes it before",
  ...SLOW,
  async fn() {
    const { spine, brainPort } = await cloudSpine();
    let brain: Awaited<ReturnType<typeof runBrain>> | undefined;
    let fake: Deno.HttpServer | undefined;
    try {
      const home = await cloudHome(spine);
      await Deno.mkdir(`${home}/persona/jobs`, { recursive: true });
      await Deno.writeTextFile(
        `${home}/persona/jobs/news.md`,
        "---\nschedule: 0 8 * * *\ndeliver: events\n---\nThe news, please.\n",
      );
      await pushHome(home);
      const empty = await tempHome();
      brain = await runBrain(empty, brainPort, {
        AGENT_SPINE_URL: spine.url,
        AGENT_SPINE_TOKEN: CLOUD_TOKEN,
      });
      // The next 08:00 in Istanbul (05:00 UTC).
      const now = Date.now();
      const today = new Date(now);
      today.setUTCHours(5, 0, 0, 0);
      const expected = today.getTime() > now ? today.getTime() : today.getTime() + 86_400_000;
      const next = await until("the brain's next job time on the spine", async () => {
        const r = await hub(spine.url, CLOUD_TOKEN, "/hub/state/jobs.next");
        return (r.body.value as { next_ms?: unknown } | undefined)?.next_ms;
      }, { intervalMs: 200 });
      assert.equal(next, expected);
      const stopped = await brain.stop();
      brain = undefined;
      assert.equal(stopped.code, 0, stopped.stderr);

      // A sleeping brain (here a stand-in counting /health) is woken only when a job is due.
      let woken = 0;
      fake = Deno.serve({ port: brainPort, hostname: "127.0.0.1", onListen() {} }, (req) => {
        if (new URL(req.url).pathname === "/health") woken++;
        return Response.json({ ok: true });
      });
      const put = (nextMs: number) =>
        hub(spine.url, CLOUD_TOKEN, "/hub/state/jobs.next", {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ value: { next_ms: nextMs } }),
        });
      const at = Date.now();
      await put(at + 10 * 60_000);
      await spine.cron(at);
      assert.equal(woken, 0);
      await put(at + 2 * 60_000);
      await spine.cron(at);
      assert.equal(woken, 1);
      // A due time already past (the brain died before it ran) still wakes it.
      await put(at - 60_000);
      await spine.cron(at);
      assert.equal(woken, 2);
    } finally {
      await brain?.stop();
      await fake?.shutdown();
      await spine.stop();
      await cleanup();
    }
  },
});
