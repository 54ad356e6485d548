import assert from "node:assert/strict";
import { localFileSet, planPush } from "./file_set.ts";

Deno.test("localFileSet takes the fixed files and plain sub-agent files, and names the rest", async () => {
  const home = await Deno.makeTempDir({ prefix: "agent-cloud-set-" });
  try {
    await Deno.mkdir(`${home}/persona/subs/nested`, { recursive: true });
    await Deno.writeTextFile(`${home}/agent.toml`, "x = 1\n");
    await Deno.writeTextFile(`${home}/.env`, "SECRET=1\n");
    await Deno.writeTextFile(`${home}/persona/user.md`, "me\n");
    await Deno.writeTextFile(`${home}/persona/subs/b.md`, "b\n");
    await Deno.writeTextFile(`${home}/persona/subs/a.md`, "a\n");
    await Deno.writeTextFile(`${home}/persona/subs/.hidden.md`, "h\n");
    await Deno.symlink(`${home}/agent.toml`, `${home}/persona/subs/link.md`);
    const set = await localFileSet(home);
    assert.deepEqual(set.files.map((f) => f.name), [
      "agent.toml",
      "persona/user.md",
      "persona/subs/a.md",
      "persona/subs/b.md",
    ]);
    assert.deepEqual(set.skipped, [
      { name: "persona/subs/.hidden.md", why: "name" },
      { name: "persona/subs/link.md", why: "link" },
      { name: "persona/subs/nested/", why: "folder" },
    ]);
    assert.equal(set.subsFolder, true);
    const plan = planPush(
      set,
      ["persona/subs/a.md", "persona/subs/gone.md", "persona/net.md"],
      false,
    );
    assert.deepEqual(plan.upload.map((f) => f.name), [
      "agent.toml",
      "persona/subs/a.md",
      "persona/subs/b.md",
    ]);
    assert.deepEqual(plan.remove, ["persona/subs/gone.md"]);
    assert.ok(planPush(set, [], true).upload.some((f) => f.name === "persona/user.md"));
    // Without persona/subs/ nothing remote is deleted.
    assert.deepEqual(
      planPush({ ...set, subsFolder: false, folders: [] }, ["persona/subs/x.md"], false).remove,
      [],
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("localFileSet takes the job files of persona/jobs/; a push deletes jobs gone here", async () => {
  const home = await Deno.makeTempDir({ prefix: "agent-cloud-set-" });
  try {
    await Deno.mkdir(`${home}/persona/jobs`, { recursive: true });
    await Deno.writeTextFile(`${home}/persona/jobs/news.md`, "---\nschedule: 0 8 * * *\n---\nx\n");
    await Deno.writeTextFile(`${home}/persona/jobs/.draft.md`, "d\n");
    const set = await localFileSet(home);
    assert.deepEqual(set.files.map((f) => f.name), ["persona/jobs/news.md"]);
    assert.deepEqual(set.skipped, [{ name: "persona/jobs/.draft.md", why: "name" }]);
    assert.deepEqual(set.folders, ["persona/jobs/"]);
    const plan = planPush(set, ["persona/jobs/old.md", "persona/subs/w.md"], false);
    assert.deepEqual(plan.upload.map((f) => f.name), ["persona/jobs/news.md"]);
    // persona/subs/ does not exist here, so its files on the spine stay.
    assert.deepEqual(plan.remove, ["persona/jobs/old.md"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
