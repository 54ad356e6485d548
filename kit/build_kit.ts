/**
 * `deno task kit:build [--check]`: regenerates the spine kit in `kit/spine/` from the
 * spine source, or with `--check` says which committed file differs from what the
 * source builds (exit 1) and how to rebuild.
 *
 * @module
 */
import { buildKit, KIT_DIR, staleKitFiles, writeKit } from "./kit_files.ts";

if (import.meta.main) {
  const built = await buildKit();
  if (Deno.args.includes("--check")) {
    const stale = await staleKitFiles(built);
    for (const { file, problem } of stale) {
      const why = problem === "missing"
        ? "is missing"
        : problem === "extra"
        ? "is not in the spine source any more"
        : "differs from what the spine source builds";
      console.error(`kit/spine/${file} ${why}`);
    }
    if (stale.length > 0) {
      console.error("The spine kit is stale: run `deno task kit:build` and commit kit/spine/.");
      Deno.exit(1);
    }
    console.log("The spine kit matches the spine source.");
  } else {
    await writeKit(built);
    console.log(`Wrote the spine kit to ${KIT_DIR}`);
  }
}
