/**
 * `agent net spine init DIR --cloud`: the exact file set, from the kit; the cloud
 * `wrangler.jsonc` holds each binding, var, container and migration; the `Dockerfile`
 * pins Deno and the CLI; the refusals are init's; the pinned wrangler's `deploy
 * --dry-run` accepts the project offline (with a stand-in Docker CLI, which the
 * container build needs even in a dry run); and, where a Docker engine runs, the image
 * builds and answers `/health`.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempDir } from "../cli/_run.ts";
import { runSpine } from "@agent/kit";
import { freePort } from "../spine/_harness.ts";

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
  const home = await tempDir();
  return await agent(["--home", home, "--lang", lang, "net", "spine", "init", ...args]);
}

async function listing(dir: string, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) names.push(...await listing(`${dir}/${entry.name}`, `${entry.name}/`));
    else names.push(`${prefix}${entry.name}`);
  }
  return names.sort();
}

Deno.test("spine init --cloud writes exactly the cloud project, from the kit", async () => {
  try {
    const dir = `${await tempDir()}/spine`;
    const r = await init([dir, "--cloud"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await listing(dir), [
      ".gitignore",
      "Dockerfile",
      "README.md",
      "migrations/0001_cloud.sql",
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
    assert.equal(
      await Deno.readTextFile(`${dir}/migrations/0001_cloud.sql`),
      await Deno.readTextFile(`${ROOT}spine/migrations/0001_cloud.sql`),
    );
    assert.match(r.stdout, /^Wrote a spine project to .*\n {2}wrangler\.jsonc\n/);
    assert.match(r.stdout, /\n {2}Dockerfile\n {2}migrations\/0001_cloud\.sql\n/);
    assert.match(r.stdout, /^Cloud mode: /m);
    assert.match(r.stdout, /agent net spine deploy .*\n {2}agent cloud push\n$/);
    const readme = await Deno.readTextFile(`${dir}/README.md`);
    assert.match(readme, /cloud mode/);
    assert.match(readme, new RegExp(`agent net spine deploy ${dir}`));
    assert.match(readme, /monthly limit/);
  } finally {
    await cleanup();
  }
});

Deno.test("the cloud wrangler.jsonc holds the DB database, the brain container and its migration, the cloud vars", async () => {
  try {
    const dir = `${await tempDir()}/spine`;
    assert.equal((await init([dir, "--cloud"])).code, 0);
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
    const dir = `${await tempDir()}/spine`;
    const r = await init([
      dir,
      "--cloud",
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

Deno.test("the Dockerfile: Deno of this repository, the CLI pinned from JSR with the agent task's permissions, a non-root user, port 8080, agent cloud run", async () => {
  try {
    const dir = `${await tempDir()}/spine`;
    assert.equal((await init([dir, "--cloud"])).code, 0);
    const text = await Deno.readTextFile(`${dir}/Dockerfile`);
    const { name, version } = JSON.parse(await Deno.readTextFile(`${ROOT}cli/deno.json`));
    const deno = (await Deno.readTextFile(`${ROOT}.ci/run`)).match(/^DENO_VERSION=(.+)$/m)![1];
    assert.match(text, new RegExp(`^FROM denoland/deno:${deno}$`, "m"));
    assert.match(text, /^ENV AGENT_HOME=\/agent AGENT_DATA_DIR=\/data /m);
    assert.ok(text.includes(`jsr:${name}@${version}`), text);
    const task = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.agent as string;
    const flags = task.replace(/^deno run /, "").replace(/ cli\/main\.ts$/, "").split(" ");
    const install = text.slice(text.indexOf("deno install"), text.indexOf("jsr:"));
    assert.deepEqual(
      install.split(/[\s\\]+/).filter((w) =>
        w.startsWith("--") && w !== "--global" && w !== "--name"
      ),
      flags,
    );
    const instructions = text.split("\n").filter((line) => !line.startsWith("#")).join("\n");
    assert.ok(!/\s-A\b|--allow-all/.test(instructions));
    assert.match(text, /^USER agent$/m);
    assert.match(text, /chown -R agent:agent \/agent \/data/);
    assert.match(text, /^EXPOSE 8080$/m);
    assert.match(text, /^ENTRYPOINT \["agent", "cloud", "run"\]$/m);
  } finally {
    await cleanup();
  }
});

Deno.test("spine init --cloud refuses what init refuses, writing nothing", async () => {
  try {
    const root = await tempDir();
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
    const root = await tempDir();
    const dir = `${root}/s`;
    assert.equal((await init([dir, "--cloud", "--address", "spine.example.com"])).code, 0);
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
      /ENTRYPOINT \["agent", "cloud", "run"\]/,
    );
  } finally {
    await cleanup();
  }
});

const DOCKER = await (async () => {
  try {
    const out = await new Deno.Command("docker", { args: ["info"], stdout: "null", stderr: "null" })
      .output();
    return out.code === 0;
  } catch {
    return false;
  }
})();

if (!DOCKER) {
  console.log("Skipping the brain image build: `docker info` fails (no Docker engine here).");
}

Deno.test({
  name: "the brain image builds from a cloud project and answers /health (needs Docker)",
  ignore: !DOCKER,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await tempDir();
    const dir = `${root}/s`;
    const tag = `agent-brain-test:${Date.now()}`;
    const token = "docker-test-token-0123456789";
    let spine: Awaited<ReturnType<typeof runSpine>> | undefined;
    let container = "";
    try {
      assert.equal((await init([dir, "--cloud"])).code, 0);
      // @agent/cli is not on JSR yet: the image installs this checkout instead, the one
      // line of the kit's Dockerfile that names the package swapped for a local install.
      const source = `${dir}/src`;
      await Deno.mkdir(source, { recursive: true });
      for (const part of ["cli", "hub", "net", "kit", "spine", "universe"]) {
        const copied = await new Deno.Command("cp", { args: ["-r", `${ROOT}${part}`, source] })
          .output();
        assert.equal(copied.code, 0, part);
      }
      for (const file of ["deno.json", "deno.lock", "mod.ts"]) {
        await Deno.copyFile(`${ROOT}${file}`, `${source}/${file}`);
      }
      const dockerfile = await Deno.readTextFile(`${dir}/Dockerfile`);
      assert.match(dockerfile, /jsr:@agent\/cli@\d+\.\d+\.\d+/);
      await Deno.writeTextFile(
        `${dir}/Dockerfile`,
        dockerfile
          .replace(
            /^RUN deno install --global/m,
            "COPY src /src\nRUN cd /src && deno install --frozen && deno install --global",
          )
          .replace(/jsr:@agent\/cli@\d+\.\d+\.\d+/, "--config /src/deno.json /src/cli/main.ts"),
      );
      const build = await new Deno.Command("docker", {
        args: ["build", "-t", tag, dir],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(build.code, 0, new TextDecoder().decode(build.stderr));
      spine = await runSpine({
        port: freePort(),
        vars: { AGENT_MODE: "cloud", HUB_TOKEN: token },
        relationalStore: true,
      });
      // The brain pulls its agent.toml from the spine: a scripted-model one.
      const put = await fetch(`${spine.url}/hub/files/agent.toml`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}` },
        body: '[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\n',
      });
      assert.equal(put.status, 200, await put.text());
      const health = freePort();
      const run = await new Deno.Command("docker", {
        args: [
          "run",
          "-d",
          "--rm",
          "--network",
          "host",
          "-e",
          `AGENT_SPINE_URL=${spine.url}`,
          "-e",
          `AGENT_SPINE_TOKEN=${token}`,
          "-e",
          `AGENT_CLOUD_HEALTH_PORT=${health}`,
          tag,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
      container = new TextDecoder().decode(run.stdout).trim();
      const deadline = Date.now() + 90_000;
      let body: { ok?: unknown } | undefined;
      while (Date.now() < deadline) {
        try {
          const r = await fetch(`http://127.0.0.1:${health}/health`);
          if (r.ok) {
            body = await r.json();
            break;
          }
          await r.body?.cancel();
        } catch {
          // Not listening yet.
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      assert.equal(body?.ok, true);
    } finally {
      if (container) await new Deno.Command("docker", { args: ["stop", container] }).output();
      await new Deno.Command("docker", { args: ["rmi", "-f", tag] }).output().catch(() => {});
      await spine?.mf.dispose();
      await cleanup();
    }
  },
});
