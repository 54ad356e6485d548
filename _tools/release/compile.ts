/**
 * `deno task compile [--out-dir DIR] [TARGET...]`: the per-OS binaries, compiled from
 * the bundle (into `dist/` by default).
 *
 * Makes sure the first target's Deno runtime can be had (a one-line module compiled for
 * it), bundles the CLI into `dist/agent.js` (`deno bundle` of `cli/main.ts` by the
 * function that makes a checkout's brain bundle, `kit/brain_bundle.ts`), then compiles
 * that one file for each target (default: all five release targets) into `dist/agent-<target>`
 * with the permissions of the install line, and no config: compiling the module graph
 * instead would embed nothing behind a dynamic import (with lazy imports) or all of
 * `node_modules` (without).
 *
 * `deno compile` needs the Deno runtime archive (`denort`) of each target, which it
 * downloads. When that fails the task says so in one line and exits 1. `DENORT_BIN`
 * names a local `denort`; it serves the machine's own target only, so it is the default
 * target then.
 *
 * @module
 */
import { AGENT_DENO_FLAGS } from "@agent/hub/base";
import { brainBundle, BrainBundleError } from "@agent/kit/spine";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The release targets. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** The permissions a binary runs with: the install line's (a binary loads nothing lazily). */
export const BINARY_FLAGS: readonly string[] = AGENT_DENO_FLAGS.filter((flag) =>
  flag !== "--unstable-lazy-dynamic-imports"
);

/** The binary's file name for `target`. */
export function binaryName(target: string): string {
  return `agent-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * Whether `deno compile`'s output says the runtime archive could not be had (a failed
 * download, or no `denort` at `DENORT_BIN`).
 *
 * @example
 * ```ts
 * import { runtimeMissing } from "./compile.ts";
 * const out = "0: Setting up base binary.\n1: error sending request for url (https://dl.deno.land/release/v2.9.6/denort-x.zip)";
 * if (!runtimeMissing(out)) throw new Error();
 * ```
 */
export function runtimeMissing(output: string): boolean {
  return /Setting up base binary|Could not find denort|dl\.deno\.land\/.*denort/.test(output);
}

async function deno(args: string[]): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, output: decoder.decode(out.stdout) + decoder.decode(out.stderr) };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Runs the task with `args` (targets); returns the exit code. */
export async function compile(argv: readonly string[]): Promise<number> {
  const local = Deno.env.get("DENORT_BIN");
  const args = [...argv];
  let dist = `${ROOT}dist`;
  const at = args.indexOf("--out-dir");
  if (at >= 0) {
    const dir = args[at + 1];
    if (dir === undefined || dir.startsWith("-")) {
      console.error("--out-dir needs a folder.");
      return 2;
    }
    dist = dir.startsWith("/") ? dir : `${Deno.cwd()}/${dir}`;
    args.splice(at, 2);
  }
  const unknown = args.filter((t) => !(TARGETS as readonly string[]).includes(t));
  if (unknown.length > 0) {
    console.error(`Unknown target ${unknown[0]}; the targets are ${TARGETS.join(", ")}.`);
    return 2;
  }
  const targets = args.length > 0 ? [...args] : local ? [Deno.build.target] : [...TARGETS];
  if (local && targets.some((t) => t !== Deno.build.target)) {
    console.error(
      `DENORT_BIN is a runtime for this machine (${Deno.build.target}) only; ask for that target alone.`,
    );
    return 2;
  }
  await Deno.mkdir(dist, { recursive: true });
  // The first target's runtime archive first, with a one-line module: where it cannot be
  // had, the task says so in about a second instead of after the bundle (~5 CPU-seconds)
  // and a compile of it (~3) that fails at the same step.
  if (!await compiled(targets[0]!, dist, local, "probe")) return 1;
  try {
    const bundle = await brainBundle({
      mainModule: new URL("cli/main.ts", `file://${ROOT}`).href,
      standalone: false,
    });
    await Deno.writeFile(`${dist}/agent.js`, bundle.bytes);
  } catch (error) {
    if (!(error instanceof BrainBundleError)) throw error;
    console.error(`Cannot bundle the CLI: ${error.subject}`);
    return 1;
  }
  console.log(`${dist}/agent.js ${megabytes((await Deno.stat(`${dist}/agent.js`)).size)}`);
  for (const target of targets) {
    if (!await compiled(target, dist, local, "agent.js")) return 1;
    const output = `${dist}/${binaryName(target)}`;
    console.log(`${output} ${megabytes((await Deno.stat(output)).size)}`);
  }
  return 0;
}

/**
 * `deno compile` of `dist/agent.js` for `target`, or (`probe`) of a one-line module into a
 * temporary folder, removed after; a failure is said in one line.
 */
async function compiled(
  target: string,
  dist: string,
  local: string | undefined,
  what: "agent.js" | "probe",
): Promise<boolean> {
  const probe = what === "probe" ? await Deno.makeTempDir({ prefix: "agent-compile-" }) : "";
  try {
    if (probe !== "") await Deno.writeTextFile(`${probe}/probe.js`, "Deno.exit(0);\n");
    const result = await deno([
      "compile",
      "--quiet",
      "--no-config",
      ...(probe === "" ? BINARY_FLAGS : []),
      "--target",
      target,
      "--output",
      probe === "" ? `${dist}/${binaryName(target)}` : `${probe}/${binaryName(target)}`,
      probe === "" ? `${dist}/agent.js` : `${probe}/probe.js`,
    ]);
    if (result.code === 0) return true;
    if (runtimeMissing(result.output)) {
      console.error(
        local
          ? `Cannot compile for ${target}: there is no denort at DENORT_BIN (${local}).`
          : `Cannot compile for ${target}: deno compile cannot download the Deno runtime archive (denort) from dl.deno.land here; set DENORT_BIN to a local denort, or let the release workflow build the binaries.`,
      );
    } else {
      console.error(
        `Cannot compile for ${target}: ${result.output.trim().split("\n").slice(-3).join(" ")}`,
      );
    }
    return false;
  } finally {
    if (probe !== "") await Deno.remove(probe, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await compile(Deno.args));
