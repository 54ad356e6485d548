/**
 * `agent net universe deploy DIR [--host HOST]` against a stand-in package runner first
 * on PATH: the universe from the kit written into DIR, the pinned wrangler's steps in
 * order, the operator's UNIVERSE kept (keep_vars, no UNIVERSE var) unless --host sets
 * it, nothing secret printed, each failure one sentence.
 */
import assert from "node:assert/strict";

/** The deploy's wrangler.jsonc: a comment header, then JSON. */
function parseJsonc(text: string) {
  return JSON.parse(text.replace(/^\/\/[^\n]*\n/gm, ""));
}
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { FAKE_EMAIL, FAKE_URL, fakeRunner } from "./_fake_runner.ts";
import { universeKitFiles } from "@agent/kit/universe";

const UNIVERSE_KIT_FILES = await universeKitFiles();
const WRANGLER = JSON.parse(UNIVERSE_KIT_FILES["package.json"]!).devDependencies.wrangler;

Deno.test("universe deploy writes the kit's universe and deploys it, keeping the dashboard's UNIVERSE", async () => {
  try {
    const root = await tempHome();
    const runner = await fakeRunner(root);
    const dir = `${root}/universe`;
    const r = await agent(["net", "universe", "deploy", dir], { env: runner.env() });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await runner.calls(), [
      `npx --yes wrangler@${WRANGLER} whoami --json`,
      "npm install --no-audit --no-fund",
      "npx wrangler deploy",
    ]);
    for (const name of ["worker.js", "wrangler.jsonc", "package.json"]) {
      assert.equal(await Deno.readTextFile(`${dir}/${name}`), UNIVERSE_KIT_FILES[name], name);
    }
    const config = parseJsonc(await Deno.readTextFile(`${dir}/wrangler.jsonc`));
    assert.equal(config.keep_vars, true);
    assert.equal("UNIVERSE" in config.vars, false);
    assert.match(r.stdout, new RegExp(`The universe is deployed: ${FAKE_URL}\\.`));
    assert.match(r.stdout, /UNIVERSE is kept as it is set in the dashboard/);
    assert.ok(!r.stdout.includes(FAKE_EMAIL) && !r.stderr.includes(FAKE_EMAIL));

    // --host writes UNIVERSE; the next deploy without it refreshes the files and keeps
    // the dashboard's value again.
    const hosted = await agent(["net", "universe", "deploy", dir, "--host", "u.example.com"], {
      env: runner.env(),
    });
    assert.equal(hosted.code, 0, hosted.stderr);
    const withHost = parseJsonc(await Deno.readTextFile(`${dir}/wrangler.jsonc`));
    assert.equal(withHost.vars.UNIVERSE, "u.example.com");
    assert.equal(withHost.keep_vars, true);
    assert.match(hosted.stdout, /UNIVERSE is u\.example\.com\./);
    const again = await agent(["net", "universe", "deploy", dir], { env: runner.env() });
    assert.equal(again.code, 0, again.stderr);
    const without = parseJsonc(await Deno.readTextFile(`${dir}/wrangler.jsonc`));
    assert.equal("UNIVERSE" in without.vars, false);
  } finally {
    await cleanup();
  }
});

Deno.test("universe deploy: logged out, another folder, a bad host and a failed deploy are one sentence each", async () => {
  try {
    const root = await tempHome();
    const runner = await fakeRunner(root);
    const out = await agent(["net", "universe", "deploy", `${root}/u`], {
      env: runner.env({ loggedIn: false }),
    });
    assert.equal(out.code, 1);
    assert.equal(
      out.stderr,
      "wrangler is not logged in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then deploy again.\n",
    );
    assert.ok(!out.stdout.includes(FAKE_EMAIL));

    await Deno.mkdir(`${root}/mine`);
    await Deno.writeTextFile(`${root}/mine/notes.txt`, "mine");
    const other = await agent(["net", "universe", "deploy", `${root}/mine`], {
      env: runner.env(),
    });
    assert.equal(other.code, 1);
    assert.equal(
      other.stderr,
      `${root}/mine holds something else than a universe project; choose a new or empty folder.\n`,
    );
    assert.deepEqual(
      [...Deno.readDirSync(`${root}/mine`)].map((e) => e.name),
      ["notes.txt"],
    );

    const bad = await agent(["net", "universe", "deploy", `${root}/u`, "--host", "https://x"], {
      env: runner.env(),
    });
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, "--host https://x is not a host name (no scheme, no port).\n");

    const failed = await agent(["net", "universe", "deploy", `${root}/u`], {
      env: runner.env({ fail: "deploy" }),
    });
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stderr.trim().split("\n").at(-1),
      "Step 4 (deploy) failed (exit 1); the output above says why.",
    );
  } finally {
    await cleanup();
  }
});
