/**
 * A test home made as `agent init` makes one, with a chosen `[components]` table.
 *
 * @module
 */
import { initHome, tempHome } from "./_run.ts";

/** A fake-provider home whose [components] lists `modules` and `disabled`. */
export async function homeWith(modules: string[], disabled: string[] = []): Promise<string> {
  const home = await initHome(tempHome(), { provider: "fake" });
  const path = `${home}/agent.toml`;
  const text = (await Deno.readTextFile(path))
    .replace("modules = []", `modules = ${JSON.stringify(modules)}`)
    .replace("disabled = []", `disabled = ${JSON.stringify(disabled)}`);
  await Deno.writeTextFile(path, text);
  return home;
}
