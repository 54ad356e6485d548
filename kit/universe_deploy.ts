/**
 * `agent net universe deploy DIR [--host HOST]` (and `deno task universe:deploy`): the
 * universe Worker, shipped in the kit module `_universe_kit.ts`, written into `DIR` and
 * deployed with its pinned wrangler through the package runner, as the spine is:
 *
 * 1. `write`: `worker.js`, `wrangler.jsonc` and `package.json` into `DIR` (new, empty,
 *    or an earlier universe project, whose files are refreshed);
 * 2. `login`: the pinned wrangler reports a logged-in session (its output names the
 *    account's e-mail and is never shown; the e-mail is masked everywhere after);
 * 3. `install`: `npm install`; 4. `deploy`: `wrangler deploy`.
 *
 * The configuration has `keep_vars` and no `UNIVERSE` var, so a deploy keeps the host
 * the operator set in the dashboard; `--host HOST` writes it instead.
 *
 * @module
 */
import { isAddress } from "@agent/net/common";
import { deployTargets, mask, parseWhoami } from "./spine_deploy.ts";
import { runCommand, type Runner } from "./run_command.ts";

/** The steps, in the order they run. */
export const UNIVERSE_DEPLOY_STEPS = ["write", "login", "install", "deploy"] as const;

/** One of {@linkcode UNIVERSE_DEPLOY_STEPS}. */
export type UniverseDeployStep = typeof UNIVERSE_DEPLOY_STEPS[number];

/** Why a step failed; the CLI words each in the UI language. */
export type UniverseDeployProblem =
  | "not_project"
  | "bad_host"
  | "no_runner"
  | "logged_out"
  | "failed";

/** A failed step. */
export class UniverseDeployError extends Error {
  override name = "UniverseDeployError";
  /** The step that failed. */
  readonly step: UniverseDeployStep;
  /** What went wrong. */
  readonly problem: UniverseDeployProblem;
  /** A detail safe to show. */
  readonly detail: string;
  /** Makes the error. */
  constructor(step: UniverseDeployStep, problem: UniverseDeployProblem, detail = "") {
    super(`Cannot deploy the universe: ${step}: ${problem}${detail ? ` (${detail})` : ""}`);
    this.step = step;
    this.problem = problem;
    this.detail = detail;
  }
}

/** What the deploy tells the screen. */
export interface UniverseDeployHooks {
  /** A step begins. */
  step(step: UniverseDeployStep): void;
  /** A line of wrangler's or npm's output, already masked. */
  output(line: string): void;
}

/** Options for {@linkcode deployUniverse}. */
export interface UniverseDeployOptions {
  /** `--host HOST`: written as the `UNIVERSE` var. @default none: the dashboard's is kept */
  host?: string | undefined;
  /** How commands run. @default {@linkcode runCommand} */
  run?: Runner;
  /** The universe's files. @default the kit's (`_universe_kit.ts`) */
  files?: Readonly<Record<string, string>>;
}

/** What {@linkcode deployUniverse} did. */
export interface UniverseDeployResult {
  /** The project folder, absolute. */
  dir: string;
  /** The `https://` URLs wrangler reported. */
  urls: string[];
}

/** The deployable universe's files by name. Loaded on first use: it holds the bundle. */
export async function universeKitFiles(): Promise<Readonly<Record<string, string>>> {
  return (await import("./_universe_kit.ts")).UNIVERSE_KIT_FILES;
}

/** The project's name in its `package.json`, which marks a folder as a universe project. */
const PROJECT_NAME = "agent-universe";

/**
 * The deployable `wrangler.jsonc` with `UNIVERSE` set to `host`.
 *
 * @example
 * ```ts
 * import { withUniverseHost } from "./universe_deploy.ts";
 * const text = withUniverseHost('{\n  "vars": {\n    "X": "0"\n  }\n}\n', "u.example.com");
 * if (!text.includes('"UNIVERSE": "u.example.com",')) throw new Error(text);
 * ```
 */
export function withUniverseHost(config: string, host: string): string {
  return config.replace(/"vars": \{\n/, (m) => `${m}    "UNIVERSE": ${JSON.stringify(host)},\n`);
}

/** Writes the universe project into `dir`; refuses a folder that holds something else. */
async function writeProject(
  dir: string,
  files: Readonly<Record<string, string>>,
  host: string | undefined,
): Promise<void> {
  let entries: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) entries.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new UniverseDeployError("write", "not_project", dir);
    }
    entries = [];
  }
  if (entries.length > 0) {
    let name: unknown;
    try {
      name = JSON.parse(await Deno.readTextFile(`${dir}/package.json`)).name;
    } catch { /* not a project */ }
    if (name !== PROJECT_NAME) throw new UniverseDeployError("write", "not_project", dir);
  }
  await Deno.mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const body = name === "wrangler.jsonc" && host !== undefined
      ? withUniverseHost(text, host)
      : text;
    await Deno.writeTextFile(`${dir}/${name}`, body);
  }
}

/**
 * Writes and deploys the universe in `dir`, step by step.
 *
 * @throws {UniverseDeployError} naming the step that failed.
 */
export async function deployUniverse(
  dir: string,
  hooks: UniverseDeployHooks,
  options: UniverseDeployOptions = {},
): Promise<UniverseDeployResult> {
  const run = options.run ?? runCommand;
  const host = options.host;
  if (host !== undefined && (!isAddress(host) || host.includes(":"))) {
    throw new UniverseDeployError("write", "bad_host", host);
  }
  const target = dir.startsWith("/") ? dir : `${Deno.cwd()}/${dir}`;
  const files = options.files ?? await universeKitFiles();
  const wrangler = JSON.parse(files["package.json"] ?? "{}").devDependencies?.wrangler;
  if (typeof wrangler !== "string") throw new TypeError("The universe kit pins no wrangler");

  hooks.step("write");
  await writeProject(target, files, host);

  const secrets: string[] = [];
  const show = (line: string) => hooks.output(mask(line, secrets));
  hooks.step("login");
  const whoami = await run("npx", ["--yes", `wrangler@${wrangler}`, "whoami", "--json"], {
    cwd: target,
    capture: true,
  });
  if (whoami.code === -1) throw new UniverseDeployError("login", "no_runner", "npx");
  const session = parseWhoami(whoami.stdout);
  if (session.email) secrets.push(session.email);
  if (!session.loggedIn) throw new UniverseDeployError("login", "logged_out");

  hooks.step("install");
  const installed = await run("npm", ["install", "--no-audit", "--no-fund"], {
    cwd: target,
    onLine: show,
  });
  if (installed.code === -1) throw new UniverseDeployError("install", "no_runner", "npm");
  if (installed.code !== 0) {
    throw new UniverseDeployError("install", "failed", `exit ${installed.code}`);
  }

  hooks.step("deploy");
  const outputDir = await Deno.makeTempDir({ prefix: "agent-wrangler-" });
  try {
    const outputFile = `${outputDir}/output.jsonl`;
    const deployed = await run("npx", ["wrangler", "deploy"], {
      cwd: target,
      onLine: show,
      env: { WRANGLER_OUTPUT_FILE_PATH: outputFile },
    });
    if (deployed.code === -1) throw new UniverseDeployError("deploy", "no_runner", "npx");
    if (deployed.code !== 0) {
      throw new UniverseDeployError("deploy", "failed", `exit ${deployed.code}`);
    }
    const urls = (await deployTargets(outputFile)).filter((t) => t.startsWith("https://"));
    return { dir: target, urls };
  } finally {
    await Deno.remove(outputDir, { recursive: true }).catch(() => {});
  }
}
