/**
 * `agent net spine init DIR --cloud`: the exact file set, from the kit, with the CLI's
 * bundle `agent.js` (made from this checkout, or the file `--bundle` names); the cloud
 * `wrangler.jsonc` holds each binding, var, container and migration; the `Dockerfile`
 * pins Deno's image and copies the bundle; the refusals are init's and `--bundle`'s; the
 * pinned wrangler's `deploy --dry-run` accepts the project offline (with a stand-in
 * Docker CLI, which the container build needs even in a dry run). The image itself is
 * built and run by `tests/image/brain_image_test.ts`.
 */
import assert from "node:assert/strict";
import { AGENT_FLAGS } from "../_agent_flags.ts";
import { agent, cleanup, isOneSentence, tempHome } from "../cli/_run.ts";
import { initSpineProject } from "@agent/kit/spine";

/** The JSONC text as a value (comment lines and trailing commas removed). */
// deno-lint-ignore no-explicit-any
function parseJsonc(text: string): any {
  const bare = text.split("\n").filter((l) => !l.trim().startsWith("//")).join("\n")
    .replace(/,(\s*[}\]])/g, "$1");
  return JSON.parse(bare);
}

const ROOT = new URL("../../", import.meta.url).pathname;
const WRANGLER = `${ROOT}node_modules/wrangler/bin/wrangler.js`;

async function init(args: string[], lang = "en") {
  const home = await tempHome();
  return await agent(["--home", home, "--lang", lang, "net", "spine", "init", ...args]);
}

/** `init` with a stand-in bundle, for the tests that are not about the bundle (no bundling). */
async function initCloud(args: string[], lang = "en") {
  const bundle = `${await tempHome()}/agent.js`;
  await Deno.writeTextFile(bundle, "// a stand-in for the brain's bundle\n");
  return await init([...args, "--cloud", "--bundle", bundle], lang);
}

/**
 * What `initCloud([dir])` writes, in this process: the same `initSpineProject()` the
 * command calls, for the tests of the files' content (a spawned init is a process start;
 * the tests of the command's flags, output and refusals run it).
 */
async function initCloudHere(dir: string, address?: string): Promise<void> {
  await initSpineProject(dir, {
    address,
    cloud: true,
    bundle: new TextEncoder().encode("// a stand-in for the brain's bundle\n"),
  });
}

async function listing(dir: string, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) {
      names.push(...await listing(`${dir}/${entry.name}`, `${prefix}${entry.name}/`));
    } else names.push(`${prefix}${entry.name}`);
  }
  return names.sort();
}

Deno.test("spine init --cloud writes exactly the cloud project, from the kit, with this checkout's bundle", async () => {
  try {
    const dir = `${await tempHome()}/spine`;
    const r = await init([dir, "--cloud"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await listing(dir), [
      ".dockerignore",
      ".gitignore",
      "Dockerfile",
      "README.md",
      "agent.js",
      "migrations/0001_cloud.sql",
      "migrations/0002_ledger.sql",
      "migrations/0003_jobs.sql",
      "migrations/0004_job_notices.sql",
      "migrations/0005_job_pauses.sql",
      "migrations/0006_job_outbox.sql",
      "migrations/0007_memory.sql",
      "package.json",
      "worker.js",
      "wrangler.jsonc",
    ]);
    const same = async (file: string, kitFile: string) =>
      assert.equal(
        await Deno.readTextFile(`${dir}/${file}`),
        await Deno.readTextFile(`${ROOT}kit/spine/${kitFile}`),
      );
    await same("worker.js", "worker.js");
    await same("Dockerfile", "cloud/Dockerfile");
    await same("migrations/0001_cloud.sql", "cloud/migrations/0001_cloud.sql");
    await same("migrations/0002_ledger.sql", "cloud/migrations/0002_ledger.sql");
    await same("migrations/0003_jobs.sql", "cloud/migrations/0003_jobs.sql");
    await same("migrations/0004_job_notices.sql", "cloud/migrations/0004_job_notices.sql");
    await same("migrations/0005_job_pauses.sql", "cloud/migrations/0005_job_pauses.sql");
    await same("migrations/0006_job_outbox.sql", "cloud/migrations/0006_job_outbox.sql");
    await same("migrations/0007_memory.sql", "cloud/migrations/0007_memory.sql");
    assert.equal(
      await Deno.readTextFile(`${dir}/migrations/0001_cloud.sql`),
      await Deno.readTextFile(`${ROOT}spine/migrations/0001_cloud.sql`),
    );
    assert.match(r.stdout, /^Wrote a spine project to .*\n {2}wrangler\.jsonc\n/);
    assert.match(
      r.stdout,
      /\n {2}Dockerfile\n {2}\.dockerignore\n {2}agent\.js\n {2}migrations\/0001_cloud\.sql\n/,
    );
    // The image build is sent agent.js alone: not node_modules/, not .dev.vars.
    assert.match(await Deno.readTextFile(`${dir}/.dockerignore`), /^\*\n!agent\.js\n$/m);
    assert.match(r.stdout, /^Cloud mode: /m);
    assert.match(r.stdout, /agent net spine deploy .*\n {2}agent cloud push\n$/);
    const readme = await Deno.readTextFile(`${dir}/README.md`);
    assert.match(readme, /cloud mode/);
    assert.match(readme, new RegExp(`agent net spine deploy ${dir}`));
    assert.match(readme, /monthly limit/);
    assert.match(readme, /\| `agent\.js` \| the agent's command line as one module/);

    // agent.js is the whole CLI in one module: only node: imports, and it runs.
    const bundle = await Deno.readTextFile(`${dir}/agent.js`);
    const imports = [...bundle.matchAll(/(?:^|\n)\s*import\s[^;]*?from\s*"([^"]+)"/g)]
      .map((m) => m[1]!);
    assert.ok(imports.length > 0);
    assert.deepEqual(imports.filter((spec) => !spec.startsWith("node:")), []);
    assert.ok(!/\bimport\(\s*"(?:npm|jsr|https?):/.test(bundle));
    const version = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...AGENT_FLAGS, `${dir}/agent.js`, "version"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const { version: cliVersion } = JSON.parse(await Deno.readTextFile(`${ROOT}cli/deno.json`));
    assert.equal(version.code, 0, new TextDecoder().decode(version.stderr));
    assert.match(new TextDecoder().decode(version.stdout), new RegExp(`${cliVersion}`));
  } finally {
    await cleanup();
  }
});

Deno.test("spine init --cloud --bundle FILE copies that file; a bad --bundle writes nothing", async () => {
  try {
    const root = await tempHome();
    const bytes = new Uint8Array([0x2f, 0x2f, 0x20, 0xc3, 0xa7, 0x0a, 0x00, 0xff]);
    await Deno.writeFile(`${root}/release-agent.js`, bytes);
    const copied = await init([`${root}/a`, "--cloud", "--bundle", `${root}/release-agent.js`]);
    assert.equal(copied.code, 0, copied.stderr);
    assert.deepEqual(await Deno.readFile(`${root}/a/agent.js`), bytes);

    const missing = await init([`${root}/b`, "--cloud", "--bundle", `${root}/nope.js`]);
    assert.ok(isOneSentence(missing), missing.stderr);
    assert.equal(missing.stderr, `The bundle ${root}/nope.js does not exist.\n`);
    await Deno.writeFile(`${root}/empty.js`, new Uint8Array());
    const empty = await init([`${root}/b`, "--cloud", "--bundle", `${root}/empty.js`], "tr");
    assert.ok(isOneSentence(empty), empty.stderr);
    assert.equal(empty.stderr, `${root}/empty.js paketi boş.\n`);
    const local = await init([`${root}/b`, "--bundle", `${root}/release-agent.js`]);
    assert.ok(isOneSentence(local), local.stderr);
    assert.equal(local.stderr, "--bundle is for a cloud project: add --cloud.\n");
    assert.deepEqual(await listing(root), [
      "a/.dockerignore",
      "a/.gitignore",
      "a/Dockerfile",
      "a/README.md",
      "a/agent.js",
      "a/migrations/0001_cloud.sql",
      "a/migrations/0002_ledger.sql",
      "a/migrations/0003_jobs.sql",
      "a/migrations/0004_job_notices.sql",
      "a/migrations/0005_job_pauses.sql",
      "a/migrations/0006_job_outbox.sql",
      "a/migrations/0007_memory.sql",
      "a/package.json",
      "a/worker.js",
      "a/wrangler.jsonc",
      "empty.js",
      "release-agent.js",
    ]);
  } finally {
    await cleanup();
  }
});

Deno.test("the cloud wrangler.jsonc holds the DB database, the brain container and its migration, the cloud vars", async () => {
  try {
    const dir = `${await tempHome()}/spine`;
    await initCloudHere(dir);
    const config = parseJsonc(await Deno.readTextFile(`${dir}/wrangler.jsonc`));
    assert.equal(config.name, "agent-spine");
    assert.equal(config.main, "worker.js");
    assert.equal(config.no_bundle, undefined);
    assert.equal(config.routes, undefined);
    assert.deepEqual(config.vars, {
      AGENT_MODE: "cloud",
      ADDRESS: "",
      ALLOW_INSECURE_PEERS: "0",
      SPINE_URL: "",
      KEEP_AWAKE: "0",
    });
    assert.deepEqual(config.d1_databases, [
      { binding: "DB", database_name: "agent-spine", migrations_dir: "migrations" },
    ]);
    assert.deepEqual(config.containers, [
      { class_name: "Brain", image: "./Dockerfile", max_instances: 1 },
    ]);
    assert.deepEqual(config.durable_objects, {
      bindings: [
        { name: "MAILBOX", class_name: "Mailbox" },
        { name: "BRAIN", class_name: "Brain" },
      ],
    });
    assert.deepEqual(config.migrations, [
      { tag: "v1", new_sqlite_classes: ["Mailbox"] },
      { tag: "v2", new_sqlite_classes: ["Brain"] },
    ]);
    assert.deepEqual(config.kv_namespaces, [{ binding: "PEER_CARDS" }]);
    assert.deepEqual(config.triggers, { crons: ["* * * * *"] });
    assert.deepEqual(
      config.ratelimits.map((l: { name: string; namespace_id: string }) => [
        l.name,
        l.namespace_id,
      ]),
      [["INBOX_IP_LIMIT", "10501"], ["INBOX_SENDER_LIMIT", "10502"]],
    );
    // The rest is the local configuration's.
    const local = parseJsonc(await Deno.readTextFile(`${ROOT}spine/wrangler.jsonc`));
    assert.equal(config.compatibility_date, local.compatibility_date);
    assert.deepEqual(config.ratelimits, local.ratelimits);
    assert.match(
      await Deno.readTextFile(`${dir}/wrangler.jsonc`),
      /\/\/ The spine's public URL[^\n]*agent net spine deploy[^\n]*\n[^\n]*fills it/,
    );
  } finally {
    await cleanup();
  }
});

Deno.test("spine init --cloud --address: SPINE_URL, ADDRESS and the route; other namespace ids", async () => {
  try {
    const dir = `${await tempHome()}/spine`;
    const r = await initCloud([
      dir,
      "--address",
      "me.example.com",
      "--ip-limit-id",
      "20501",
      "--sender-limit-id",
      "20502",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const config = parseJsonc(await Deno.readTextFile(`${dir}/wrangler.jsonc`));
    assert.equal(config.vars.SPINE_URL, "https://me.example.com");
    assert.equal(config.vars.ADDRESS, "me.example.com");
    assert.deepEqual(config.routes, [{ pattern: "me.example.com", custom_domain: true }]);
    assert.deepEqual(
      config.ratelimits.map((l: { namespace_id: string }) => l.namespace_id),
      ["20501", "20502"],
    );
  } finally {
    await cleanup();
  }
});

Deno.test("the Dockerfile: Deno's image of this repository's version, the bundle copied, the install line's permissions, a non-root user, a health check, agent cloud run", async () => {
  try {
    const dir = `${await tempHome()}/spine`;
    await initCloudHere(dir);
    const text = await Deno.readTextFile(`${dir}/Dockerfile`);
    const { name, version } = JSON.parse(await Deno.readTextFile(`${ROOT}cli/deno.json`));
    const deno = (await Deno.readTextFile(`${ROOT}.ci/run`)).match(/^DENO_VERSION=(.+)$/m)![1];
    const instructions = text.split("\n").filter((line) => !line.startsWith("#")).join("\n");
    // One base, pinned; nothing else is fetched: no install, no package manager, no URL.
    assert.deepEqual(instructions.match(/^FROM .*$/gm), [`FROM denoland/deno:debian-${deno}`]);
    assert.ok(
      !/deno install|jsr:|npm:|apt-get|curl|wget|https?:\/\/(?!127\.0\.0\.1)/.test(instructions),
      text,
    );
    assert.match(text, /^COPY agent\.js \/opt\/agent\/agent\.js$/m);
    assert.match(text, new RegExp(`org\\.opencontainers\\.image\\.version="${version}"`));
    assert.ok(text.includes(`org.opencontainers.image.title="${name}"`));
    assert.match(
      text,
      /^ENV AGENT_HOME=\/agent AGENT_DATA_DIR=\/data DENO_DIR=\/deno-dir DENO_NO_UPDATE_CHECK=1$/m,
    );
    const entry = JSON.parse(text.match(/^ENTRYPOINT (.+)$/m)![1]!) as string[];
    assert.deepEqual(entry, ["deno", "run", ...AGENT_FLAGS, "/opt/agent/agent.js", "cloud", "run"]);
    // The install line's flags are the agent task's (deno.json), never -A.
    const task = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.agent as string;
    assert.equal(task, `deno run ${AGENT_FLAGS.join(" ")} cli/main.ts`);
    assert.ok(!/\s-A\b|--allow-all/.test(instructions));
    assert.match(text, /^CMD \[\]$/m);
    assert.match(text, /useradd --system --uid 10001 --gid agent/);
    assert.match(text, /chown agent:agent \/agent \/data \/deno-dir/);
    assert.ok(text.indexOf("USER agent") < text.indexOf("/opt/agent/agent.js version"));
    assert.match(text, /^USER agent$/m);
    assert.match(text, /^WORKDIR \/agent$/m);
    assert.match(text, /^EXPOSE 8080$/m);
    const check = JSON.parse(text.match(/^ {2}CMD (\[.+\])$/m)![1]!) as string[];
    assert.deepEqual(check.slice(0, 6), [
      "deno",
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-env=AGENT_CLOUD_HEALTH_PORT",
      "--allow-net=127.0.0.1",
    ]);
    assert.match(check[6]!, /^data:text\/javascript,.*\/health/);
  } finally {
    await cleanup();
  }
});

Deno.test("spine init --cloud refuses what init refuses, writing nothing", async () => {
  try {
    const root = await tempHome();
    await Deno.mkdir(`${root}/full`);
    await Deno.writeTextFile(`${root}/full/notes.txt`, "mine");
    const full = await init([`${root}/full`, "--cloud"]);
    assert.equal(full.code, 1);
    assert.equal(full.stderr, `${root}/full is not empty; choose a new or empty directory.\n`);
    assert.deepEqual(await listing(`${root}/full`), ["notes.txt"]);
    await Deno.writeTextFile(`${root}/file`, "x");
    const file = await init([`${root}/file`, "--cloud"], "tr");
    assert.equal(file.code, 1);
    assert.equal(file.stderr, `${root}/file bir dizin değil.\n`);
    const bad = await init([`${root}/new`, "--cloud", "--address", "a.com:8443"]);
    assert.equal(bad.code, 2);
    assert.ok(bad.stderr.startsWith("'a.com:8443' has a port"), bad.stderr);
    assert.deepEqual(await listing(root), ["file", "full/notes.txt"]);
  } finally {
    await cleanup();
  }
});

Deno.test("the cloud project passes the pinned wrangler's deploy --dry-run, offline, with a stand-in Docker CLI", async () => {
  try {
    const root = await tempHome();
    const dir = `${root}/s`;
    await initCloudHere(dir, "spine.example.com");
    // `deploy --dry-run` builds the container image even in a dry run; the stand-in
    // records the call and succeeds, so what is checked is the configuration.
    const docker = `${root}/docker`;
    // It reads the Dockerfile wrangler pipes in (`-f -`): leaving it unread is an EPIPE
    // in wrangler whenever the stand-in exits first.
    await Deno.writeTextFile(
      docker,
      `#!/bin/sh\necho "$*" >> "${root}/docker.log"\ncat > "${root}/dockerfile.in"\n`,
      { mode: 0o755 },
    );
    const out = await new Deno.Command("node", {
      args: [WRANGLER, "deploy", "--dry-run", "--outdir", `${root}/out`],
      cwd: dir,
      env: {
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_SEND_METRICS: "false",
        NO_COLOR: "1",
        WRANGLER_DOCKER_BIN: docker,
        // wrangler keeps its update check's answer in the temp folder: here, the test's.
        TMPDIR: root,
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    for (
      const binding of [
        "env.MAILBOX (Mailbox)",
        "env.BRAIN (Brain)",
        "env.DB (agent-spine)",
        "env.PEER_CARDS",
        "env.INBOX_IP_LIMIT",
        'env.AGENT_MODE ("cloud")',
        'env.SPINE_URL ("https://spine.example.com")',
        'env.KEEP_AWAKE ("0")',
      ]
    ) {
      assert.ok(text.includes(binding), `${binding} missing:\n${text}`);
    }
    assert.match(text, new RegExp(`agent-spine-brain \\(${dir}/Dockerfile\\)`));
    assert.match(text, /--dry-run: exiting now\./);
    // Nothing of migrations/ is uploaded with the Worker.
    assert.ok(!text.includes("0001_cloud.sql"), text);
    const calls = await Deno.readTextFile(`${root}/docker.log`);
    assert.match(calls, new RegExp(`^build .*-f - ${dir}$`, "m"));
    assert.match(
      await Deno.readTextFile(`${root}/dockerfile.in`),
      /^COPY agent\.js /m,
    );
  } finally {
    await cleanup();
  }
});
