/**
 * The cloud half of the spine kit, as `deno task kit:build` makes it: the cloud-mode
 * `wrangler.template.jsonc` (the local-mode bindings of `spine/wrangler.jsonc` plus the
 * relational store `DB`, the brain container and the cloud vars), the brain's
 * `Dockerfile` (Deno pinned to this repository's version; it copies the CLI's bundle) and a copy of the
 * D1 migrations in `spine/migrations/`. They live in `kit/spine/cloud/`.
 *
 * @module
 */
import { parseJsonc } from "./_jsonc.ts";
import { ROUTE_MARKER } from "./spine_init.ts";

const ROOT = new URL("../", import.meta.url);

/** The D1 database's name in a cloud project (wrangler creates it on the first deploy). */
export const CLOUD_DATABASE_NAME = "agent-spine";

/** The Deno version this repository builds and tests with (`.ci/run`'s `DENO_VERSION`). */
export async function pinnedDenoVersion(): Promise<string> {
  const text = await Deno.readTextFile(new URL(".ci/run", ROOT));
  const version = text.match(/^DENO_VERSION=(\d+\.\d+\.\d+)$/m)?.[1];
  if (version === undefined) {
    throw new TypeError("Cannot read the Deno version: .ci/run names none");
  }
  return version;
}

/** The published CLI's name and version (`cli/deno.json`), which the image is labelled with. */
export async function cliPackage(): Promise<{ name: string; version: string }> {
  const config = JSON.parse(await Deno.readTextFile(new URL("cli/deno.json", ROOT)));
  const name = String(config.name ?? "");
  const version = String(config.version ?? "");
  if (!/^@[a-z0-9-]+\/[a-z0-9-]+$/.test(name) || !/^\d+\.\d+\.\d+/.test(version)) {
    throw new TypeError(`Cannot read the CLI package: cli/deno.json says ${name}@${version}`);
  }
  return { name, version };
}

/** The permission flags of `deno task agent` (deno.json), which the installed command keeps. */
export async function agentTaskFlags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const task = String(config.tasks?.agent ?? "");
  const flags = task.match(/^deno run (.+) cli\/main\.ts$/)?.[1]?.split(/\s+/);
  if (flags === undefined || flags.some((flag) => !flag.startsWith("--"))) {
    throw new TypeError(`Cannot read the agent task's flags: deno.json says "${task}"`);
  }
  return flags;
}

/** Versions and flags the brain's `Dockerfile` pins. */
export interface DockerfileInputs {
  /** The Deno version of the base image (`denoland/deno:debian-<deno>`). */
  deno: string;
  /** The CLI's package name, e.g. `@agent/cli` (an image label). */
  cli: string;
  /** Its version (an image label; `agent.js` is the bundle of this version). */
  version: string;
  /** The `deno run` permission flags of the install line. */
  flags: readonly string[];
}

/** The brain's base image for a Deno version: Deno's own Debian image, pinned. */
export function brainBaseImage(deno: string): string {
  return `denoland/deno:debian-${deno}`;
}

/**
 * The `HEALTHCHECK` command: the image has no curl, so Deno itself fetches `/health` on
 * the port `agent cloud run` serves it on, with network access to this container only
 * and one variable readable. A `data:` module: nothing to copy, nothing to cache.
 */
export const HEALTH_CHECK_MODULE = "data:text/javascript," +
  "const p=Deno.env.get('AGENT_CLOUD_HEALTH_PORT')||'8080';" +
  "const r=await fetch('http://127.0.0.1:'+p+'/health').catch(()=>null);" +
  "Deno.exit(r?.ok?0:1)";

/**
 * The brain's `Dockerfile`: Deno's Debian image at this repository's Deno version,
 * `AGENT_HOME=/agent` and `AGENT_DATA_DIR=/data` owned by a user of its own, the CLI as
 * the one-file bundle `agent.js` that `agent net spine init --cloud` writes beside it (the
 * build fetches nothing but the base image; every dependency's version is fixed inside
 * the bundle), the install line's permissions (never `-A`), port 8080, a health check,
 * and `agent cloud run` as the entry point.
 *
 * @example
 * ```ts
 * import { kitDockerfile } from "./kit_cloud.ts";
 * const text = kitDockerfile({ deno: "2.9.6", cli: "@agent/cli", version: "0.1.0", flags: ["--allow-net"] });
 * if (!text.includes("FROM denoland/deno:debian-2.9.6") || !text.includes("COPY agent.js")) throw new Error(text);
 * ```
 */
export function kitDockerfile(inputs: DockerfileInputs): string {
  // A shell line over several lines of at most ~80 characters.
  const wrapped = (words: readonly string[]) => {
    const lines: string[] = [];
    let line = "";
    for (const word of words) {
      if (line !== "" && line.length + word.length > 72) {
        lines.push(line);
        line = "";
      }
      line = line === "" ? word : `${line} ${word}`;
    }
    return [...lines, line].join(" \\\n  ");
  };
  const json = (words: readonly string[]) => JSON.stringify(words).replaceAll('","', '", "');
  const health = [
    "deno",
    "run",
    "--quiet",
    "--no-prompt",
    "--allow-env=AGENT_CLOUD_HEALTH_PORT",
    "--allow-net=127.0.0.1",
    HEALTH_CHECK_MODULE,
  ];
  const run = ["deno", "run", ...inputs.flags, "/opt/agent/agent.js"];
  const entry = [...run, "cloud", "run"];
  return `# The brain of an agent in cloud mode, from the agent spine kit: \`agent cloud run\` in
# the edge platform's container, which the spine starts when the brain is needed.
# \`wrangler deploy\` builds this image (\`containers[0].image\` in wrangler.jsonc) with a
# local Docker engine and pushes it to the platform's registry. The build fetches only
# the base image: the agent is agent.js beside this file, the whole CLI in one module
# with every dependency's version fixed inside, written by \`agent net spine init --cloud\`.
FROM ${brainBaseImage(inputs.deno)}

LABEL org.opencontainers.image.title="${inputs.cli}" org.opencontainers.image.version="${inputs.version}"
ENV AGENT_HOME=/agent AGENT_DATA_DIR=/data DENO_DIR=/deno-dir DENO_NO_UPDATE_CHECK=1

# A user of its own, owning the agent's folders: the brain never runs as root.
RUN groupadd --system --gid 10001 agent \\
  && useradd --system --uid 10001 --gid agent --home-dir /agent --no-create-home agent \\
  && mkdir -p /agent /data /deno-dir \\
  && chown agent:agent /agent /data /deno-dir

# The agent, owned by root: its user can run it, not change it.
COPY agent.js /opt/agent/agent.js

USER agent
WORKDIR /agent
# Deno's caches of the bundle (its analysis, V8's compiled code) made once here, so that
# no container start spends a second making them again.
RUN ${wrapped([...run, "version", ">", "/dev/null"])}
EXPOSE 8080
# Deno fetches /health itself (there is no curl here), allowed 127.0.0.1 and one variable.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \\
  CMD ${json(health)}
# The install line's permissions (never -A); SIGTERM stops it cleanly.
ENTRYPOINT ${json(entry)}
CMD []
`;
}

function inline(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, " ").replace(/\[ /g, "[")
    .replace(/ \]/g, "]");
}

/**
 * The cloud-mode `wrangler.template.jsonc` from the source's `spine/wrangler.jsonc`: the
 * same name, compatibility date, key-value namespace, rate limits and cron; the Mailbox
 * and the `Brain` container class as Durable Objects (migrations `v1` and `v2`); the
 * container; the `DB` database with its migrations folder; the cloud vars.
 *
 * @example
 * ```ts
 * import { kitCloudWranglerTemplate } from "./kit_cloud.ts";
 * const source = await Deno.readTextFile(new URL("../spine/wrangler.jsonc", import.meta.url));
 * const text = kitCloudWranglerTemplate(source);
 * if (!text.includes('"AGENT_MODE": "cloud"') || !text.includes('"binding": "DB"')) throw new Error(text);
 * ```
 */
export function kitCloudWranglerTemplate(source: string): string {
  const local = parseJsonc(source);
  const vars = local.vars as Record<string, string>;
  const ratelimits = (local.ratelimits ?? []) as unknown[];
  const kv = (local.kv_namespaces ?? []) as unknown[];
  const mailbox = (local.durable_objects?.bindings ?? []) as unknown[];
  const migrations = (local.migrations ?? []) as { tag: string }[];
  if (migrations.some((m) => m.tag === "v2")) {
    throw new TypeError("Cannot build the cloud template: spine/wrangler.jsonc already has v2");
  }
  const list = (items: readonly unknown[], indent: string) =>
    items.map((item, i) => `${indent}${inline(item)}${i < items.length - 1 ? "," : ""}`)
      .join("\n");
  const localVars = Object.entries(vars).filter(([name]) => name !== "AGENT_MODE")
    .map(([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`).join("\n");
  return `// The spine Worker in cloud mode, from the agent spine kit: the local-mode spine plus
// the relational store DB (state, sessions, messenger updates; migrations/), the brain
// container (./Dockerfile, bound as BRAIN) and the cloud vars. \`agent net spine init
// --cloud\` writes this file as wrangler.jsonc; \`agent net spine deploy\` deploys it,
// applies the database migrations and sets the secrets.
{
  "name": ${JSON.stringify(local.name)},
  // worker.js is already one module. Unlike local mode it is not uploaded with
  // no_bundle, which would attach migrations/*.sql to the Worker as text modules.
  "main": "worker.js",
  ${ROUTE_MARKER}
  "compatibility_date": ${JSON.stringify(local.compatibility_date)},
  "durable_objects": {
    "bindings": [
${list([...mailbox, { name: "BRAIN", class_name: "Brain" }], "      ")}
    ]
  },
  "migrations": [
${list([...migrations, { tag: "v2", new_sqlite_classes: ["Brain"] }], "    ")}
  ],
  // The brain: one container running \`agent cloud run\`, built from ./Dockerfile.
  "containers": [{ "class_name": "Brain", "image": "./Dockerfile", "max_instances": 1 }],
  // State, sessions and messenger updates. Wrangler creates the database on the first
  // deploy (and writes its database_id here); \`agent net spine deploy\` then applies
  // migrations/ with \`wrangler d1 migrations apply DB --remote\`.
  "d1_databases": [
    {
      "binding": "DB",
      "database_name": ${JSON.stringify(CLOUD_DATABASE_NAME)},
      "migrations_dir": "migrations"
    }
  ],
  // Peer cards under peer:<address>, and the cloud files under file:<name>.
  "kv_namespaces": [
${list(kv, "    ")}
  ],
  // A namespace_id is shared by every Worker of the account that uses it: give a
  // second spine on the same account other ids.
  "ratelimits": [
${list(ratelimits, "    ")}
  ],
  "triggers": ${inline(local.triggers)},
  "vars": {
    "AGENT_MODE": "cloud",
${localVars}
    // The spine's public URL, which the brain calls. Empty: \`agent net spine deploy\`
    // fills it with the deployed URL (until then the spine falls back to https://<ADDRESS>).
    "SPINE_URL": "",
    // "1" pings the brain every minute so it never sleeps; "0" lets it sleep after 15
    // minutes without traffic (a messenger update wakes it).
    "KEEP_AWAKE": "0"
  }
  // Secrets, each set by \`agent net spine deploy\` through standard input: HUB_TOKEN, the
  // model credentials the roles need, MESSENGER_BOT_TOKEN, MESSENGER_ALLOWED_CHAT_IDS and
  // AGENT_NET_IDENTITY.
}
`;
}

/** The D1 migrations of `spine/migrations/`, by file name, in name order. */
export async function spineMigrations(): Promise<Record<string, string>> {
  const dir = new URL("spine/migrations/", ROOT);
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".sql")) names.push(entry.name);
  }
  names.sort();
  const out: Record<string, string> = {};
  for (const name of names) out[name] = await Deno.readTextFile(new URL(name, dir));
  return out;
}
