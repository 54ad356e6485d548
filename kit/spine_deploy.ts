/**
 * `agent net spine deploy DIR`: the spec's four steps, in order, with wrangler run
 * through the package runner (`npx`):
 *
 * 1. the runner exists and the pinned wrangler reports a logged-in session (its output
 *    holds the account's e-mail and is never shown);
 * 2. `npm install --no-audit --no-fund`, then `wrangler deploy`;
 * 3. the hub's token, generated into `.env` when missing, fed to `wrangler secret put
 *    HUB_TOKEN` on standard input only;
 * 4. `AGENT_SPINE_URL` into `.env`: `https://<address>`, else the URL the deploy wrote
 *    into wrangler's machine-readable output file.
 *
 * The hub's `.env` is reached through {@linkcode DeployHooks}, so this module knows no
 * hub; every line shown passes through a mask that hides the token and the e-mail.
 *
 * @module
 */
import { isAddress } from "@agent/net/common";

/** The steps, in the order they run. */
export const DEPLOY_STEPS = ["login", "install", "deploy", "secret", "url"] as const;

/** One of {@linkcode DEPLOY_STEPS}. */
export type DeployStep = typeof DEPLOY_STEPS[number];

/** Why a step failed; the CLI words each in the UI language. */
export type DeployProblem =
  | "not_project"
  | "bad_address"
  | "no_runner"
  | "logged_out"
  | "failed"
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

/** What a command run through {@linkcode Runner} returned. */
export interface RunResult {
  /** The exit code; -1 when the program does not exist. */
  code: number;
  /** Standard output (only when `capture` was asked for). */
  stdout: string;
}

/** How a command is run. */
export interface RunOptions {
  /** The working directory. */
  cwd: string;
  /** Text written to standard input, which is then closed. */
  stdin?: string;
  /** Variables added to the inherited environment. */
  env?: Record<string, string>;
  /** Keep standard output instead of passing its lines to `onLine`. */
  capture?: boolean;
  /** Receives each line of output (standard output and error) as it comes. */
  onLine?: (line: string) => void;
}

/** Runs `program args` and returns its exit code (and output when captured). */
export type Runner = (program: string, args: string[], options: RunOptions) => Promise<RunResult>;

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
}

/** Options for {@linkcode deploySpine}. */
export interface DeployOptions {
  /** `--address HOST`: the URL written is `https://HOST`. */
  address?: string | undefined;
  /** How commands run. @default {@linkcode runCommand} */
  run?: Runner;
}

/** What {@linkcode deploySpine} did. */
export interface DeployResult {
  /** The spine's URL, written as `AGENT_SPINE_URL`. */
  url: string;
  /** Whether the token was made now (else the hub's existing one was kept). */
  tokenCreated: boolean;
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
  const wrangler = await pinnedWrangler(dir);
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

  hooks.step("url");
  const url = address !== undefined
    ? `https://${address}`
    : deployed.find((target) => /^https:\/\/[^\s/]+\.workers\.dev$/.test(target));
  if (url === undefined) throw new SpineDeployError("url", "no_url");
  await hooks.writeEnv("AGENT_SPINE_URL", url);
  return { url, tokenCreated };
}

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
 * ```
 */
export function mask(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const secret of secrets) if (secret !== "") out = out.split(secret).join("***");
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

async function pinnedWrangler(dir: string): Promise<string> {
  let pkg: { devDependencies?: Record<string, unknown> };
  try {
    pkg = JSON.parse(await Deno.readTextFile(`${dir}/package.json`));
    await Deno.stat(`${dir}/wrangler.jsonc`);
  } catch {
    throw new SpineDeployError("login", "not_project", dir);
  }
  const version = pkg.devDependencies?.wrangler;
  if (typeof version !== "string" || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new SpineDeployError("login", "not_project", dir);
  }
  return version;
}

async function mustRun(
  run: Runner,
  step: DeployStep,
  program: string,
  args: string[],
  cwd: string,
  onLine: (line: string) => void,
  env?: Record<string, string>,
): Promise<void> {
  const result = await run(program, args, { cwd, onLine, ...(env ? { env } : {}) });
  if (result.code === -1) throw new SpineDeployError(step, "no_runner", program);
  if (result.code !== 0) throw new SpineDeployError(step, "failed", `exit ${result.code}`);
}

/** Runs a program with `Deno.Command`; a program that does not exist gives code -1. */
export async function runCommand(
  program: string,
  args: string[],
  options: RunOptions,
): Promise<RunResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: options.cwd,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      env: { WRANGLER_SEND_METRICS: "false", ...options.env },
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { code: -1, stdout: "" };
    throw error;
  }
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const chunks: string[] = [];
  // "keep" collects standard output; "drop" discards (a captured run's standard error,
  // which may name the account too); "show" passes each line on.
  const pump = async (stream: ReadableStream<Uint8Array>, mode: "keep" | "drop" | "show") => {
    let rest = "";
    const decoder = new TextDecoder();
    for await (const bytes of stream) {
      const text = decoder.decode(bytes, { stream: true });
      if (mode === "keep") chunks.push(text);
      if (mode !== "show") continue;
      rest += text;
      const lines = rest.split(/\r?\n/);
      rest = lines.pop() ?? "";
      for (const line of lines) options.onLine?.(line);
    }
    if (mode === "show" && rest !== "") options.onLine?.(rest);
  };
  const captured = options.capture === true;
  await Promise.all([
    pump(child.stdout, captured ? "keep" : "show"),
    pump(child.stderr, captured ? "drop" : "show"),
  ]);
  const status = await child.status;
  return { code: status.code, stdout: options.capture ? chunks.join("") : "" };
}
