/**
 * The hub of a home the test made (`agent init`'s files, its own agent.toml and `.env`),
 * run in the test's own process as `agent hub run` runs it: the same `startHub()` and
 * `runAssembledHub()`, its `.env` over the test's environment, its log file, its
 * language and its `[hub] port`. A hub process costs about 1.2 s of processor time to
 * load the agent before it does anything; a test file that starts several hubs loads
 * it once this way. A test whose point is the process (its output, signals, a kill)
 * keeps `spawnHubProcess()` (`_hub_process.ts`); `_hub_in_process.ts` makes a home of
 * its own for the dashboard's tests.
 *
 * @module
 */
import { Logger, readEnvFileSync, resolvePaths } from "@agent/hub/base";
import { runAssembledHub, startHub } from "@agent/hub";
import { loadConfig } from "@agent/hub/config";

/** A hub running in this process. */
export interface HomeHub {
  /** Its control API's port. */
  port: number;
  /** Stops it as SIGTERM would (services stopped, then the hub closed); once. */
  stop(): Promise<void>;
}

/**
 * Starts the hub of `home` in this process, with `env` over its `.env` and this
 * process's environment; resolves once its control API listens.
 */
export async function startHomeHub(
  home: string,
  env: Record<string, string> = {},
): Promise<HomeHub> {
  const merged = { ...readEnvFileSync(resolvePaths({ home, env: {} }).envFile) };
  Object.assign(merged, Deno.env.toObject(), { NO_COLOR: "1" }, env);
  const paths = resolvePaths({ home, env: merged });
  const lang = (await loadConfig(paths, { lang: "en" })).ui.lang ?? "en";
  const config = await loadConfig(paths, { lang });
  const logger = new Logger({ file: paths.logFile, stderr: "off" });
  const hub = await startHub({ config, env: merged, paths, lang, logger });
  return await serveInProcess(hub, { paths, lang, logger, port: config.hub.port, name: home });
}

/** What {@linkcode serveInProcess} runs an assembled hub with. */
export interface ServeInProcessOptions {
  paths: AssembledRun["paths"];
  lang: AssembledRun["lang"];
  logger: AssembledRun["logger"];
  /** The control port (0: the system picks one). */
  port: number;
  /** The clock the hub goes by, when the test moves it. */
  now?: () => number;
  /** Names the hub in the error when it ends before it listens. */
  name: string;
}

type AssembledRun = Parameters<typeof runAssembledHub>[1];

/**
 * Runs an assembled hub (`startHub()`) in this process as `agent hub run` runs it, without
 * its signals; resolves once its control API listens. `stop()` (once) ends it as SIGTERM
 * would and closes the hub; a hub that ends before it listens is closed and the error says so.
 */
export async function serveInProcess(
  hub: Awaited<ReturnType<typeof startHub>>,
  options: ServeInProcessOptions,
): Promise<HomeHub> {
  const stop = new AbortController();
  const listening = Promise.withResolvers<number>();
  const done = runAssembledHub(hub, {
    paths: options.paths,
    lang: options.lang,
    logger: options.logger,
    port: options.port,
    version: "test",
    out: () => {},
    err: () => {},
    listenSignals: false,
    signal: stop.signal,
    ...(options.now ? { now: options.now } : {}),
    onListen: (port) => listening.resolve(port),
  });
  let port: number;
  try {
    port = await Promise.race([
      listening.promise,
      done.then((code) => {
        throw new Error(`the hub of ${options.name} ended before it listened (exit ${code})`);
      }),
    ]);
  } catch (error) {
    stop.abort();
    await done.catch(() => {});
    await hub.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    port,
    stop: () =>
      stopped ??= (async () => {
        stop.abort();
        try {
          await done;
        } finally {
          await hub.close();
        }
      })(),
  };
}
