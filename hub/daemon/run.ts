/**
 * `agent hub run`: the foreground hub. It holds the lock, serves the control API on
 * loopback, beats a heartbeat, runs its components (the network service, channels)
 * and shuts down cleanly on SIGTERM, Ctrl-C or `agent hub stop`.
 *
 * @module
 */
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import {
  controlHandler,
  type ControlSources,
  removeHubToken,
  writeHubToken,
} from "../control/mod.ts";
import type { OwnerEvent, OwnerEventFeed } from "../events/mod.ts";
import {
  dashboard,
  type DashboardDoor,
  type DashboardMount,
  type DashboardParts,
} from "../dashboard/mod.ts";
import { acquireLock, releaseLock } from "./lock.ts";
import { recordCrash, uncleanEnd, writeHeartbeat } from "./state_files.ts";
import { t } from "./_messages.ts";
import { cannotWrite } from "./writable.ts";

/** Something the hub runs for its lifetime (the network service, a channel). */
export interface HubComponent {
  /** Short name for the log. */
  name: string;
  /** Starts the component; must not throw for a recoverable problem. */
  start(): Promise<void> | void;
  /** Stops it; the hub waits for this (bounded) before it exits. */
  stop(): Promise<void> | void;
}

/** Options for {@linkcode runHub}. */
export interface RunHubOptions {
  paths: AgentPaths;
  lang: Lang;
  logger: Logger;
  /** Control API port on 127.0.0.1 (`[hub] port`, default 8790; 0 picks a free one). */
  port: number;
  version: string;
  out(text: string): void;
  err(text: string): void;
  /** What the hub runs besides its control API. */
  components?: HubComponent[];
  /** `{<role>: <spend object>}` for the control API. */
  spend(): Record<string, unknown>;
  /** `GET /spend?by=`: spend broken down over a period. */
  spendBy?: ControlSources["spendBy"];
  /** The `net` block for the control API. */
  net(): Record<string, unknown>;
  /** The channels' blocks of `/status`, by key. */
  blocks?(): Record<string, Record<string, unknown>>;
  /** Network events for `GET /net/events`. */
  events?(afterSec: number): Promise<unknown[]>;
  /** The owner-event bus, served as server-sent events at `GET /events`. */
  ownerEvents?: OwnerEventFeed;
  /** The channels' `POST` routes (a webhook), by path. */
  routes?: ControlSources["routes"];
  /** What the web dashboard adds to the control API's sources (its charts, the desk). */
  dashboard?: DashboardParts;
  /** `POST /config/reload`: `agent.toml` read again into the running hub. */
  reload?: ControlSources["reload"];
  /** `GET /approvals`, `POST /approvals/decide`: the desk's approvals, for the TUI. */
  approvals?: ControlSources["approvals"];
  /**
   * The same dashboard served elsewhere too (the brain's port behind a cloud spine,
   * `agent cloud run`): `ready` receives its door when the control API is built.
   */
  otherDashboard?: { mount: DashboardMount; ready(door: DashboardDoor): void };
  /** Heartbeat interval. @default 5000 */
  heartbeatMs?: number;
  /** Another way to stop the hub (tests, an embedding program). */
  signal?: AbortSignal;
  /** Listen to SIGTERM and SIGINT. @default true */
  listenSignals?: boolean;
  /** Called once the control API listens, with the real port. */
  onListen?(port: number): void;
  now?: () => number;
}

/** Runs the hub until it is told to stop; returns the exit code. */
export async function runHub(options: RunHubOptions): Promise<number> {
  const { paths, lang, logger } = options;
  const now = options.now ?? Date.now;
  const lockFile = paths.hubLockFile;
  const pid = Deno.pid;
  const startedAt = now();
  let lock;
  try {
    lock = acquireLock(lockFile, pid, startedAt);
  } catch (error) {
    if (!cannotWrite(error)) throw error;
    options.err(t(lang, "read_only", { dir: paths.dataDir }));
    return 1;
  }
  if (!lock.ok) {
    options.err(t(lang, "already_running", { pid: lock.holder.pid }));
    return 1;
  }
  if (lock.stale !== undefined) noteUncleanEnd(lockFile, lock.stale.pid, now(), logger, lang);

  const crashed = (reason: string) => {
    recordCrash(lockFile, { at: now(), pid, reason });
    logger.error(`hub crashed: ${reason}`);
    releaseLock(lockFile, pid);
  };
  const onRejection = (event: PromiseRejectionEvent) => crashed(describe(event.reason));
  const onError = (event: ErrorEvent) => crashed(describe(event.error ?? event.message));
  globalThis.addEventListener("unhandledrejection", onRejection);
  globalThis.addEventListener("error", onError);

  let lastBeat: number | undefined;
  const beat = async () => {
    lastBeat = now();
    try {
      await writeHeartbeat(lockFile, { pid, at: lastBeat });
    } catch (error) {
      logger.warn(`hub heartbeat: ${describe(error)}`);
    }
  };

  let token: string;
  try {
    // A fresh credential each start: a token read by a process before a restart is void.
    token = await writeHubToken(paths.hubTokenFile);
  } catch (error) {
    removeListeners();
    releaseLock(lockFile, pid);
    throw error;
  }
  let port = options.port;
  let server: Deno.HttpServer<Deno.NetAddr> | undefined;
  // Ends the event streams, which would otherwise hold the server's shutdown open.
  const closing = new AbortController();
  const handler = controlHandler({
    pid,
    version: options.version,
    startedAt,
    home: paths.home,
    dataDir: paths.dataDir,
    get port() {
      return port;
    },
    token,
    now,
    heartbeatAt: () => lastBeat,
    spend: options.spend,
    ...(options.spendBy ? { spendBy: options.spendBy } : {}),
    net: options.net,
    ...(options.blocks ? { blocks: options.blocks } : {}),
    ...(options.events ? { events: options.events } : {}),
    ...(options.ownerEvents ? { ownerEvents: options.ownerEvents } : {}),
    closing: closing.signal,
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.reload ? { reload: options.reload } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
    dashboard: (status, authorizeCode) => {
      const door = (mount?: DashboardMount) =>
        dashboard({
          ...options.dashboard,
          lang,
          now,
          status,
          // Behind the spine the brain's port has checked the hub token on every
          // request, `POST /hub/dashboard/code` included.
          authorizeCode: mount ? () => true : authorizeCode,
          recentEvents: async () => (await options.events?.(0) ?? []) as OwnerEvent[],
          ...(options.ownerEvents ? { ownerEvents: options.ownerEvents } : {}),
          closing: closing.signal,
          log: (line) => logger.error(`dashboard: ${line}`),
          ...(mount ? { mount } : {}),
        });
      if (options.otherDashboard) options.otherDashboard.ready(door(options.otherDashboard.mount));
      return door();
    },
    log: (line) => logger.error(line),
  });
  // Ctrl-C and SIGTERM are heard before the control API answers: a signal sent as soon as
  // it answers (a supervisor, a test) stops the hub cleanly, not by the default exit 130.
  const stop = Promise.withResolvers<string>();
  const onTerm = () => stop.resolve("SIGTERM");
  const onInt = () => stop.resolve("SIGINT");
  const listenSignals = options.listenSignals ?? true;
  if (listenSignals) {
    Deno.addSignalListener("SIGTERM", onTerm);
    Deno.addSignalListener("SIGINT", onInt);
  }
  try {
    server = Deno.serve({ hostname: "127.0.0.1", port: options.port, onListen: () => {} }, handler);
    port = server.addr.port;
  } catch (error) {
    removeSignals();
    removeListeners();
    await removeHubToken(paths.hubTokenFile, token);
    releaseLock(lockFile, pid);
    if (error instanceof Deno.errors.AddrInUse) {
      options.err(t(lang, "port_busy", { port: options.port }));
      return 1;
    }
    throw error;
  }
  options.onListen?.(port);
  await beat();
  const beater = setInterval(beat, options.heartbeatMs ?? 5000);

  // A signal aborted with a reason that is a word (`SIGTERM` from `agent cloud run`) says so.
  const requested = () =>
    typeof options.signal?.reason === "string" ? options.signal.reason : "stop requested";
  options.signal?.addEventListener("abort", () => stop.resolve(requested()), { once: true });
  if (options.signal?.aborted) stop.resolve(requested());

  const components = options.components ?? [];
  for (const component of components) {
    try {
      await component.start();
      logger.info(`hub: ${component.name} started`);
    } catch (error) {
      // A component that cannot start is logged; the hub and the others keep running.
      logger.error(`hub: ${component.name} did not start: ${describe(error)}`);
    }
  }
  logger.info(`hub started (pid ${pid}, control port ${port})`);
  options.out(t(lang, "started", { pid, port }));

  const why = await stop.promise;
  logger.info(`hub stopping (${why})`);
  options.out(t(lang, "stopping", { why }));
  for (const component of [...components].reverse()) {
    try {
      await withTimeout(Promise.resolve(component.stop()), 10_000);
    } catch (error) {
      logger.warn(`hub: ${component.name} did not stop cleanly: ${describe(error)}`);
    }
  }
  clearInterval(beater);
  removeSignals();
  closing.abort();
  options.dashboard?.close?.();
  await server.shutdown().catch(() => {});
  removeListeners();
  await removeHubToken(paths.hubTokenFile, token);
  releaseLock(lockFile, pid);
  logger.info("hub stopped");
  options.out(t(lang, "stopped_clean"));
  return 0;

  function removeSignals() {
    if (!listenSignals) return;
    Deno.removeSignalListener("SIGTERM", onTerm);
    Deno.removeSignalListener("SIGINT", onInt);
  }

  function removeListeners() {
    globalThis.removeEventListener("unhandledrejection", onRejection);
    globalThis.removeEventListener("error", onError);
  }
}

/** What {@linkcode runAssembledHub} takes besides the hub. */
export type RunAssembledOptions = Omit<
  RunHubOptions,
  | "components"
  | "spend"
  | "spendBy"
  | "net"
  | "blocks"
  | "events"
  | "ownerEvents"
  | "routes"
  | "dashboard"
  | "reload"
  | "approvals"
>;

/** The parts of an assembled hub (`startHub()`) that {@linkcode runHub} serves. */
export interface AssembledHub {
  services: HubComponent[];
  spend(): Record<string, unknown>;
  spendBy: NonNullable<ControlSources["spendBy"]>;
  blocks(): Record<string, Record<string, unknown>>;
  events(afterSec: number): Promise<unknown[]>;
  ownerEvents: OwnerEventFeed;
  routes(): Record<string, (request: Request) => Promise<Response>>;
  /** The dashboard's charts and conversations. */
  dashboard?: DashboardParts;
  /** `agent.toml` read again into the running hub. */
  reload?(): Promise<{ applied: string[]; restart: string[] }>;
  /** The desk's approvals, for the TUI (`GET /approvals`). */
  approvals?: ControlSources["approvals"];
}

/**
 * Runs an assembled hub: its channels as components, its spend, blocks, events and
 * routes behind the control API (`agent hub run`, `agent cloud run`).
 */
export function runAssembledHub(hub: AssembledHub, options: RunAssembledOptions): Promise<number> {
  return runHub({
    ...options,
    components: hub.services,
    spend: hub.spend,
    spendBy: hub.spendBy,
    net: () => hub.blocks().net ?? {},
    blocks: hub.blocks,
    events: hub.events,
    ownerEvents: hub.ownerEvents,
    routes: hub.routes,
    ...(hub.dashboard ? { dashboard: hub.dashboard } : {}),
    ...(hub.reload ? { reload: () => hub.reload!() } : {}),
    ...(hub.approvals ? { approvals: hub.approvals } : {}),
  });
}

function noteUncleanEnd(lockFile: string, oldPid: number, at: number, logger: Logger, lang: Lang) {
  const crash = uncleanEnd(lockFile, oldPid, at, lang);
  recordCrash(lockFile, crash);
  logger.warn(crash.reason);
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
