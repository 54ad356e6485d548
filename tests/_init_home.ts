/**
 * A fresh home as `agent init --yes --provider fake` writes it, for the end-to-end tests
 * that need one per test. It is written in the test's process by the same `setupHome()`
 * that `agent init` runs (`initHome()` of `tests/cli/_run.ts`; `tests/cli/init_test.ts`
 * checks the two homes are equal byte for byte): a spawned init costs 0.2 to 0.7 s of
 * processor time and a Deno start. `tests/cli/` keeps testing `agent init` itself.
 *
 * @module
 */
import type { Lang } from "@agent/hub/base";
import { initHome, tempHome } from "./cli/_run.ts";

/** A fresh home (a {@linkcode tempHome}, removed by `cleanup()`) as `agent init --yes --provider fake` writes it. */
export async function fakeInitHome(): Promise<string> {
  const home = tempHome();
  await initHomeAt(home);
  return home;
}

/** Options for {@linkcode initHomeAt}. */
export interface InitHomeAtOptions {
  /** `agent init --language`. @default "en" */
  language?: Lang;
  /** The hub's control port written into `agent.toml` (`[hub] port`). */
  port?: number;
}

/**
 * Writes into `home` (made when missing) what `agent --home <home> init --yes --provider
 * fake --language <language>` writes, and the control port when one is given.
 */
export async function initHomeAt(home: string, options: InitHomeAtOptions = {}): Promise<void> {
  await initHome(home, { provider: "fake", language: options.language ?? "en" });
  if (options.port === undefined) return;
  const toml = await Deno.readTextFile(`${home}/agent.toml`);
  const set = toml.replace(/^port = \d+$/m, `port = ${options.port}`);
  if (set === toml) throw new Error("agent.toml has no `port = ` line to set");
  await Deno.writeTextFile(`${home}/agent.toml`, set);
}
