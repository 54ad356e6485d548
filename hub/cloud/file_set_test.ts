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
      planPush({ ...set, subsFolder: false }, ["persona/subs/x.md"], false).remove,
      [],
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
