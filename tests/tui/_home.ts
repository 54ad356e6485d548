/**
 * A home for `agent tui` in tmux: `agent init --provider fake`, the brain answering
 * `replies` in turn when given.
 *
 * @module
 */
import { initHome } from "../_init_home.ts";

/** Options for {@linkcode fakeHome}. */
export interface FakeHomeOptions {
  /** The hub's control port (`[hub] port`), for a test that runs a hub. @default init's */
  port?: number | undefined;
}

/** A fresh fake home (removed by `cleanup()`), its brain answering `replies`. */
export async function fakeHome(replies?: string[], options: FakeHomeOptions = {}): Promise<string> {
  const home = await initHome();
  if (replies) {
    const path = `${home}/agent.toml`;
    const toml = (await Deno.readTextFile(path)).replace(
      '[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\n',
      `[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\nparams = { replies = ${
        JSON.stringify(replies)
      } }\n`,
    );
    await Deno.writeTextFile(path, toml);
  }
  if (options.port !== undefined) {
    const path = `${home}/agent.toml`;
    const toml = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, toml.replace(/^port = \d+$/m, `port = ${options.port}`));
  }
  return home;
}
