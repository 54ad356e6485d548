/**
 * Runs real spines on workerd through Miniflare for end-to-end tests: the spine Worker
 * bundled once per test run, SQLite Durable Objects, KV and rate-limit bindings.
 *
 * @module
 */
import { Miniflare } from "miniflare";
import { bundledSpinePath } from "../../kit/bundle.ts";

let scriptText: Promise<string> | undefined;

/** The compatibility date the spine runs with (also in spine/wrangler.jsonc). */
export const SPINE_COMPATIBILITY_DATE = "2026-04-20";

/** Options for {@linkcode startSpine}. */
export interface StartSpineOptions {
  /** The spine's `ADDRESS`. @default `127.0.0.1:<port>` */
  address?: string;
  /** `HUB_TOKEN`; `undefined` leaves the secret unset. */
  hubToken?: string | undefined;
  /** `ALLOW_INSECURE_PEERS=1`. @default true */
  allowInsecurePeers?: boolean;
  /** `AGENT_MODE`. @default "local" */
  mode?: "local" | "cloud";
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  port?: number;
  /** Keep Durable Object and KV state here so it survives a restart. */
  persistDir?: string;
  /** Bind `INBOX_IP_LIMIT` and `INBOX_SENDER_LIMIT`. @default true */
  rateLimits?: boolean;
  /** Extra bindings (e.g. a broken `INBOX_IP_LIMIT` to test a throwing binding). */
  bindings?: Record<string, unknown>;
}

/** A running spine. */
export interface RunningSpine {
  /** Base URL, `http://127.0.0.1:<port>` without a trailing slash. */
  url: string;
  /** The spine's address. */
  address: string;
  /** The port it listens on. */
  port: number;
  /** The Miniflare instance (for `dispatchFetch`, `getWorker()`...). */
  mf: Miniflare;
  /** Lines the Worker logged (console output). */
  logs: string[];
  /** Runs the Worker's cron handler as if scheduled at `scheduledTime` (epoch ms). */
  cron(scheduledTime: number): Promise<void>;
  /** Stops workerd. */
  stop(): Promise<void>;
}

// Miniflare's own typings do not resolve under Deno; this is the part the harness uses.
interface ScheduledWorker {
  scheduled(options: { scheduledTime: Date; cron: string }): Promise<{ outcome: string }>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts a spine on workerd and waits until it answers. */
export async function startSpine(options: StartSpineOptions = {}): Promise<RunningSpine> {
  Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
  scriptText ??= bundledSpinePath().then((path) => Deno.readTextFile(path));
  const script = await scriptText;
  const port = options.port || freePort();
  const address = options.address ?? `127.0.0.1:${port}`;
  const logs: string[] = [];
  const bindings: Record<string, unknown> = {
    ADDRESS: address,
    ALLOW_INSECURE_PEERS: options.allowInsecurePeers === false ? "0" : "1",
    AGENT_MODE: options.mode ?? "local",
    ...(options.hubToken === undefined ? {} : { HUB_TOKEN: options.hubToken }),
    ...options.bindings,
  };
  const persist = options.persistDir
    ? {
      durableObjectsPersist: `${options.persistDir}/do`,
      kvPersist: `${options.persistDir}/kv`,
    }
    : {};
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: SPINE_COMPATIBILITY_DATE,
    durableObjects: { MAILBOX: { className: "Mailbox", useSQLite: true } },
    kvNamespaces: ["PEER_CARDS"],
    ratelimits: options.rateLimits === false ? {} : {
      INBOX_IP_LIMIT: { simple: { limit: 60, period: 60 } },
      INBOX_SENDER_LIMIT: { simple: { limit: 30, period: 60 } },
    },
    // deno-lint-ignore no-explicit-any
    bindings: bindings as any,
    cf: false,
    host: "127.0.0.1",
    port,
    handleStructuredLogs: ({ message }: { message: string }) => {
      logs.push(message);
    },
    ...persist,
  });
  const ready = await mf.ready;
  const url = ready.href.replace(/\/$/, "");
  return {
    url,
    address,
    port,
    mf,
    logs,
    cron: async (scheduledTime) => {
      const worker = (await mf.getWorker()) as unknown as ScheduledWorker;
      const result = await worker.scheduled({
        scheduledTime: new Date(scheduledTime),
        cron: "* * * * *",
      });
      if (result.outcome !== "ok") throw new Error(`Cron failed: outcome ${result.outcome}`);
    },
    stop: () => mf.dispose(),
  };
}
