/**
 * `agent net spine deploy DIR`: the spec's four steps, in order, with wrangler run
 * through the package runner (`npx`):
 *
 * 1. the runner exists and the pinned wrangler reports a logged-in session (its output
 *    holds the account's e-mail and is never shown);
 * 2. `npm install --no-audit --no-fund`, then `wrangler deploy`, then `wrangler d1
 *    migrations apply DB --remote` when the project binds `DB`;
 * 3. the hub's token, generated into `.env` when missing, fed to `wrangler secret put
 *    HUB_TOKEN` on standard input only; in a cloud project (`AGENT_MODE=cloud`) then each
 *    cloud secret the hub has, one at a time, the same way;
 * 4. `AGENT_SPINE_URL` into `.env`: `https://<address>`, else a cloud project's
 *    `SPINE_URL`, else the URL the deploy wrote into wrangler's machine-readable output
 *    file. In a cloud project an empty `SPINE_URL` is then filled with it and the spine
 *    deployed again, and with a `MESSENGER_BOT_TOKEN` the messenger's webhook is
 *    registered at the spine.
 *
 * The hub's `.env` is reached through {@linkcode DeployHooks}, so this module knows no
 * hub; every line shown passes through a mask that hides the token, each secret and the
 * e-mail.
 *
 * @module
 */
import { isAddress } from "@agent/net/common";
import {
  fillSpineUrl,
  readSpineProject,
  registerWebhook,
  WebhookError,
} from "./spine_deploy_cloud.ts";
import type { SpineProjectInfo } from "./spine_deploy_cloud.ts";
import { runCommand, type Runner } from "./run_command.ts";

export * from "./run_command.ts";

/**
 * The steps, in the order they run; `migrate` only with a `DB` binding, `secrets`,
 * `spine_url` and `webhook` only in cloud mode.
 */
export const DEPLOY_STEPS = [
  "login",
  "install",
  "deploy",
  "migrate",
  "secret",
  "secrets",
  "url",
  "spine_url",
  "webhook",
] as const;

/** One of {@linkcode DEPLOY_STEPS}. */
export type DeployStep = typeof DEPLOY_STEPS[number];

/** Why a step failed; the CLI words each in the UI language. */
export type DeployProblem =
  | "not_project"
  | "bad_address"
  | "no_runner"
  | "logged_out"
  | "failed"
  | "refused"
  | "no_url";

/** A failed step. */
export class SpineDeployError extends Error {
  override name = "SpineDeployError";
  /** The step that failed. */
  readonly step: DeployStep;
  /** What went wrong. */
  readonly problem: DeployProblem;
  /** A detail safe to show (never the token or the e-mail). */
  readonly detail: string;
  /** Makes the error. */
  constructor(step: DeployStep, problem: DeployProblem, detail = "") {
    super(`Cannot deploy the spine: ${step}: ${problem}${detail ? ` (${detail})` : ""}`);
    this.step = step;
    this.problem = problem;
    this.detail = detail;
  }
}

/** What the deploy needs from the hub and the screen. */
export interface DeployHooks {
  /** A step begins. */
  step(step: DeployStep): void;
  /** A line of wrangler's or npm's output, already masked. */
  output(line: string): void;
  /** The hub's `AGENT_SPINE_TOKEN`, if it has one. */
  readToken(): Promise<string | undefined>;
  /** Writes `name=value` into the hub's `.env` (mode 0600). */
  writeEnv(name: string, value: string): Promise<void>;
  /**
   * Cloud mode: the secrets to set besides `HUB_TOKEN`, as `[name, value]` pairs with
   * non-empty values, in order. @default none
   */
  cloudSecrets?(): Promise<ReadonlyArray<readonly [string, string]>>;
  /** A cloud secret was set (its name only). */
  secretSet?(name: string): void;
}

/** Options for {@linkcode deploySpine}. */
export interface DeployOptions {
  /** `--address HOST`: the URL written is `https://HOST`. */
  address?: string | undefined;
  /** How commands run. @default {@linkcode runCommand} */
  run?: Runner;
  /** `MESSENGER_API_ROOT`: the Bot API the webhook is registered with. @default the public one */
  messengerApiRoot?: string | undefined;
  /** How the webhook request is sent. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** What {@linkcode deploySpine} did. */
export interface DeployResult {
  /** The spine's URL, written as `AGENT_SPINE_URL`. */
  url: string;
  /** Whether the token was made now (else the hub's existing one was kept). */
  tokenCreated: boolean;
  /** Whether the project is in cloud mode. */
  cloud: boolean;
  /** The cloud secrets set besides `HUB_TOKEN`, by name. */
  secrets: string[];
  /** Whether `SPINE_URL` was filled in `wrangler.jsonc` (and the spine deployed again). */
  spineUrlFilled: boolean;
  /** Whether the messenger's webhook was registered. */
  webhook: boolean;
}

/**
 * Deploys the spine project in `dir`, step by step.
 *
 * @throws {SpineDeployError} naming the step that failed; `.env` then holds at most a
 * token that the next deploy puts again, never a URL without its token.
 */
export async function deploySpine(
  dir: string,
  hooks: DeployHooks,
  options: DeployOptions = {},
): Promise<DeployResult> {
  const run = options.run ?? runCommand;
  const address = options.address;
  if (address !== undefined && (!isAddress(address) || address.includes(":"))) {
    throw new SpineDeployError("login", "bad_address", address);
  }
  const { wrangler, project } = await readProject(dir);
  const secrets: string[] = [];
  const show = (line: string) => hooks.output(mask(line, secrets));

  hooks.step("login");
  const whoami = await run("npx", ["--yes", `wrangler@${wrangler}`, "whoami", "--json"], {
    cwd: dir,
    capture: true,
  });
  if (whoami.code === -1) throw new SpineDeployError("login", "no_runner", "npx");
  const session = parseWhoami(whoami.stdout);
  if (session.email) secrets.push(session.email);
  if (!session.loggedIn) throw new SpineDeployError("login", "logged_out");

  hooks.step("install");
  await mustRun(run, "install", "npm", ["install", "--no-audit", "--no-fund"], dir, show);

  hooks.step("deploy");
  const outputDir = await Deno.makeTempDir({ prefix: "agent-wrangler-" });
  const outputFile = `${outputDir}/output.jsonl`;
  let deployed: string[];
  try {
    await mustRun(run, "deploy", "npx", ["wrangler", "deploy"], dir, show, {
      WRANGLER_OUTPUT_FILE_PATH: outputFile,
    });
    deployed = await deployTargets(outputFile);
  } finally {
    await Deno.remove(outputDir, { recursive: true }).catch(() => {});
  }

  if (project.database) {
    hooks.step("migrate");
    await mustRun(run, "migrate", "npx", D1_MIGRATE, dir, show);
  }

  hooks.step("secret");
  let token = await hooks.readToken();
  const tokenCreated = token === undefined || token === "";
  if (tokenCreated) {
    token = newToken();
    await hooks.writeEnv("AGENT_SPINE_TOKEN", token);
  }
  secrets.push(token!);
  const put = await run("npx", ["wrangler", "secret", "put", "HUB_TOKEN"], {
    cwd: dir,
    stdin: token!,
    onLine: show,
  });
  if (put.code !== 0) throw new SpineDeployError("secret", "failed", `exit ${put.code}`);

  const cloudSecrets: Array<readonly [string, string]> = [];
  const set: string[] = [];
  if (project.cloud) {
    hooks.step("secrets");
    cloudSecrets.push(...(await hooks.cloudSecrets?.() ?? []));
    // Every value is masked before the first one goes in: wrangler may echo any of them.
    for (const [, value] of cloudSecrets) if (value !== "") secrets.push(value);
    for (const [name, value] of cloudSecrets) {
      if (value === "") continue;
      const result = await run("npx", ["wrangler", "secret", "put", name], {
        cwd: dir,
        stdin: value,
        onLine: show,
      });
      if (result.code === -1) throw new SpineDeployError("secrets", "no_runner", "npx");
      if (result.code !== 0) {
        throw new SpineDeployError("secrets", "failed", `${name}, exit ${result.code}`);
      }
      set.push(name);
      hooks.secretSet?.(name);
    }
  }

  hooks.step("url");
  // A cloud project's SPINE_URL is its public URL already (set by init --address or
  // filled by an earlier deploy).
  const url = address !== undefined
    ? `https://${address}`
    : project.cloud && project.spineUrl !== ""
    ? project.spineUrl.replace(/\/+$/, "")
    : deployed.find((target) => /^https:\/\/[^\s/]+\.workers\.dev$/.test(target));
  if (url === undefined) throw new SpineDeployError("url", "no_url");
  await hooks.writeEnv("AGENT_SPINE_URL", url);

  let spineUrlFilled = false;
  if (project.cloud && project.spineUrl === "") {
    const file = `${dir}/wrangler.jsonc`;
    const filled = fillSpineUrl(await Deno.readTextFile(file), url);
    if (filled !== undefined) {
      hooks.step("spine_url");
      await Deno.writeTextFile(file, filled);
      await mustRun(run, "spine_url", "npx", ["wrangler", "deploy"], dir, show);
      spineUrlFilled = true;
    }
  }

  const botToken = cloudSecrets.find(([name]) => name === "MESSENGER_BOT_TOKEN")?.[1] ?? "";
  let webhook = false;
  if (project.cloud && botToken !== "") {
    hooks.step("webhook");
    try {
      await registerWebhook({
        botToken,
        apiRoot: options.messengerApiRoot,
        spineUrl: url,
        hubToken: token!,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    } catch (error) {
      if (!(error instanceof WebhookError)) throw error;
      throw new SpineDeployError("webhook", "refused", mask(error.message, secrets));
    }
    webhook = true;
  }
  return { url, tokenCreated, cloud: project.cloud, secrets: set, spineUrlFilled, webhook };
}

/** The remote migration command of a project with a `DB` binding. */
export const D1_MIGRATE: readonly string[] = [
  "wrangler",
  "d1",
  "migrations",
  "apply",
  "DB",
  "--remote",
];

/** A fresh hub token: 32 random bytes, base64url without padding. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * Hides every secret in `line`.
 *
 * @example
 * ```ts
 * import { mask } from "./spine_deploy.ts";
 * if (mask("token abc!", ["abc"]) !== "token ***!") throw new Error();
 * if (mask("ids 4242,515", ["42", "4242,515"]) !== "ids ***") throw new Error();
 * ```
 */
export function mask(line: string, secrets: readonly string[]): string {
  let out = line;
  // Longest first, so a secret inside another one cannot leave the rest of it shown.
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  for (const secret of ordered) if (secret !== "") out = out.split(secret).join("***");
  return out;
}

/**
 * Reads `wrangler whoami --json`: logged in only when it says so; the e-mail is kept
 * to be masked, never shown.
 */
export function parseWhoami(stdout: string): { loggedIn: boolean; email?: string } {
  const start = stdout.indexOf("{");
  const end = stdout.lastIndexOf("}");
  if (start < 0 || end < start) return { loggedIn: false };
  try {
    const value = JSON.parse(stdout.slice(start, end + 1));
    const email = typeof value?.email === "string" ? value.email : undefined;
    return { loggedIn: value?.loggedIn === true, ...(email ? { email } : {}) };
  } catch {
    return { loggedIn: false };
  }
}

/** The URLs of every `deploy` entry of wrangler's output file (one JSON object a line). */
export async function deployTargets(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const targets: string[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line);
      if (entry?.type === "deploy" && Array.isArray(entry.targets)) {
        for (const target of entry.targets) if (typeof target === "string") targets.push(target);
      }
    } catch {
      // A line wrangler did not finish writing names no target.
    }
  }
  return targets;
}

async function readProject(dir: string): Promise<{ wrangler: string; project: SpineProjectInfo }> {
  let pkg: { devDependencies?: Record<string, unknown> };
  let project: SpineProjectInfo;
  try {
    pkg = JSON.parse(await Deno.readTextFile(`${dir}/package.json`));
    project = readSpineProject(await Deno.readTextFile(`${dir}/wrangler.jsonc`));
  } catch {
    throw new SpineDeployError("login", "not_project", dir);
  }
  const version = pkg.devDependencies?.wrangler;
  if (typeof version !== "string" || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new SpineDeployError("login", "not_project", dir);
  }
  return { wrangler: version, project };
}

async function mustRun(
  run: Runner,
  step: DeployStep,
  program: string,
  args: readonly string[],
  cwd: string,
  onLine: (line: string) => void,
  env?: Record<string, string>,
): Promise<void> {
  const result = await run(program, [...args], { cwd, onLine, ...(env ? { env } : {}) });
  if (result.code === -1) throw new SpineDeployError(step, "no_runner", program);
  if (result.code !== 0) throw new SpineDeployError(step, "failed", `exit ${result.code}`);
}
