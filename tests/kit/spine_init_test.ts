/**
 * `agent net spine init DIR`: the exact file set, the refusals (writing nothing), the
 * `--address` variants and the namespace ids; the written `wrangler.jsonc` passes the
 * pinned wrangler's `deploy --dry-run`, offline.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { initSpineProject } from "@agent/kit/spine";

const ROOT = new URL("../../", import.meta.url).pathname;
const WRANGLER = `${ROOT}node_modules/wrangler/bin/wrangler.js`;

async function init(args: string[], lang = "en") {
  const home = await tempHome();
  return await agent(["--home", home, "--lang", lang, "net", "spine", "init", ...args]);
}

async function listing(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** The JSONC text as a value (comments and trailing commas removed). */
function parseJsonc(text: string): Record<string, unknown> {
  const bare = text.split("\n").filter((l) => !l.trim().startsWith("//")).join("\n")
    .replace(/,(\s*[}\]])/g, "$1");
  return JSON.parse(bare);
}

Deno.test("spine init writes exactly the five files, from the kit", async () => {
  try {
    const dir = `${await tempHome()}/spine`;
    const r = await init([dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await listing(dir), [
      ".gitignore",
      "README.md",
      "package.json",
      "worker.js",
      "wrangler.jsonc",
    ]);
    assert.equal(
      await Deno.readTextFile(`${dir}/worker.js`),
      await Deno.readTextFile(`${ROOT}kit/spine/worker.js`),
    );
    const pkg = JSON.parse(await Deno.readTextFile(`${dir}/package.json`));
    assert.deepEqual(pkg.devDependencies, { wrangler: "4.86.0" });
    const config = parseJsonc(await Deno.readTextFile(`${dir}/wrangler.jsonc`));
    assert.equal(config.name, "agent-spine");
    assert.equal(config.main, "worker.js");
    assert.equal(config.routes, undefined);
    assert.deepEqual(config.vars, { AGENT_MODE: "local", ADDRESS: "", ALLOW_INSECURE_PEERS: "0" });
    assert.deepEqual(config.migrations, [{ tag: "v1", new_sqlite_classes: ["Mailbox"] }]);
    assert.deepEqual(config.triggers, { crons: ["* * * * *"] });
    assert.match(await Deno.readTextFile(`${dir}/.gitignore`), /^node_modules\/$/m);
    const readme = await Deno.readTextFile(`${dir}/README.md`);
    assert.match(readme, new RegExp(`agent net spine deploy ${dir}`));
    assert.match(readme, /agent net publish/);
    assert.match(readme, /second spine on the same account/);
    assert.match(r.stdout, /^Wrote a spine project to .*\n {2}wrangler\.jsonc\n/);
    assert.match(
      r.stdout,
      /agent net spine deploy .*\n {2}agent net init\n {2}agent net publish\n$/,
    );
  } finally {
    await cleanup();
  }
});

Deno.test("spine init --address: a custom domain gets ADDRESS and a route; workers.dev only ADDRESS", async () => {
  try {
    const custom = `${await tempHome()}/a`;
    assert.equal((await init([custom, "--address", "spine.example.com"])).code, 0);
    const c = parseJsonc(await Deno.readTextFile(`${custom}/wrangler.jsonc`));
    assert.deepEqual(c.routes, [{ pattern: "spine.example.com", custom_domain: true }]);
    assert.equal((c.vars as Record<string, string>).ADDRESS, "spine.example.com");

    const dev = `${await tempHome()}/b`;
    assert.equal((await init([dev, "--address", "agent-spine.me.workers.dev"])).code, 0);
    const d = parseJsonc(await Deno.readTextFile(`${dev}/wrangler.jsonc`));
    assert.equal(d.routes, undefined);
    assert.equal((d.vars as Record<string, string>).ADDRESS, "agent-spine.me.workers.dev");
  } finally {
    await cleanup();
  }
});

Deno.test("spine init takes other rate-limit namespace ids", async () => {
  try {
    const dir = `${await tempHome()}/s`;
    const r = await init([dir, "--ip-limit-id", "20501", "--sender-limit-id", "20502"]);
    assert.equal(r.code, 0, r.stderr);
    const config = parseJsonc(await Deno.readTextFile(`${dir}/wrangler.jsonc`));
    const ids = (config.ratelimits as { name: string; namespace_id: string }[])
      .map((l) => [l.name, l.namespace_id]);
    assert.deepEqual(ids, [["INBOX_IP_LIMIT", "20501"], ["INBOX_SENDER_LIMIT", "20502"]]);
    assert.match(await Deno.readTextFile(`${dir}/README.md`), /namespace `20501`/);
  } finally {
    await cleanup();
  }
});

const USAGE = [
  [["--address", "Foo_bar"], "'Foo_bar' is not an agent address"],
  [["--address", "-a.com"], "'-a.com' is not an agent address"],
  [["--address", "a.com:8443"], "'a.com:8443' has a port"],
  [["--ip-limit-id", "x1"], "'x1' is not a rate-limit namespace id"],
  [
    ["--ip-limit-id", "7", "--sender-limit-id", "7"],
    "The two rate-limit namespace ids must differ",
  ],
] as const;

for (const [args, sentence] of USAGE) {
  Deno.test(`spine init ${args.join(" ")}: a usage error (exit 2), nothing written`, async () => {
    try {
      const dir = `${await tempHome()}/s`;
      const r = await init([dir, ...args]);
      assert.equal(r.code, 2);
      assert.ok(r.stderr.startsWith(sentence), r.stderr);
      assert.equal(r.stderr.trim().split("\n").length, 1);
      await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
    } finally {
      await cleanup();
    }
  });
}

Deno.test("spine init refuses a non-empty directory and a file, in one sentence, writing nothing", async () => {
  try {
    const root = await tempHome();
    await Deno.mkdir(`${root}/full`);
    await Deno.writeTextFile(`${root}/full/notes.txt`, "mine");
    const full = await init([`${root}/full`]);
    assert.equal(full.code, 1);
    assert.equal(full.stderr, `${root}/full is not empty; choose a new or empty directory.\n`);
    assert.deepEqual(await listing(`${root}/full`), ["notes.txt"]);

    await Deno.writeTextFile(`${root}/file`, "x");
    const file = await init([`${root}/file`], "tr");
    assert.equal(file.code, 1);
    assert.equal(file.stderr, `${root}/file bir dizin değil.\n`);
    assert.equal(await Deno.readTextFile(`${root}/file`), "x");
    // No staging folder is left behind.
    assert.deepEqual(await listing(root), ["file", "full"]);

    await Deno.mkdir(`${root}/empty`);
    assert.equal((await init([`${root}/empty`])).code, 0);
    assert.equal((await listing(`${root}/empty`)).length, 5);
  } finally {
    await cleanup();
  }
});

Deno.test("the written wrangler.jsonc passes the pinned wrangler's deploy --dry-run, offline", async () => {
  try {
    const root = await tempHome();
    const dir = `${root}/s`;
    // What `init DIR --address spine.example.com` writes (tested above), in this process.
    await initSpineProject(dir, { address: "spine.example.com" });
    const out = await new Deno.Command("node", {
      args: [WRANGLER, "deploy", "--dry-run", "--outdir", `${dir}/.out`],
      cwd: dir,
      env: {
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_SEND_METRICS: "false",
        NO_COLOR: "1",
        // wrangler keeps its update check's answer in the temp folder: here, the test's.
        TMPDIR: root,
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    for (const binding of ["env.MAILBOX (Mailbox)", "env.PEER_CARDS", "env.INBOX_IP_LIMIT"]) {
      assert.ok(text.includes(binding), text);
    }
    assert.match(text, /env\.ADDRESS \("spine\.example\.com"\)/);
    assert.match(text, /--dry-run: exiting now\./);
  } finally {
    await cleanup();
  }
});
