/**
 * Bundles a Worker (the spine's `spine/worker.ts`, or any other) into one ES module for
 * workerd with `deno bundle --platform browser`, which works offline.
 *
 * @module
 */
import { runDenoBundler } from "./deno_bundle.ts";

/** Options for {@linkcode bundleSpine}. */
export interface BundleOptions {
  /** The entry module. @default the repository's `spine/worker.ts` */
  entry?: string;
  /** The `deno` binary. @default Deno.execPath() */
  deno?: string;
}

/** The repository's `spine/worker.ts`. */
export const SPINE_ENTRY: string = new URL("../spine/worker.ts", import.meta.url).pathname;

/** Options for {@linkcode bundleWorker}. */
export interface BundleWorkerOptions {
  /** The `deno` binary. @default Deno.execPath() */
  deno?: string;
  /** What the error message calls the Worker. @default the entry's path */
  label?: string;
}

/**
 * Bundles a Worker module (`entry`, a path) to `output` as one ES module for workerd,
 * offline, and returns its text.
 *
 * Deno's esbuild install race on first use is met in `deno_bundle.ts`.
 *
 * @throws {Error} `Cannot bundle <label>: <deno's message>` when bundling fails.
 */
export async function bundleWorker(
  entry: string,
  output: string,
  options: BundleWorkerOptions = {},
): Promise<string> {
  const result = await runDenoBundler(
    options.deno ?? Deno.execPath(),
    [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--format",
      "esm",
      // The runtime's own modules (`@cloudflare/containers` imports one).
      "--external",
      "cloudflare:workers",
      "--output",
      output,
      entry,
    ],
    new URL("..", import.meta.url).pathname,
  );
  if (!result.success) {
    const detail = new TextDecoder().decode(result.stderr).trim().split("\n").slice(-5).join(" ");
    throw new Error(`Cannot bundle ${options.label ?? entry}: ${detail}`);
  }
  return await Deno.readTextFile(output);
}

/**
 * Bundles the spine Worker to `output` (one ES module) and returns its text.
 *
 * @throws {Error} `Cannot bundle the spine: <deno's message>` when bundling fails.
 */
export function bundleSpine(output: string, options: BundleOptions = {}): Promise<string> {
  return bundleWorker(options.entry ?? SPINE_ENTRY, output, {
    ...(options.deno === undefined ? {} : { deno: options.deno }),
    label: "the spine",
  });
}

/**
 * Bundles a Worker module and returns its text; the file `deno bundle` writes goes to a
 * temporary folder that is removed before this returns, so nothing is left behind.
 *
 * @throws {Error} `Cannot bundle <label>: <deno's message>` when bundling fails.
 */
export async function bundleWorkerText(
  entry: string,
  options: BundleWorkerOptions = {},
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "agent-bundle-" });
  try {
    return await bundleWorker(entry, `${dir}/worker.js`, options);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

let cached: Promise<string> | undefined;

/** The spine bundled once per process (tests bundle once per run): the module's text. */
export function bundledSpineScript(): Promise<string> {
  cached ??= bundleWorkerText(SPINE_ENTRY, { label: "the spine" });
  return cached;
}
