/**
 * The `agent` command's entry point. `agent version` takes a fast path that loads
 * only data; everything else goes through `_program.ts` (commander, context, config).
 *
 * @module
 */
import { prescan } from "./_prescan.ts";
import { resolvePaths } from "../hub/paths.ts";

/** Runs `agent` with `argv` (without the program name) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const pre = prescan(argv);
  if (pre.fast === "version" && !listsExtraModules(pre.home)) {
    const { versionLines } = await import("./commands/_version_lines.ts");
    const text = versionLines().map((l) => `${l}\n`).join("");
    try {
      Deno.stdout.writeSync(new TextEncoder().encode(text));
    } catch { /* a closed stdout: nothing to tell */ }
    return 0;
  }
  const { runProgram } = await import("./_program.ts");
  return await runProgram(argv, pre);
}

/**
 * Whether agent.toml names extra component modules (their distributions are listed
 * by `agent version` too, which needs the full path). A cheap text scan, no parser.
 */
function listsExtraModules(home: string | undefined): boolean {
  try {
    const env = Deno.env.toObject();
    const text = Deno.readTextFileSync(resolvePaths({ home, env }).configFile);
    return /^\s*modules\s*=\s*\[\s*["']/m.test(text);
  } catch {
    return false;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
