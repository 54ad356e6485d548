/**
 * `agent net spine init DIR [--cloud]`: a deployable spine project written from the
 * kit (`kit/spine/`, shipped as strings in the generated `_spine_kit.ts`, so it works
 * from a package, the bundle or a binary): `wrangler.jsonc`, `worker.js`, `package.json`,
 * `.gitignore` and a `README.md` with the next commands; with `--cloud` the cloud-mode
 * configuration instead, plus the brain's `Dockerfile`, the CLI's bundle `agent.js` that it
 * copies (given by the caller: see `brain_bundle.ts`) and the database `migrations/`.
 * Nothing is written unless all of it is.
 *
 * @module
 */
import { isAddress } from "@agent/net/common";

/** A spine kit: its files by their path in `kit/spine/`. */
export type SpineKit = Readonly<Record<string, string>>;

/**
 * The kit this module writes projects from, by path in `kit/spine/`. Loaded on first
 * use: it holds the bundled spine.
 */
export async function spineKitFiles(): Promise<SpineKit> {
  return (await import("./_spine_kit.ts")).SPINE_KIT_FILES;
}

/** The line of a kit template that {@linkcode renderWrangler} replaces with a route. */
export const ROUTE_MARKER = "// routes: written by `agent net spine init --address HOST`";

/** The platform's default domain: a spine there needs no route of its own. */
export const DEFAULT_SUBDOMAIN_SUFFIX = ".workers.dev";

/** The rate-limit namespace ids the spec names (document 2). */
export const DEFAULT_LIMIT_IDS = { ip: "10501", sender: "10502" } as const;

/** The files `init` writes, in order. */
export const SPINE_PROJECT_FILES = [
  "wrangler.jsonc",
  "worker.js",
  "package.json",
  ".gitignore",
  "README.md",
] as const;

/** The files `init --cloud` writes besides {@linkcode SPINE_PROJECT_FILES}; migrations follow. */
export const CLOUD_PROJECT_FILES = ["Dockerfile", ".dockerignore", "agent.js"] as const;

/**
 * The cloud project's `.dockerignore`: the image needs `agent.js` alone, so the engine is
 * sent nothing else of the folder (not `node_modules/`, not `.dev.vars`).
 */
export const CLOUD_DOCKERIGNORE =
  "# The brain's image copies agent.js alone: nothing else here goes to the engine.\n*\n!agent.js\n";

/** Why {@linkcode initSpineProject} refused; the CLI words each in the UI language. */
export type SpineInitProblem =
  | "not_empty"
  | "not_directory"
  | "bad_address"
  | "address_port"
  | "bad_limit_id"
  | "same_limit_ids";

/** A refusal of {@linkcode initSpineProject}; nothing was written. */
export class SpineInitError extends Error {
  override name = "SpineInitError";
  /** What was wrong. */
  readonly problem: SpineInitProblem;
  /** The directory or value concerned. */
  readonly subject: string;
  /** Makes the error. */
  constructor(problem: SpineInitProblem, subject: string) {
    super(`Cannot write the spine project: ${problem} (${subject})`);
    this.problem = problem;
    this.subject = subject;
  }
  /** Whether the user typed something invalid (a usage error, exit 2). */
  get isUsage(): boolean {
    return this.problem !== "not_empty" && this.problem !== "not_directory";
  }
}

/** Options for {@linkcode initSpineProject} and {@linkcode renderWrangler}. */
export interface SpineInitOptions {
  /** The spine's host (`--address`). @default the platform's `agent-spine.<subdomain>` */
  address?: string | undefined;
  /** The `INBOX_IP_LIMIT` namespace id. @default "10501" */
  ipLimitId?: string | undefined;
  /** The `INBOX_SENDER_LIMIT` namespace id. @default "10502" */
  senderLimitId?: string | undefined;
  /**
   * Write the cloud-mode configuration (`AGENT_MODE=cloud`, the `DB` database, the brain
   * container), the `Dockerfile`, `agent.js` and `migrations/`. @default false
   */
  cloud?: boolean | undefined;
  /** The kit's files. @default {@linkcode spineKitFiles} */
  kit?: SpineKit;
  /**
   * The brain's `agent.js`, or a function giving it (called once the options and the
   * directory are accepted: making one takes seconds); needed with `cloud`.
   */
  bundle?: Uint8Array | (() => Promise<Uint8Array>) | undefined;
}

/** What {@linkcode initSpineProject} wrote. */
export interface SpineInitResult {
  /** The project directory, absolute. */
  dir: string;
  /** The files written, by name. */
  files: readonly string[];
  /** The address given, if any. */
  address: string | undefined;
  /** Whether `wrangler.jsonc` routes a custom domain to the spine. */
  customDomain: boolean;
  /** Whether the project is in cloud mode. */
  cloud: boolean;
}

/**
 * Checks the options: an address the network accepts and a route can serve (no port),
 * and two different numeric namespace ids.
 *
 * @throws {SpineInitError} a usage problem.
 */
export function checkSpineOptions(options: SpineInitOptions): void {
  const address = options.address;
  if (address !== undefined) {
    if (!isAddress(address)) throw new SpineInitError("bad_address", address);
    if (address.includes(":")) throw new SpineInitError("address_port", address);
  }
  const ip = options.ipLimitId ?? DEFAULT_LIMIT_IDS.ip;
  const sender = options.senderLimitId ?? DEFAULT_LIMIT_IDS.sender;
  for (const id of [ip, sender]) {
    if (!/^[1-9][0-9]{0,9}$/.test(id)) throw new SpineInitError("bad_limit_id", id);
  }
  if (ip === sender) throw new SpineInitError("same_limit_ids", ip);
}

/** Whether `address` is under the platform's default domain (no route needed). */
export function onDefaultSubdomain(address: string): boolean {
  return address.endsWith(DEFAULT_SUBDOMAIN_SUFFIX);
}

/**
 * The project's `wrangler.jsonc` from the kit's template: `ADDRESS` (and in the cloud
 * template `SPINE_URL` = `https://<address>`) and, for a host outside the default
 * domain, a custom-domain route; the chosen namespace ids.
 *
 * @example
 * ```ts
 * import { renderWrangler } from "./spine_init.ts";
 * const template = '{\n  "main": "worker.js",\n  // routes: x\n  "vars": { "ADDRESS": "" }\n}\n';
 * const text = renderWrangler(template, { address: "spine.example.com" });
 * if (!text.includes('"pattern": "spine.example.com", "custom_domain": true')) throw new Error(text);
 * ```
 */
export function renderWrangler(template: string, options: SpineInitOptions): string {
  const address = options.address;
  const lines = template.split("\n").map((line) => {
    if (line.trim().startsWith("// routes:")) {
      if (address === undefined || onDefaultSubdomain(address)) return undefined;
      return `  "routes": [{ "pattern": ${JSON.stringify(address)}, "custom_domain": true }],`;
    }
    return line;
  }).filter((line): line is string => line !== undefined);
  let text = lines.join("\n");
  if (address !== undefined) {
    text = text.replace('"ADDRESS": ""', `"ADDRESS": ${JSON.stringify(address)}`)
      .replace('"SPINE_URL": ""', `"SPINE_URL": ${JSON.stringify(`https://${address}`)}`);
  }
  text = text
    .replace(
      `"namespace_id": "${DEFAULT_LIMIT_IDS.ip}"`,
      `"namespace_id": "${options.ipLimitId ?? DEFAULT_LIMIT_IDS.ip}"`,
    )
    .replace(
      `"namespace_id": "${DEFAULT_LIMIT_IDS.sender}"`,
      `"namespace_id": "${options.senderLimitId ?? DEFAULT_LIMIT_IDS.sender}"`,
    );
  return text;
}

/**
 * Writes a spine project into `dir` (created when missing): refuses a directory that
 * is not empty or a path that is not a directory, and writes nothing then. The files
 * are written into a sibling temporary folder that is renamed into place, so a crash
 * leaves either the whole project or none of it.
 *
 * @throws {SpineInitError} when refused; whatever a `bundle` function throws.
 */
export async function initSpineProject(
  dir: string,
  options: SpineInitOptions = {},
): Promise<SpineInitResult> {
  checkSpineOptions(options);
  const target = absolutePath(dir);
  await checkTarget(target);
  const kit = options.kit ?? await spineKitFiles();
  const read = (name: string): string => {
    const text = kit[name];
    if (text === undefined) {
      throw new TypeError(`Cannot write the spine project: the kit has no ${name}`);
    }
    return text;
  };
  const version = read("VERSION").trim();
  const cloud = options.cloud === true;
  if (cloud && options.bundle === undefined) {
    throw new TypeError("Cannot write a cloud spine project: no bundle for the brain was given");
  }
  const template = cloud ? "cloud/wrangler.template.jsonc" : "wrangler.template.jsonc";
  const contents: Record<string, string | Uint8Array> = {
    "wrangler.jsonc": renderWrangler(read(template), options),
    "worker.js": read("worker.js"),
    "package.json": read("package.template.json"),
    ".gitignore": "node_modules/\n.wrangler/\n.dev.vars\n.env\n",
    "README.md": cloud
      ? cloudProjectReadme(target, version, options)
      : projectReadme(target, version, options),
  };
  if (cloud) {
    contents["Dockerfile"] = read("cloud/Dockerfile");
    contents[".dockerignore"] = CLOUD_DOCKERIGNORE;
    const bundle = options.bundle!;
    contents["agent.js"] = typeof bundle === "function" ? await bundle() : bundle;
    for (const name of kitMigrations(kit)) {
      contents[`migrations/${name}`] = read(`cloud/migrations/${name}`);
    }
  }
  const files = Object.keys(contents);
  const parent = target.replace(/\/[^/]*\/?$/, "") || "/";
  await Deno.mkdir(parent, { recursive: true });
  const staging = await Deno.makeTempDir({ dir: parent, prefix: ".agent-spine-" });
  try {
    for (const name of files) {
      if (name.includes("/")) {
        await Deno.mkdir(`${staging}/${name.replace(/\/[^/]*$/, "")}`, { recursive: true });
      }
      const content = contents[name]!;
      if (typeof content === "string") await Deno.writeTextFile(`${staging}/${name}`, content);
      else await Deno.writeFile(`${staging}/${name}`, content);
    }
    await checkTarget(target);
    await Deno.rename(staging, target);
    await Deno.chmod(target, 0o755);
  } catch (error) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    throw error;
  }
  const address = options.address;
  return {
    dir: target,
    files,
    address,
    customDomain: address !== undefined && !onDefaultSubdomain(address),
    cloud,
  };
}

function kitMigrations(kit: SpineKit): string[] {
  const prefix = "cloud/migrations/";
  return Object.keys(kit).filter((name) => name.startsWith(prefix) && name.endsWith(".sql"))
    .map((name) => name.slice(prefix.length)).sort();
}

async function checkTarget(target: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(target);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (!info.isDirectory) throw new SpineInitError("not_directory", target);
  for await (const _ of Deno.readDir(target)) throw new SpineInitError("not_empty", target);
}

function absolutePath(path: string): string {
  const joined = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

function projectReadme(dir: string, version: string, options: SpineInitOptions): string {
  const address = options.address;
  const where = address === undefined
    ? "`agent-spine.<your subdomain>.workers.dev`, the platform's default domain (the deploy prints it)"
    : onDefaultSubdomain(address)
    ? `\`${address}\``
    : `\`${address}\`, a custom domain: its zone must be on your account; the deploy adds the route`;
  const ip = options.ipLimitId ?? DEFAULT_LIMIT_IDS.ip;
  const sender = options.senderLimitId ?? DEFAULT_LIMIT_IDS.sender;
  return `# An agent spine (spine ${version})

Written by \`agent net spine init\`. This folder is the inbox of one agent on the edge
platform: other agents post signed, sealed envelopes to it, and your hub fetches them.
It will answer at ${where}.

## What is here

| file | what it is |
|---|---|
| \`wrangler.jsonc\` | the Worker's configuration: the Mailbox Durable Object, the peer-card key-value namespace, two inbox rate limits, a per-minute cron, the vars |
| \`worker.js\` | the spine, bundled into one module: there is no build step |
| \`package.json\` | wrangler, pinned exactly |
| \`.gitignore\` | what stays out of version control |

## Next commands

1. \`npx wrangler login\` once, if you have not logged in to the edge platform.
2. \`agent net spine deploy ${dir}\`${
    address === undefined ? "" : ` --address ${address}`
  }: installs wrangler, deploys, sets the secret \`HUB_TOKEN\`, and writes
   \`AGENT_SPINE_URL\` and \`AGENT_SPINE_TOKEN\` into your hub's \`.env\`.
3. \`agent net init\` (your identity) and \`agent net publish\` (your card on this spine).
4. \`agent doctor\` checks the whole path.

## Try it on this machine first

Before deploying, wrangler runs the spine here, on its own local runtime:

1. \`npm install\` in this folder (wrangler, pinned).
2. A \`.dev.vars\` file in this folder (it stays out of version control) with the secret
   and the local address:

   \`\`\`sh
   HUB_TOKEN=a-long-random-string
   ADDRESS=127.0.0.1:8787
   ALLOW_INSECURE_PEERS=1
   \`\`\`
3. \`npx wrangler dev --port 8787\`.
4. In your hub's \`.env\`: \`AGENT_SPINE_URL=http://127.0.0.1:8787\`,
   \`AGENT_SPINE_TOKEN=a-long-random-string\` (the same string) and
   \`AGENT_NET_ALLOW_INSECURE=1\`; then \`agent net init\` and \`agent net publish\`. A second
   spine on this machine takes another port (and its hub another \`[hub] port\`).

## Rate-limit namespaces

The inbox counts envelopes per client IP (namespace \`${ip}\`) and per sender (namespace
\`${sender}\`). A namespace id is shared by every Worker of one account that uses it: a
second spine on the same account should get other ids, or both spines share their
counters. Choose them at init (\`--ip-limit-id N --sender-limit-id M\`) or edit
\`namespace_id\` in \`wrangler.jsonc\` before deploying.
`;
}

function cloudProjectReadme(dir: string, version: string, options: SpineInitOptions): string {
  const address = options.address;
  const where = address === undefined
    ? "`agent-spine.<your subdomain>.workers.dev`, the platform's default domain (the deploy prints it and writes it into `SPINE_URL`)"
    : onDefaultSubdomain(address)
    ? `\`${address}\``
    : `\`${address}\`, a custom domain: its zone must be on your account; the deploy adds the route`;
  return `# An agent spine in cloud mode (spine ${version})

Written by \`agent net spine init --cloud\`. This folder runs your whole agent on the edge
platform: the spine (inbox, state, files, sessions, the messenger webhook) and the brain,
a container running \`agent cloud run\` that the spine starts when it is needed. It will
answer at ${where}.

## What is here

| file | what it is |
|---|---|
| \`wrangler.jsonc\` | the Worker's configuration in cloud mode: the Mailbox and the \`Brain\` container Durable Objects, the relational store \`DB\`, the key-value namespace, two inbox rate limits, a per-minute cron, the vars \`AGENT_MODE=cloud\`, \`SPINE_URL\`, \`KEEP_AWAKE\` |
| \`worker.js\` | the spine, bundled into one module |
| \`Dockerfile\` | the brain's image; \`wrangler deploy\` builds it, which needs a running Docker engine on this machine |
| \`agent.js\` | the agent's command line as one module, which the image copies: the build fetches nothing but the base image. To update the brain, put a newer \`agent.js\` here and deploy again |
| \`.dockerignore\` | keeps everything but \`agent.js\` out of the image build |
| \`migrations/\` | the relational store's tables, applied by the deploy |
| \`package.json\` | wrangler, pinned exactly |
| \`.gitignore\` | what stays out of version control |

## Next commands

1. \`npx wrangler login\` once, if you have not logged in to the edge platform.
2. \`agent net spine deploy ${dir}\`${
    address === undefined ? "" : ` --address ${address}`
  }: installs wrangler, deploys (creating the database
   and the key-value namespace), applies \`migrations/\`, sets the secrets through standard
   input (\`HUB_TOKEN\`, the model credentials your roles need, \`MESSENGER_BOT_TOKEN\`,
   \`MESSENGER_ALLOWED_CHAT_IDS\`, \`AGENT_NET_IDENTITY\`; those your hub has), writes
   \`AGENT_SPINE_URL\` and \`AGENT_SPINE_TOKEN\` into your hub's \`.env\` and registers the
   messenger webhook.
3. \`agent cloud push\` uploads your configuration and persona; the brain reads them when it
   starts.

The brain's spend ledger lives on the container's disk and is lost whenever the container
stops: keep a monthly limit in each model provider's console too.
`;
}
