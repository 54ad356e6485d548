/**
 * Runs the browser layer (`deno task test:browser`): starts the layer's Chromium once
 * ({@linkcode serveChromium}), runs `deno <arguments>` (the layer's shards, through
 * `_tools/test_shards.ts`, or a plain `deno test ...`) with the server's address in its
 * environment, and ends the Chromium however the tests end (a failure, a crash, Ctrl-C).
 * Its exit code is the tests'.
 *
 * A launch per test file cost ~2 CPU-seconds; the files connect instead, each with
 * contexts of its own.
 *
 * @module
 */
import { CHROMIUM, serveChromium, SERVER_ENV } from "../dashboard/_browser.ts";

/** Runs `deno <args>` beside the layer's Chromium; answers its exit code. */
export async function runLayer(args: readonly string[]): Promise<number> {
  const served = CHROMIUM === undefined ? undefined : await serveChromium();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [...args],
      env: served === undefined ? {} : { [SERVER_ENV]: served.endpoint },
      stdin: "null",
    }).spawn();
    // Ctrl-C reaches the child too (one process group); a SIGTERM is passed on. Either
    // way the layer waits for the tests to end, then closes the Chromium.
    const ignore = () => {};
    const pass = () => child.kill("SIGTERM");
    Deno.addSignalListener("SIGINT", ignore);
    Deno.addSignalListener("SIGTERM", pass);
    try {
      return (await child.status).code;
    } finally {
      Deno.removeSignalListener("SIGINT", ignore);
      Deno.removeSignalListener("SIGTERM", pass);
    }
  } finally {
    await served?.close();
  }
}

if (import.meta.main) Deno.exit(await runLayer(Deno.args));
