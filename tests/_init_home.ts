/**
 * A home as `agent init --yes` makes it, set up in the test's own process: the same
 * `setupHome()` the command calls, with the fake model (what `init --yes` picks in the
 * clean environment `tests/cli/_run.ts` gives a run), without spawning a Deno process
 * (about a second of processor time each) for a step the test is not about. Tests of
 * `agent init` itself keep running the command.
 *
 * @module
 */
import { setupHome } from "@agent/hub";
import { type Lang, resolvePaths } from "@agent/hub/base";
import { type TempDir, tempDir } from "./_temp_dir.ts";

/** Options for {@linkcode initHome} and {@linkcode initHomeAt}. */
export interface InitHomeOptions {
  /** The temp folder's name prefix ({@linkcode initHome}). @default "agent-test-home-" */
  prefix?: string;
  /** `--language`. @default "en" */
  language?: Lang;
  /** The hub's control port written into `agent.toml` (`[hub] port`). */
  port?: number;
}

/** A set-up home in a temp folder; an `await using` block removes it. */
export async function initHome(options: InitHomeOptions = {}): Promise<TempDir> {
  const dir = tempDir(options.prefix ?? "agent-test-home-");
  try {
    await initHomeAt(dir.path, options);
    return dir;
  } catch (error) {
    await dir[Symbol.asyncDispose]();
    throw error;
  }
}

/** Sets up the home at `home` (made when missing), as `agent --home <home> init --yes`. */
export async function initHomeAt(home: string, options: InitHomeOptions = {}): Promise<void> {
  const paths = resolvePaths({ home, env: {} });
  await setupHome(paths, { provider: "fake", language: options.language ?? "en", env: {} });
  if (options.port === undefined) return;
  const toml = await Deno.readTextFile(paths.configFile);
  const set = toml.replace(/^port = \d+$/m, `port = ${options.port}`);
  if (set === toml) throw new Error("agent.toml has no `port = ` line to set");
  await Deno.writeTextFile(paths.configFile, set);
}
