/**
 * A test home made by `agent init` with a chosen `[components]` table.
 *
 * @module
 */
import assert from "node:assert/strict";
import { agent, tempHome } from "./_run.ts";

/** A fake-provider home whose [components] lists `modules` and `disabled`. */
export async function homeWith(modules: string[], disabled: string[] = []): Promise<string> {
  const home = await tempHome();
  const r = await agent(["--home", home, "init", "--yes", "--provider", "fake"]);
  assert.equal(r.code, 0, r.stderr);
  const path = `${home}/agent.toml`;
  const text = (await Deno.readTextFile(path))
    .replace("modules = []", `modules = ${JSON.stringify(modules)}`)
    .replace("disabled = []", `disabled = ${JSON.stringify(disabled)}`);
  await Deno.writeTextFile(path, text);
  return home;
}
