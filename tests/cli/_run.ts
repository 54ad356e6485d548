/**
 * Runs the real `agent` command in a clean environment whose HOME is a temporary
 * directory: in this process when nothing about the run needs a process of its own,
 * else as a subprocess with the `agent` task's permissions.
 *
 * @module
 */
import { RUN_FLAGS } from "../_agent_flags.ts";
import { type TempDir, tempDir, tmpdirEnv } from "../_temp_dir.ts";
import { type Lang, resolvePaths } from "@agent/hub/base";
import type { ShippedProvider } from "@agent/hub/config";
import { setupHome } from "@agent/hub/setup";

const ROOT = new URL("../../", import.meta.url).pathname;
const MAIN = `${ROOT}cli/main.ts`;
// --quiet: Deno's own "Download ..." lines must not mix into the stderr tests read.
const PERMS = ["--quiet", ...RUN_FLAGS];

/** What a run printed and returned. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options for {@linkcode agent}. */
export interface AgentRunOptions {
  /** Extra environment variables (the base is PATH, HOME, DENO_DIR and TMPDIR only). */
  env?: Record<string, string>;
  /** Text for stdin; without it stdin is closed (no terminal). */
  stdin?: string;
  /** Working directory. @default the repository root. Runs a subprocess. */
  cwd?: string;
  /** The program to run instead of `cli/main.ts`, e.g. a bundle. Runs a subprocess. */
  main?: string;
  /**
   * Folders the run sees read-only (through bubblewrap's `--ro-bind`, which binds root
   * too, as a read-only home does); the run is skipped by the caller when
   * {@linkcode canMakeReadOnly} is false. Runs a subprocess.
   */
  readOnly?: string[];
  /** A process of its own even where this process would do: the process is the point. */
  process?: boolean;
}

/** Whether bubblewrap can run a child with read-only folders here. */
export function canMakeReadOnly(): boolean {
  try {
    return new Deno.Command("bwrap", {
      args: ["--dev-bind", "/", "/", "--ro-bind", "/tmp", "/tmp", "true"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

const realHome = Deno.env.get("HOME") ?? "/root";
const denoDir = Deno.env.get("DENO_DIR") ?? `${realHome}/.cache/deno`;

/**
 * Runs `agent <args>`. Without `env.HOME` it gets a fresh HOME of its own, removed when
 * the run ends (no later run sees it).
 *
 * A command runs in this process (the same `main()` the command runs, given the
 * environment a child would get, its stdin given and what it writes captured) unless the
 * run needs a process: read-only folders, another program or working directory, a PATH
 * of its own, `process: true`, or a command that starts processes, takes the terminal or
 * finds programs on PATH ({@linkcode needsProcess}). A process costs about a third of a
 * second of processor time; the suite runs hundreds of commands.
 */
export async function agent(args: string[], options: AgentRunOptions = {}): Promise<RunResult> {
  if (options.env?.HOME !== undefined) return await run(args, options, options.env.HOME);
  await using user = tempDir("agent-test-user-");
  return await run(args, options, user.path);
}

function childEnv(options: AgentRunOptions, home: string): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    DENO_DIR: denoDir,
    NO_COLOR: "1",
    ...tmpdirEnv(),
    ...options.env,
  };
}

async function run(args: string[], options: AgentRunOptions, home: string): Promise<RunResult> {
  const env = childEnv(options, home);
  const spawn = options.process === true || options.cwd !== undefined ||
    options.main !== undefined ||
    (options.readOnly ?? []).length > 0 || options.env?.PATH !== undefined || needsProcess(args);
  if (!spawn) return await here(args, env, options.stdin);
  const argv = ["run", ...PERMS, options.main ?? MAIN, ...args];
  const wrap = (options.readOnly ?? []).flatMap((dir) => ["--ro-bind", dir, dir]);
  const child = new Deno.Command(wrap.length > 0 ? "bwrap" : Deno.execPath(), {
    args: wrap.length > 0 ? ["--dev-bind", "/", "/", ...wrap, Deno.execPath(), ...argv] : argv,
    cwd: options.cwd ?? ROOT,
    env,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/**
 * Commands (their first one, two or three words) that need a process of their own: they
 * start the agent or a hub (from `Deno.mainModule` or `Deno.execPath()`, which here are
 * the test's), print that command line, take the terminal, run programs found on PATH
 * (wrangler, MCP servers), or end or signal a process.
 */
const PROCESS_COMMANDS = new Set([
  "tui",
  "dashboard",
  "cloud",
  "hub run",
  "hub stop",
  "hub install",
  "hub uninstall",
  "hub systemd-unit",
  "mcp add",
  "mcp test",
  "mcp pin",
  "net spine deploy",
  "net universe deploy",
]);

/** Commands that need a process with one flag: `--cloud` bundles `Deno.mainModule`. */
const PROCESS_WITH_FLAG: readonly (readonly [string, string])[] = [["net spine init", "--cloud"]];

const GLOBAL_VALUED = new Set(["--home", "--lang", "--profile"]);

/** Whether `agent <args>` needs a process of its own ({@linkcode PROCESS_COMMANDS}). */
export function needsProcess(args: readonly string[]): boolean {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 3; i++) {
    const arg = args[i]!;
    if (GLOBAL_VALUED.has(arg) && words.length === 0) i++;
    else if (!arg.startsWith("-")) words.push(arg);
  }
  return words.some((_, n) => PROCESS_COMMANDS.has(words.slice(0, n + 1).join(" "))) ||
    PROCESS_WITH_FLAG.some(([command, flag]) => words.join(" ") === command && args.includes(flag));
}

let hereQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs `agent --home <home> <args>` in this process, whatever the command: for tests
 * that read many commands' text (every command's help) and keep their own home.
 */
export function agentHere(home: string, args: string[]): Promise<RunResult> {
  return here(["--home", home, ...args], childEnv({}, home));
}

/**
 * One in-process run at a time: each swaps the writes of `Deno.stdout` and `Deno.stderr`
 * and the stream of `Deno.stdin`.
 */
function here(args: string[], env: Record<string, string>, stdin?: string): Promise<RunResult> {
  const run = hereQueue.then(() => runHere(args, env, stdin));
  hereQueue = run.catch(() => {});
  return run;
}

async function runHere(
  args: string[],
  env: Record<string, string>,
  stdin = "",
): Promise<RunResult> {
  const { main } = await import("@agent/cli");
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const writes = [Deno.stdout.writeSync, Deno.stderr.writeSync] as const;
  const terminals = [Deno.stdin.isTerminal, Deno.stdout.isTerminal] as const;
  const keep =
    (into: Uint8Array[]) => (bytes: Uint8Array) => (into.push(bytes.slice()), bytes.length);
  Deno.stdout.writeSync = keep(out);
  Deno.stderr.writeSync = keep(err);
  // As for a child with stdin piped (or closed) and its output piped: no terminal.
  Deno.stdin.isTerminal = Deno.stdout.isTerminal = () => false;
  const input = new Blob([stdin]).stream();
  Object.defineProperty(Deno.stdin, "readable", { get: () => input, configurable: true });
  try {
    const code = await main(args, { env });
    const text = (parts: Uint8Array[]) => {
      const decoder = new TextDecoder();
      return parts.map((p) => decoder.decode(p, { stream: true })).join("") + decoder.decode();
    };
    return { code, stdout: text(out), stderr: text(err) };
  } finally {
    [Deno.stdout.writeSync, Deno.stderr.writeSync] = writes;
    [Deno.stdin.isTerminal, Deno.stdout.isTerminal] = terminals;
    // deno-lint-ignore no-explicit-any
    delete (Deno.stdin as any).readable; // the class's own getter again
  }
}

/** Options for {@linkcode initHome}: what `agent init` would be given. */
export interface InitHomeOptions {
  /** `--provider`; without it the default, as for a run with no credentials. */
  provider?: ShippedProvider;
  /** `--language` (or `--lang`). @default "en" */
  language?: Lang;
}

/**
 * Writes into `home` what `agent --home <home> init --yes` writes, in this process:
 * the same `setupHome()` the command calls, with the clean environment {@linkcode agent}
 * gives a child (no credentials). For tests whose point is what comes after `init`:
 * a spawned `init` costs a process start (tests/cli/init_test.ts spawns the real one).
 * Returns `home`.
 */
export async function initHome(home: string, options: InitHomeOptions = {}): Promise<string> {
  await setupHome(resolvePaths({ home, env: {} }), {
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    language: options.language ?? "en",
    env: {},
  });
  return home;
}

let homes: TempDir[] = [];

/**
 * A fresh temporary folder for an agent home (or anything a test writes), removed by
 * {@linkcode cleanup}: for tests that stop their processes in a `finally` and then clean
 * up, where a `using` declaration inside the `try` would remove the folder while a
 * process still writes into it.
 */
export function tempHome(): string {
  const dir = tempDir();
  homes.push(dir);
  return dir.path;
}

/** Removes every folder {@linkcode tempHome} made so far. */
export async function cleanup(): Promise<void> {
  const all = homes;
  homes = [];
  await Promise.all(all.map((dir) => dir[Symbol.asyncDispose]()));
}

/** The file's permission bits, e.g. `0o600`. */
export async function modeOf(path: string): Promise<number> {
  return ((await Deno.stat(path)).mode ?? 0) & 0o777;
}

/** Asserts a usage error: exit 2 and exactly one line on stderr, no stack trace. */
export function isOneSentence(result: RunResult): boolean {
  const lines = result.stderr.trim().split("\n");
  return result.code === 2 && lines.length === 1 && !/\n\s+at /.test(result.stderr) &&
    result.stderr.trim().length > 0;
}

/** An `agent init --provider fake` agent.toml whose brain answers `replies` in turn. */
export function withReplies(toml: string, replies: readonly string[]): string {
  return toml.replace(
    '[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\n',
    `[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\nparams = { replies = ${
      JSON.stringify(replies)
    } }\n`,
  );
}
