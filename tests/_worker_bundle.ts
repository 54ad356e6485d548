/**
 * The Workers' bundles (the spine, the universe) made once for all the test files of a
 * run, not once per file. `deno test --parallel` gives each file an isolate of its own,
 * so kit's per-process cache (`bundledSpineScript()`) bundled again in every file that
 * starts a spine: a `deno bundle` child of about 0.7 CPU-seconds each, in some 50 files.
 *
 * A bundle is kept in the checkout's ignored `.tmp/worker-bundles/` under a key made of
 * every file of the folders it is built from (its own, `net/`), the lock file and the
 * bundler's own module, and Deno's version: a change to any of them builds afresh, so a
 * test never runs an old Worker. Each file is written whole and renamed into place, so
 * files bundling at the same moment only both write the same text.
 *
 * @module
 */
import { bundleWorkerText } from "@agent/kit";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const CACHE = `${ROOT}/.tmp/worker-bundles`;
// What every bundle also depends on: the import map, the locked npm versions, the bundler.
const BUILD = ["deno.json", "deno.lock", "kit/bundle.ts"];

/** What a bundle is made from. */
interface WorkerSource {
  /** Names the cached file and the bundler's error. */
  name: string;
  /** The entry module's path. */
  entry: string;
  /** Files and folders under the checkout the Worker is built from. */
  paths: string[];
}

const SPINE: WorkerSource = {
  name: "spine",
  entry: `${ROOT}/spine/worker.ts`,
  paths: ["spine", "net", ...BUILD],
};
const UNIVERSE: WorkerSource = {
  name: "universe",
  entry: `${ROOT}/universe/worker.ts`,
  paths: ["universe", "net", ...BUILD],
};

const made = new Map<string, Promise<string>>();

/** The spine Worker bundled from the checkout as it is now. */
export function spineBundle(): Promise<string> {
  return cachedBundle(SPINE);
}

/** The universe Worker bundled from the checkout as it is now. */
export function universeBundle(): Promise<string> {
  return cachedBundle(UNIVERSE);
}

function cachedBundle(source: WorkerSource): Promise<string> {
  let bundle = made.get(source.name);
  if (bundle === undefined) {
    bundle = readOrBuild(source);
    made.set(source.name, bundle);
  }
  return bundle;
}

async function readOrBuild(source: WorkerSource): Promise<string> {
  const key = await sourceKey(ROOT, source.paths);
  const file = `${CACHE}/${source.name}-${key}.js`;
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const text = await bundleWorkerText(source.entry, { label: `the ${source.name}` });
  await Deno.mkdir(CACHE, { recursive: true });
  const part = `${file}.${crypto.randomUUID()}.part`;
  await Deno.writeTextFile(part, text);
  await Deno.rename(part, file);
  // Older bundles of this Worker (the source changed since) are of no more use.
  for await (const entry of Deno.readDir(CACHE)) {
    const stale = entry.name.startsWith(`${source.name}-`) && entry.name.endsWith(".js") &&
      `${CACHE}/${entry.name}` !== file;
    if (stale) await Deno.remove(`${CACHE}/${entry.name}`).catch(() => {});
  }
  return text;
}

/**
 * A key for the files under `root` named by `paths` (files, or folders taken whole) and
 * Deno's version: SHA-256 over each file's path and SHA-256, in path order.
 */
export async function sourceKey(root: string, paths: string[]): Promise<string> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await Deno.stat(`${root}/${path}`);
    files.push(...info.isDirectory ? await filesUnder(root, path) : [path]);
  }
  const lines = [Deno.version.deno];
  for (const path of files.sort()) {
    lines.push(`${path} ${await sha256(await Deno.readFile(`${root}/${path}`))}`);
  }
  return (await sha256(new TextEncoder().encode(lines.join("\n")))).slice(0, 24);
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).toHex();
}

async function filesUnder(root: string, folder: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${root}/${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesUnder(root, path));
    else if (entry.isFile) found.push(path);
  }
  return found;
}
