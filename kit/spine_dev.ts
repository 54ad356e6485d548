/**
 * `deno task spine:dev [--port N]`: serves the spine on workerd (through Miniflare) at
 * `127.0.0.1:N` (default 8787), with the bindings of `spine/wrangler.jsonc` and its
 * state kept under `SPINE_STATE_DIR` (default `.spine-dev/`), so queued envelopes, the
 * card and cached peer cards survive a restart. Reads `ADDRESS`, `HUB_TOKEN`,
 * `ALLOW_INSECURE_PEERS` and `AGENT_MODE` from the environment and runs the cron every
 * minute. With `AGENT_MODE=cloud` it also binds a local relational store `DB` (the
 * migrations applied, kept under the state folder) and reads `SPINE_URL`, `KEEP_AWAKE`
 * and `BRAIN_URL` (a local `agent cloud run` standing in for the container), so the
 * whole cloud mode but the container runs here. Nothing reaches outside this machine except the peers a spine fetches cards
 * from.
 *
 * @module
 */
import type { Miniflare } from "miniflare";
import { bundledModule, startMiniflare, stopMiniflare, triggerScheduled } from "./miniflare.ts";
import { bundledSpineScript } from "./bundle.ts";
import { catalogue, currentLang, errorMessage } from "@agent/net/common";
import { applyMigrations, migratorSecret, migratorWorker } from "./d1_migrate.ts";

/** The compatibility date of `spine/wrangler.jsonc`. */
export const SPINE_COMPATIBILITY_DATE = "2026-04-20";

/** The default development port. */
export const SPINE_DEV_PORT = 8787;

/** Options for {@linkcode spineMiniflareOptions}. */
export interface SpineRuntimeOptions {
  /** The bundled Worker's source. */
  script: string;
  /** Port on 127.0.0.1. */
  port: number;
  /** String variables and secrets (`ADDRESS`, `HUB_TOKEN`, ...). */
  vars: Record<string, string>;
  /** Keep Durable Object and KV state under this folder. */
  persistDir?: string | undefined;
  /** Bind the two inbox rate limits. @default true */
  rateLimits?: boolean;
  /**
   * Bind the `PEER_CARDS` key-value namespace. Tests turn it off to put a broken
   * binding in its place through `bindings`. @default true
   */
  cardCache?: boolean;
  /**
   * Bind the relational store `DB` (cloud mode's state and sessions) and apply the
   * spine's migrations to it. @default false
   */
  relationalStore?: boolean;
  /**
   * Bind `BRAIN` to the container class. workerd here runs no containers, so the
   * brain cannot start; tests use it to see that failure answered. @default false
   */
  brainBinding?: boolean;
  /** Extra bindings, e.g. a deliberately broken one in tests. */
  bindings?: Record<string, unknown>;
  /** Receives every line the Worker logs. */
  onLog?: (line: string) => void;
  /**
   * Also expose the Worker on its own socket (port 0 picks one), skipping Miniflare's
   * development proxy in front of it; see `directUrl`.
   */
  directPort?: number | undefined;
}

/**
 * The Miniflare options that mirror `spine/wrangler.jsonc`: the Mailbox as a SQLite
 * Durable Object, the `PEER_CARDS` KV namespace, the two rate limits, `cf: false`, no
 * Cache API.
 */
export function spineMiniflareOptions(options: SpineRuntimeOptions): Record<string, unknown> {
  return {
    ...bundledModule(options.script),
    compatibilityDate: SPINE_COMPATIBILITY_DATE,
    durableObjects: {
      MAILBOX: { className: "Mailbox", useSQLite: true },
      ...(options.brainBinding ? { BRAIN: { className: "Brain", useSQLite: true } } : {}),
    },
    kvNamespaces: options.cardCache === false ? [] : ["PEER_CARDS"],
    d1Databases: options.relationalStore ? ["DB"] : [],
    ratelimits: options.rateLimits === false ? {} : {
      INBOX_IP_LIMIT: { simple: { limit: 60, period: 60 } },
      INBOX_SENDER_LIMIT: { simple: { limit: 30, period: 60 } },
    },
    bindings: { ...options.vars, ...options.bindings },
    cf: false,
    // The spine never uses the Cache API: without it Miniflare leaves out its cache
    // Worker, which workerd would compile on every start (~12% of a start's work there).
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
        handleStructuredLogs: ({ message }: { message: string }): void => {
          options.onLog!(message);
        },
      }
      : {}),
    ...(options.persistDir
      ? {
        durableObjectsPersist: `${options.persistDir}/do`,
        kvPersist: `${options.persistDir}/kv`,
        d1Persist: `${options.persistDir}/d1`,
      }
      : {}),
  };
}

/** Options for {@linkcode runSpine}. */
export type RunSpineOptions = Omit<SpineRuntimeOptions, "script"> & {
  /**
   * The bundled Worker, when the caller keeps one (tests share one bundle across their
   * files). @default the spine bundled once per process
   */
  script?: string | undefined;
};

/** Starts Miniflare with the spine and returns it with its base URL. */
export async function runSpine(
  options: RunSpineOptions,
): Promise<{ mf: Miniflare; url: string; directUrl?: string }> {
  // The runtime must not fetch the platform's request metadata from the internet.
  Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
  const script = options.script ?? await bundledSpineScript();
  const secret = migratorSecret();
  const config = (port: number) => {
    const flat = spineMiniflareOptions({ ...options, port, script });
    return (options.relationalStore ? withMigrator(flat, secret) : flat) as ConstructorParameters<
      typeof Miniflare
    >[0];
  };
  if (options.relationalStore && options.persistDir) {
    // Migrate the kept database before the real port opens, so no request meets a
    // database without its tables.
    const first = startMiniflare(config(0));
    try {
      await first.ready;
      await applyMigrations(first, secret);
    } finally {
      await stopMiniflare(first);
    }
  }
  for (let attempt = 0;; attempt++) {
    const mf = startMiniflare(config(options.port));
    try {
      const ready = await mf.ready;
      // Without a kept database (tests) it exists only in this instance: migrate it now.
      if (options.relationalStore) await applyMigrations(mf, secret);
      const url = ready.href.replace(/\/$/, "");
      if (options.directPort === undefined) return { mf, url };
      const direct = await mf.unsafeGetDirectURL();
      return { mf, url, directUrl: direct.href.replace(/\/$/, "") };
    } catch (error) {
      await stopMiniflare(mf);
      // A spine started again on its own port (a restart) may find the old one's socket
      // still closing: wait for it a little, then say so.
      const inUse = (error as { code?: unknown })?.code === "ERR_ADDRESS_IN_USE";
      if (!inUse || !options.port || attempt >= 10) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

// The options Miniflare takes once for all its Workers; the rest belong to the spine's.
const SHARED_KEYS = new Set([
  "host",
  "port",
  "cf",
  "handleStructuredLogs",
  "durableObjectsPersist",
  "kvPersist",
  "d1Persist",
  "unsafeTriggerHandlers",
]);

/** The spine's options as the first of two Workers, the second the D1 migrator. */
function withMigrator(flat: Record<string, unknown>, secret: string): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  // Unnamed, as when it runs alone: Miniflare keys kept Durable Object state by the
  // Worker's name, and the same state folder serves both ways.
  const spine: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    (SHARED_KEYS.has(key) ? shared : spine)[key] = value;
  }
  return { ...shared, workers: [spine, migratorWorker(secret, SPINE_COMPATIBILITY_DATE)] };
}

/** Runs the Worker's cron handler once, as if scheduled at `scheduledTime` (epoch ms). */
export async function runSpineCron(mf: Miniflare, scheduledTime: number): Promise<void> {
  const outcome = await triggerScheduled(mf, scheduledTime, "* * * * *");
  if (outcome !== "ok") throw new Error(`Cannot run the spine cron: outcome ${outcome}`);
}

const t = catalogue({
  listening:
    "Spine listening on {url} (address {address}, mode {mode}, state in {dir}). Ctrl-C stops it.",
  noToken: "HUB_TOKEN is not set: every /hub/* route answers 503 not_configured.",
  badPort: "--port needs a number from 1 to 65535.",
  badArg: "Unknown argument '{arg}'. Usage: deno task spine:dev [--port N]",
  stopped: "Spine stopped.",
  cronFailed: "Spine cron failed: {detail}",
}, {
  listening:
    "Spine {url} adresinde dinliyor (adres {address}, kip {mode}, durum {dir} içinde). Durdurmak için Ctrl-C.",
  noToken: "HUB_TOKEN tanımlı değil: her /hub/* yolu 503 not_configured döner.",
  badPort: "--port 1 ile 65535 arasında bir sayı ister.",
  badArg: "Bilinmeyen argüman '{arg}'. Kullanım: deno task spine:dev [--port N]",
  stopped: "Spine durdu.",
  cronFailed: "Spine cron başarısız: {detail}",
});

/** Parses `[--port N]`; returns the port or an error sentence key. */
export function parseDevArgs(
  args: string[],
  defaultPort: number = SPINE_DEV_PORT,
): { port: number } | { error: "badPort" | "badArg"; arg?: string } {
  let port = defaultPort;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    let value: string | undefined;
    if (arg === "--port") value = args[++i];
    else if (arg.startsWith("--port=")) value = arg.slice("--port=".length);
    else return { error: "badArg", arg };
    if (
      value === undefined || !/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535
    ) {
      return { error: "badPort" };
    }
    port = Number(value);
  }
  return { port };
}

async function main(): Promise<number> {
  const env = Deno.env.toObject();
  const lang = currentLang(env);
  const parsed = parseDevArgs(Deno.args);
  if ("error" in parsed) {
    console.error(t(lang, parsed.error, { arg: parsed.arg ?? "" }));
    return 2;
  }
  const dir = env.SPINE_STATE_DIR || ".spine-dev";
  await Deno.mkdir(dir, { recursive: true });
  const vars: Record<string, string> = {
    ADDRESS: env.ADDRESS ?? "",
    ALLOW_INSECURE_PEERS: env.ALLOW_INSECURE_PEERS ?? "",
    AGENT_MODE: env.AGENT_MODE ?? "local",
  };
  const cloud = vars.AGENT_MODE === "cloud";
  // Cloud mode: the spine's URL and the brain process it hands messenger updates to.
  for (const name of ["SPINE_URL", "BRAIN_URL", "KEEP_AWAKE"]) {
    if (cloud && env[name]) vars[name] = env[name]!;
  }
  if (env.HUB_TOKEN) vars.HUB_TOKEN = env.HUB_TOKEN;
  else console.error(t(lang, "noToken"));
  const { mf, url } = await runSpine({
    port: parsed.port,
    vars,
    persistDir: dir,
    relationalStore: cloud,
    onLog: (line) => console.error(line),
  });
  const address = vars.ADDRESS || `127.0.0.1:${parsed.port}`;
  const mode = cloud ? "cloud" : "local";
  console.log(t(lang, "listening", { url, address, mode, dir }));
  await serveUntilSignal(mf, {
    cronMs: 60_000,
    cron: () => runSpineCron(mf, Date.now()),
    cronFailed: (detail) => console.error(t(lang, "cronFailed", { detail })),
  });
  console.log(t(lang, "stopped"));
  return 0;
}

/** Options for {@linkcode serveUntilSignal}. */
export interface ServeUntilSignalOptions {
  /** How often the cron runs. */
  cronMs: number;
  /** Runs the Worker's cron once. */
  cron(): Promise<void>;
  /** Says that a cron run failed. */
  cronFailed(detail: string): void;
}

/**
 * Keeps a development Worker running, its cron on schedule, until SIGINT or SIGTERM;
 * then disposes of it (`spine:dev`, `universe:dev`).
 */
export async function serveUntilSignal(
  mf: Miniflare,
  options: ServeUntilSignalOptions,
): Promise<void> {
  const cron = setInterval(() => {
    options.cron().catch((error) => options.cronFailed(errorMessage(error)));
  }, options.cronMs);
  const { promise, resolve } = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => resolve());
  }
  await promise;
  clearInterval(cron);
  await stopMiniflare(mf);
}

if (import.meta.main) Deno.exit(await main());
