/**
 * The `agent` command's entry point. `agent version` takes a fast path that loads
 * only data; everything else goes through `_program.ts` (commander, context, config).
 *
 * @module
 */
import { prescan } from "./_prescan.ts";

/** Runs `agent` with `argv` (without the program name) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const pre = prescan(argv);
  if (pre.fast === "version") {
    const { versionLines } = await import("./commands/version.ts");
    const text = versionLines().map((l) => `${l}\n`).join("");
    try {
      Deno.stdout.writeSync(new TextEncoder().encode(text));
    } catch { /* a closed stdout: nothing to tell */ }
    return 0;
  }
  const { runProgram } = await import("./_program.ts");
  return await runProgram(argv, pre);
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
