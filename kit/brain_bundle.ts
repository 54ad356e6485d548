/**
 * The brain's bundle: the whole CLI as one module (`agent.js`, only `node:` imports),
 * which `agent net spine init --cloud` writes beside the brain's `Dockerfile` and the
 * image copies, so that building the image fetches nothing but the base image and every
 * dependency's version is the one this agent runs with.
 *
 * Where the bundle comes from, by how this agent runs (`Deno.mainModule`):
 *
 * - **`--bundle FILE`** given: that file (e.g. the release's `agent.js` of this version).
 * - **From the bundle** (`deno run … agent.js`, a `file:` URL ending in `.js`): that very
 *   file, copied. A compiled binary made from the bundle is tried the same way.
 * - **From a checkout** (`deno task agent`, a `file:` URL of `cli/main.ts`): `deno bundle`
 *   of it, run in its folder so the workspace's configuration, lock file and
 *   `node_modules` are used: offline, ~2 s.
 * - **From a package install** (`deno run jsr:@agent/cli`: a `jsr:` specifier or an
 *   `https:` URL): in a folder of its own, a one-line entry runs the CLI from that
 *   module (pinned to this agent's version), `deno install` resolves it (the modules are
 *   in the Deno cache already; what a lazy import never loaded is fetched) and `deno
 *   bundle` bundles it. The bundler takes neither a remote entry nor `jsr:` imports it has
 *   not resolved itself, hence the entry and the install.
 * - **From a compiled binary** whose bundle cannot be read: there is no `deno` to bundle
 *   with, so it is refused, asking for `--bundle FILE`.
 *
 * Nothing is read beside this module: a bundle is either a file the user named, the
 * running main module, or made by `deno bundle` into a temporary folder.
 *
 * @module
 */
import { runDenoBundler } from "./deno_bundle.ts";

/** How {@linkcode brainBundle} gets the bundle. */
export type BrainBundleSource =
  /** Copy this file: the bundle the agent runs from, or `--bundle FILE`. */
  | { kind: "copy"; path: string }
  /** Run `deno bundle` on this entry (a path or URL), in `cwd` if given. */
  | { kind: "bundle"; entry: string; cwd: string | undefined }
  /** A compiled binary: nothing to copy, no `deno` to bundle with. */
  | { kind: "compiled" };

/** Why {@linkcode brainBundle} failed; the CLI words each in the UI language. */
export type BrainBundleProblem =
  | "compiled"
  | "not_found"
  | "not_a_file"
  | "empty"
  | "bundle_failed";

/** A failure of {@linkcode brainBundle}: no bundle to write. */
export class BrainBundleError extends Error {
  override name = "BrainBundleError";
  /** What went wrong. */
  readonly problem: BrainBundleProblem;
  /** The file or entry concerned, or the bundler's first error line. */
  readonly subject: string;
  /** Makes the error. */
  constructor(problem: BrainBundleProblem, subject: string, options?: ErrorOptions) {
    super(`Cannot get the brain's bundle: ${problem} (${subject})`, options);
    this.problem = problem;
    this.subject = subject;
  }
}

/**
 * Where the bundle comes from for a main module (see the module's doc).
 *
 * @example
 * ```ts
 * import { brainBundleSource } from "./brain_bundle.ts";
 * const self = brainBundleSource("file:///opt/agent/agent.js", false);
 * if (self.kind !== "copy" || self.path !== "/opt/agent/agent.js") throw new Error("copy");
 * const jsr = brainBundleSource("https://jsr.io/@agent/cli/0.1.0/main.ts", false);
 * if (jsr.kind !== "bundle" || jsr.cwd !== undefined) throw new Error("bundle");
 * ```
 */
export function brainBundleSource(mainModule: string, standalone: boolean): BrainBundleSource {
  const url = new URL(mainModule);
  if (url.protocol === "file:") {
    const path = decodeURIComponent(url.pathname);
    if (/\.m?js$/.test(path)) return { kind: "copy", path };
    if (standalone) return { kind: "compiled" };
    return { kind: "bundle", entry: path, cwd: path.replace(/\/[^/]*$/, "") || "/" };
  }
  if (standalone) return { kind: "compiled" };
  return { kind: "bundle", entry: mainModule, cwd: undefined };
}

/** Options for {@linkcode brainBundle}. */
export interface BrainBundleOptions {
  /** A bundle to copy instead (`--bundle FILE`). @default none: found as the module says */
  file?: string | undefined;
  /** The running main module. @default `Deno.mainModule` */
  mainModule?: string;
  /** Whether this is a compiled binary. @default `Deno.build.standalone` */
  standalone?: boolean;
  /** The Deno that bundles. @default `Deno.execPath()` */
  deno?: string;
  /** This agent's version, pinned when a `jsr:` main module names none. */
  version?: string;
}

/** A bundle and where it came from. */
export interface BrainBundle {
  /** The bundle's bytes. */
  bytes: Uint8Array;
  /** `file`: `--bundle FILE`; `self`: the bundle this agent runs from; `bundled`: `deno bundle`. */
  origin: "file" | "self" | "bundled";
}

/**
 * The brain's `agent.js` (see the module's doc for where it comes from).
 *
 * @throws {BrainBundleError} when there is none to be had.
 */
export async function brainBundle(options: BrainBundleOptions = {}): Promise<BrainBundle> {
  if (options.file !== undefined) {
    return { bytes: await readBundle(options.file), origin: "file" };
  }
  const source = brainBundleSource(
    options.mainModule ?? Deno.mainModule,
    options.standalone ?? Deno.build.standalone,
  );
  if (source.kind === "copy") {
    try {
      return { bytes: await readBundle(source.path), origin: "self" };
    } catch (error) {
      // Inside a compiled binary the bundle may not be readable: ask for it.
      if (options.standalone ?? Deno.build.standalone) throw new BrainBundleError("compiled", "");
      throw error;
    }
  }
  if (source.kind === "compiled") throw new BrainBundleError("compiled", "");
  const deno = options.deno ?? Deno.execPath();
  return {
    bytes: source.cwd === undefined
      ? await bundleRemote(deno, pinned(source.entry, options.version))
      : await runBundler(deno, source.entry, source.cwd),
    origin: "bundled",
  };
}

async function readBundle(path: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new BrainBundleError("not_a_file", path);
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof BrainBundleError) throw error;
    if (error instanceof Deno.errors.NotFound) throw new BrainBundleError("not_found", path);
    throw error;
  }
  if (bytes.length === 0) throw new BrainBundleError("empty", path);
  return bytes;
}

/**
 * What a remote entry's bundle needs besides its own imports: ink names
 * `react-devtools-core` (loaded only in its development mode), which the workspace maps
 * for the checkout's bundle; a remote bundle gets the same pin (a test keeps the two
 * equal).
 */
export const REMOTE_BUNDLE_IMPORTS: Readonly<Record<string, string>> = {
  "react-devtools-core": "npm:react-devtools-core@8.0.0",
};

/** `jsr:@agent/cli` at `version`, unless it names one already (or is not `jsr:`). */
function pinned(specifier: string, version: string | undefined): string {
  const match = /^jsr:(@[^/@]+\/[^/@]+)(@[^/]*)?(\/.*)?$/.exec(specifier);
  if (match === null || match[2] !== undefined || version === undefined) return specifier;
  return `jsr:${match[1]}@${version}${match[3] ?? ""}`;
}

/** The bundle of a remote CLI (see the module's doc), made in a folder of its own. */
async function bundleRemote(deno: string, module: string): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "agent-bundle-" });
  try {
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({ imports: REMOTE_BUNDLE_IMPORTS, nodeModulesDir: "auto" }),
    );
    await Deno.writeTextFile(
      `${dir}/entry.ts`,
      `import { exitWithMain } from ${JSON.stringify(module)};\nawait exitWithMain();\n`,
    );
    // The registry may be one other than jsr.io (JSR_URL), which Deno's import allow-list
    // does not name: this agent runs from it already. This very version is minutes old on
    // a release's first day.
    await run(deno, [
      "install",
      "--quiet",
      "--allow-import",
      "--minimum-dependency-age=0",
      "--entrypoint",
      "entry.ts",
    ], dir);
    await run(deno, [
      "bundle",
      "--quiet",
      "--platform=deno",
      "--allow-import",
      "--output",
      "agent.js",
      "entry.ts",
    ], dir);
    return await readBundle(`${dir}/agent.js`);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The bundle of a checkout's `cli/main.ts`, made in its folder (its configuration). */
async function runBundler(deno: string, entry: string, cwd: string): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "agent-bundle-" });
  try {
    const output = `${dir}/agent.js`;
    await run(deno, ["bundle", "--quiet", "--platform=deno", "--output", output, entry], cwd);
    return await readBundle(output);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Runs `deno args` in `cwd`; a failure is the bundler's first error line. */
async function run(deno: string, args: string[], cwd: string): Promise<void> {
  const out = await runDenoBundler(deno, args, cwd);
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr).trim();
    const line = text.split("\n").find((l) => l.trim() !== "" && !l.includes("experimental")) ??
      `exit ${out.code}`;
    throw new BrainBundleError("bundle_failed", line.replace(/^error:\s*/i, ""));
  }
}
