/**
 * A home for `agent tui` in tmux: `agent init --provider fake`, the brain answering
 * `replies` in turn when given.
 *
 * @module
 */
import { fakeInitHome } from "../_init_home.ts";

/** Options for {@linkcode fakeHome}. */
export interface FakeHomeOptions {
  /** The hub's control port (`[hub] port`), for a test that runs a hub. @default init's */
  port?: number | undefined;
  /** The `[components] modules` it lists. @default none */
  modules?: string[] | undefined;
}

/** A fresh fake home (removed by `cleanup()`), its brain answering `replies`. */
export async function fakeHome(replies?: string[], options: FakeHomeOptions = {}): Promise<string> {
  const home = await fakeInitHome();
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
  if (options.modules !== undefined) {
    const path = `${home}/agent.toml`;
    const toml = await Deno.readTextFile(path);
    if (!toml.includes("modules = []")) throw new Error(`no empty modules list in ${path}`);
    await Deno.writeTextFile(
      path,
      toml.replace("modules = []", `modules = ${JSON.stringify(options.modules)}`),
    );
  }
  return home;
}
