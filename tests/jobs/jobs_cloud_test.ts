/**
 * Jobs move with the persona: `agent cloud push` uploads `persona/jobs/<name>.md` to a
 * cloud spine on workerd (and deletes a job removed here), `agent cloud pull` writes
 * them into another home, where `agent jobs list` reads them.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempDir } from "../cli/_run.ts";
import { hub } from "../spine/_fixtures.ts";
import { cloud, CLOUD_TOKEN, cloudHome, cloudSpine, setEnv } from "../cloud/_cloud.ts";

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

      const other = await tempDir();
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
