/**
 * `deno task universe:dev [--port N]`: serves the universe on workerd (through
 * Miniflare) at `127.0.0.1:N` (default 8788), with the bindings of
 * `universe/wrangler.jsonc`, its state kept under `UNIVERSE_STATE_DIR` (default
 * `.universe-dev/`) across restarts, and the cron every hour. Reads `UNIVERSE` and
 * `ALLOW_INSECURE_PEERS` from the environment.
 *
 * @module
 */
import type { Miniflare } from "miniflare";
import { bundledModule, startMiniflare, stopMiniflare, triggerScheduled } from "./miniflare.ts";
import { bundleWorkerText } from "./bundle.ts";
import { parseDevArgs, serveUntilSignal, SPINE_COMPATIBILITY_DATE } from "./spine_dev.ts";
import { catalogue, currentLang } from "@agent/net/common";

/** The repository's `universe/worker.ts`. */
export const UNIVERSE_ENTRY: string = new URL("../universe/worker.ts", import.meta.url).pathname;

/** The default development port. */
export const UNIVERSE_DEV_PORT = 8788;

let cached: Promise<string> | undefined;

/** The universe bundled once per process: the module's text. */
export function bundledUniverseScript(): Promise<string> {
  cached ??= bundleWorkerText(UNIVERSE_ENTRY, { label: "the universe" });
  return cached;
}

/** Options for {@linkcode runUniverse}. */
export interface UniverseRuntimeOptions {
  /** Port on 127.0.0.1; 0 picks one. */
  port: number;
  /** `UNIVERSE` and `ALLOW_INSECURE_PEERS`. */
  vars: Record<string, string>;
  /** Keep the directory's state here across restarts. */
  persistDir?: string | undefined;
  /**
   * Also serve the Worker straight on this port, past Miniflare's development proxy
   * (benchmarks: the proxy costs more CPU per request than a small route).
   */
  directPort?: number | undefined;
  /** Receives every line the Worker logs. */
  onLog?: (line: string) => void;
  /**
   * The bundled Worker, when the caller keeps one (tests share one bundle across their
   * files). @default the universe bundled once per process
   */
  script?: string | undefined;
}

/** Starts Miniflare with the universe and returns it with its base URL. */
export async function runUniverse(
  options: UniverseRuntimeOptions,
): Promise<{ mf: Miniflare; url: string }> {
  Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
  const script = options.script ?? await bundledUniverseScript();
  const mf = startMiniflare(
    {
      ...bundledModule(script),
      compatibilityDate: SPINE_COMPATIBILITY_DATE,
      durableObjects: { DIRECTORY: { className: "Directory", useSQLite: true } },
      r2Buckets: ["SNAPSHOTS"],
      bindings: options.vars,
      cf: false,
      // The universe never uses the Cache API (see `spineMiniflareOptions`).
      cache: false,
      // The cron is run through /cdn-cgi/handler/scheduled (see triggerScheduled).
      unsafeTriggerHandlers: true,
      host: "127.0.0.1",
      port: options.port,
      ...(options.directPort === undefined
        ? {}
        : { unsafeDirectSockets: [{ host: "127.0.0.1", port: options.directPort }] }),
      ...(options.onLog
        ? {
          handleStructuredLogs: ({ message }: { message: string }): void => options.onLog!(message),
        }
        : {}),
      ...(options.persistDir
        ? {
          durableObjectsPersist: `${options.persistDir}/do`,
          r2Persist: `${options.persistDir}/r2`,
        }
        : {}),
    } as ConstructorParameters<typeof Miniflare>[0],
  );
  try {
    const ready = await mf.ready;
    return { mf, url: ready.href.replace(/\/$/, "") };
  } catch (error) {
    // One that cannot start (its port taken) leaves no folder behind.
    await stopMiniflare(mf);
    throw error;
  }
}

/** Runs the universe's cron once, as if scheduled at `scheduledTime` (epoch ms). */
export async function runUniverseCron(mf: Miniflare, scheduledTime: number): Promise<void> {
  const outcome = await triggerScheduled(mf, scheduledTime, "0 * * * *");
  if (outcome !== "ok") throw new Error(`Cannot run the universe cron: ${outcome}`);
}

const t = catalogue({
  listening: "Universe listening on {url} (host {host}, state in {dir}). Ctrl-C stops it.",
  badPort: "--port needs a number from 1 to 65535.",
  badArg: "Unknown argument '{arg}'. Usage: deno task universe:dev [--port N]",
  stopped: "Universe stopped.",
  cronFailed: "Universe cron failed: {detail}",
}, {
  listening:
    "Evren {url} adresinde dinliyor (ad {host}, durum {dir} içinde). Durdurmak için Ctrl-C.",
  badPort: "--port 1 ile 65535 arasında bir sayı ister.",
  badArg: "Bilinmeyen argüman '{arg}'. Kullanım: deno task universe:dev [--port N]",
  stopped: "Evren durdu.",
  cronFailed: "Evren cron'u başarısız: {detail}",
});

async function main(): Promise<number> {
  const env = Deno.env.toObject();
  const lang = currentLang(env);
  const parsed = parseDevArgs(Deno.args, UNIVERSE_DEV_PORT);
  if ("error" in parsed) {
    console.error(t(lang, parsed.error, { arg: parsed.arg ?? "" }));
    return 2;
  }
  const dir = env.UNIVERSE_STATE_DIR || ".universe-dev";
  await Deno.mkdir(dir, { recursive: true });
  const vars = {
    UNIVERSE: env.UNIVERSE ?? "",
    ALLOW_INSECURE_PEERS: env.ALLOW_INSECURE_PEERS ?? "",
  };
  const { mf, url } = await runUniverse({
    port: parsed.port,
    vars,
    persistDir: dir,
    onLog: (line) => console.error(line),
  });
  console.log(
    t(lang, "listening", { url, host: vars.UNIVERSE || `127.0.0.1:${parsed.port}`, dir }),
  );
  await serveUntilSignal(mf, {
    cronMs: 3_600_000,
    cron: () => runUniverseCron(mf, Date.now()),
    cronFailed: (detail) => console.error(t(lang, "cronFailed", { detail })),
  });
  console.log(t(lang, "stopped"));
  return 0;
}

if (import.meta.main) Deno.exit(await main());
