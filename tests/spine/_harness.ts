/**
 * Runs real spines on workerd through Miniflare for end-to-end tests: the spine Worker
 * bundled once per test run (`tests/_worker_bundle.ts`), SQLite Durable Objects, KV and
 * rate-limit bindings.
 *
 * @module
 */
import type { Miniflare } from "miniflare";
import { runSpine, runSpineCron, stopMiniflare } from "@agent/kit";
import { onFreePort } from "../_port.ts";
import { spineBundle } from "../_worker_bundle.ts";

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
  /** Bind the `PEER_CARDS` key-value namespace (off to test a broken one). @default true */
  cardCache?: boolean;
  /** Also serve the Worker on a socket without Miniflare's proxy (see `directUrl`). */
  direct?: boolean;
  /** Bind `DB` with the migrations applied. @default true in cloud mode */
  relationalStore?: boolean;
  /** Bind `BRAIN` to the container class (it cannot start here). */
  brainBinding?: boolean;
  /** More string variables (`SPINE_URL`, `BRAIN_URL`, `KEEP_AWAKE`...). */
  vars?: Record<string, string>;
  /** Extra bindings (e.g. a broken `INBOX_IP_LIMIT` to test a throwing binding). */
  bindings?: Record<string, unknown>;
}

/** A running spine. */
export interface RunningSpine {
  /** Base URL, `http://127.0.0.1:<port>` without a trailing slash. */
  url: string;
  /** The Worker's own socket without Miniflare's proxy, when `direct` was asked. */
  directUrl?: string | undefined;
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

/**
 * Spines shared by a test file's tests, one per set of options, all stopped after the
 * isolate's last test (the file's, or its shard's): a start costs ~0.6 CPU-seconds (~1 in cloud mode, with the
 * migrations), so tests whose state does not meet take turns on one. Call it at the
 * top of a module (it registers the file's `Deno.test.afterAll`); the function it
 * returns starts a spine on first use of its options and hands the same one back later.
 */
export function fileSpines(): (options: StartSpineOptions) => Promise<RunningSpine> {
  const running = new Map<string, Promise<RunningSpine>>();
  Deno.test.afterAll(async () => {
    const all = [...running.values()];
    running.clear();
    for (const spine of all) await (await spine).stop();
  });
  return (options) => {
    const key = JSON.stringify(options);
    let spine = running.get(key);
    if (spine === undefined) {
      spine = startSpine(options);
      running.set(key, spine);
    }
    return spine;
  };
}

/** Starts a spine on workerd and waits until it answers. */
export async function startSpine(options: StartSpineOptions = {}): Promise<RunningSpine> {
  return await onFreePort(options.port, (port) => startSpineOn(port, options));
}

async function startSpineOn(port: number, options: StartSpineOptions): Promise<RunningSpine> {
  const address = options.address ?? `127.0.0.1:${port}`;
  const logs: string[] = [];
  const vars: Record<string, string> = {
    ADDRESS: address,
    ALLOW_INSECURE_PEERS: options.allowInsecurePeers === false ? "0" : "1",
    AGENT_MODE: options.mode ?? "local",
    ...options.vars,
  };
  if (options.hubToken !== undefined) vars.HUB_TOKEN = options.hubToken;
  const { mf, url, directUrl } = await runSpine({
    script: await spineBundle(),
    directPort: options.direct ? 0 : undefined,
    port,
    vars,
    persistDir: options.persistDir,
    rateLimits: options.rateLimits ?? true,
    cardCache: options.cardCache ?? true,
    relationalStore: options.relationalStore ?? options.mode === "cloud",
    brainBinding: options.brainBinding ?? false,
    bindings: options.bindings ?? {},
    onLog: (line) => {
      logs.push(line);
    },
  });
  return {
    url,
    directUrl,
    address,
    port,
    mf,
    logs,
    cron: (scheduledTime) => runSpineCron(mf, scheduledTime),
    stop: () => stopMiniflare(mf),
  };
}
