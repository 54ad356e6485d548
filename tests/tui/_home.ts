/**
 * A home for `agent tui` in tmux: `agent init --provider fake`, the brain answering
 * `replies` in turn when given.
 *
 * @module
 */
import assert from "node:assert/strict";
import { agent, tempHome } from "../cli/_run.ts";

/** A fresh fake home (removed by `cleanup()`), its brain answering `replies`. */
export async function fakeHome(replies?: string[]): Promise<string> {
  const home = tempHome();
  const r = await agent(["--home", home, "init", "--yes", "--provider", "fake"]);
  assert.equal(r.code, 0, r.stderr);
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
  return home;
}
