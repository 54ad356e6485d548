/**
 * Miniflare instances that leave nothing in the system temp folder. Miniflare keeps the
 * runtime's files and its in-memory stores in `<tmpdir>/miniflare-<random>`, and on
 * `dispose()` starts removing that folder without waiting for it: a process that ends
 * right afterwards (a dev server on Ctrl-C, the last test of a file) leaves it behind.
 * {@linkcode startMiniflare} gives each instance a parent folder of its own, and
 * {@linkcode stopMiniflare} disposes of the instance and then removes that folder.
 *
 * @module
 */
import os from "node:os";
import process from "node:process";
import { Miniflare } from "miniflare";

/** The options {@linkcode startMiniflare} passes to Miniflare. */
export type MiniflareOptions = ConstructorParameters<typeof Miniflare>[0];

const folders = new Map<Miniflare, string>();

// On SIGINT or SIGTERM Miniflare's own exit hook removes its folder and ends the
// process before anyone can stop the instance: the folders still held go on "exit".
let hooked = false;
function removeHeldFolders(): void {
  for (const folder of folders.values()) {
    try {
      Deno.removeSync(folder, { recursive: true });
    } catch { /* the process is ending: nothing more to do */ }
  }
}

/**
 * Constructs a Miniflare whose temporary folder lives in a folder of its own (removed
 * by {@linkcode stopMiniflare}). Needs `--allow-env` and `--allow-write`.
 */
export function startMiniflare(options: MiniflareOptions): Miniflare {
  const folder = Deno.makeTempDirSync({ prefix: "agent-miniflare-" });
  // Miniflare reads os.tmpdir() once, in its constructor: point it at our folder for
  // that synchronous call only. The process's TMPDIR stays as it is: test files that run
  // side by side (`deno test --parallel`) share the process's environment, and a second
  // instance started at the same moment would save and restore the first one's folder.
  const tmpdir = os.tmpdir;
  os.tmpdir = () => folder;
  let mf: Miniflare;
  try {
    mf = new Miniflare(options);
  } catch (error) {
    Deno.removeSync(folder, { recursive: true });
    throw error;
  } finally {
    os.tmpdir = tmpdir;
  }
  folders.set(mf, folder);
  if (!hooked) {
    hooked = true;
    process.on("exit", removeHeldFolders);
  }
  return mf;
}

/**
 * A bundled Worker as Miniflare's one ES module, in the very form Miniflare makes of a
 * `script` given with `modules: true`: named `script-<index>` (the Worker's place among
 * the instance's Workers) and ending in that `sourceURL`, so workerd gets the same
 * config. Given as a `script`, Miniflare parses the whole bundle with acorn on every
 * start to look for imports (a bundle has none left): about half of a start's processor
 * time in the starting process, spent again in every test that starts a spine.
 */
export function bundledModule(
  script: string,
  workerIndex = 0,
): { modules: { type: "ESModule"; path: string; contents: string }[] } {
  const path = `script-${workerIndex}`;
  const contents = script.lastIndexOf("//# sourceURL=") === -1
    ? `${script}\n//# sourceURL=${path}\n`
    : script;
  return { modules: [{ type: "ESModule", path, contents }] };
}

/** Disposes of `mf` and removes its temporary folder, waiting for both. */
export async function stopMiniflare(mf: Miniflare): Promise<void> {
  try {
    await mf.dispose();
  } finally {
    const folder = folders.get(mf);
    folders.delete(mf);
    if (folder !== undefined) await removeFolder(folder);
  }
}

async function removeFolder(folder: string): Promise<void> {
  // Miniflare's own removal may still be running inside it: try again when it races.
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(folder, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 4) throw error;
      await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
    }
  }
}

/**
 * Runs the first Worker's `scheduled` handler once, as if at `scheduledTime` (epoch ms),
 * and returns its outcome (`ok` when it succeeded). Needs `unsafeTriggerHandlers` in the
 * instance's options. It goes through `dispatchFetch`, an ordinary request: the binding
 * proxy (`getWorker().scheduled`) makes its first call synchronously through a helper
 * thread, a path that lost its answer under Deno (see `d1_migrate.ts`).
 */
export async function triggerScheduled(
  mf: Miniflare,
  scheduledTime: number,
  cron: string,
): Promise<string> {
  const query = new URLSearchParams({ cron, time: String(scheduledTime) });
  const response = await mf.dispatchFetch(
    `http://localhost/cdn-cgi/handler/scheduled?${query}`,
  );
  return (await response.text()).trim();
}
