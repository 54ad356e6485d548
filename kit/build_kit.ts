/**
 * `deno task kit:build [--check]`: regenerates the spine kit in `kit/spine/` and the
 * modules the command line ships it in (`kit/_spine_kit.ts`, `kit/_universe_kit.ts`)
 * from the spine and universe source, or with `--check` says which committed file
 * differs from what the source builds (exit 1) and how to rebuild.
 *
 * @module
 */
import { buildKit, KIT_DIR, staleKitFiles, writeKit } from "./kit_files.ts";
import {
  buildUniverseKit,
  SPINE_KIT_MODULE,
  spineKitModule,
  UNIVERSE_KIT_MODULE,
  universeKitModule,
} from "./kit_modules.ts";
import { buildMapModule, MAP_JS_MODULE } from "./map_bundle.ts";

const ROOT = new URL("../", import.meta.url).pathname;

if (import.meta.main) {
  // The map's script goes into the universe's source first: the universe bundles it.
  const mapModule = await buildMapModule();
  const mapStale = await Deno.readTextFile(`${ROOT}${MAP_JS_MODULE}`).catch(() => undefined) !==
    mapModule;
  if (!Deno.args.includes("--check")) {
    await Deno.writeTextFile(`${ROOT}${MAP_JS_MODULE}`, mapModule);
  }
  const [built, universe] = await Promise.all([buildKit(), buildUniverseKit()]);
  const modules: Record<string, { text: string; source: string }> = {
    [SPINE_KIT_MODULE]: { text: spineKitModule(built), source: "spine" },
    [UNIVERSE_KIT_MODULE]: { text: universeKitModule(universe), source: "universe" },
  };
  if (Deno.args.includes("--check")) {
    const lines: string[] = [];
    if (mapStale) lines.push(`${MAP_JS_MODULE} differs from what universe/map/ builds`);
    for (const { file, problem } of await staleKitFiles(built)) {
      const why = problem === "missing"
        ? "is missing"
        : problem === "extra"
        ? "is not in the spine source any more"
        : "differs from what the spine source builds";
      lines.push(`kit/spine/${file} ${why}`);
    }
    for (const [file, { text, source }] of Object.entries(modules)) {
      const committed = await Deno.readTextFile(`${ROOT}${file}`).catch(() => undefined);
      if (committed === undefined) lines.push(`${file} is missing`);
      else if (committed !== text) {
        lines.push(`${file} differs from what the ${source} source builds`);
      }
    }
    for (const line of lines) console.error(line);
    if (lines.length > 0) {
      console.error(
        "The kit is stale: run `deno task kit:build` and commit kit/spine/, kit/_*_kit.ts and universe/_map_js.ts.",
      );
      Deno.exit(1);
    }
    console.log("The kit matches the spine and universe source.");
  } else {
    await writeKit(built);
    for (const [file, { text }] of Object.entries(modules)) {
      await Deno.writeTextFile(`${ROOT}${file}`, text);
    }
    console.log(
      `Wrote the spine kit to ${KIT_DIR}, ${MAP_JS_MODULE} and ${Object.keys(modules).join(", ")}`,
    );
  }
}
