/**
 * `agent cloud run`, the brain container's entry point: checks its variables and the
 * spine's mode, pulls the files (sub-agent files the spine no longer holds removed),
 * rewrites `[sessions] backend` and `[net] store` to `spine` in the pulled
 * `agent.toml` (nothing else, comments kept), serves `GET /health` on `0.0.0.0:8080`
 * and runs the hub in this process until SIGTERM. The messenger takes its updates from
 * the spine (which ends the Bot API webhook) on `POST /messenger/webhook` of the same
 * port. The web dashboard is served on that port too, under `/hub/dashboard`, for the
 * spine to forward to (`agent dashboard --cloud`). It refuses an `AGENT_HOME` whose
 * `agent.toml` it did not write.
 *
 * Its SIGTERM and SIGINT handlers go in before anything else (issue 27 R1): an
 * orchestrator may stop a container as soon as `/health` answers, or before, and a
 * signal at any moment of the start must end it cleanly (exit 0, lock released), not
 * kill it between `/health` and the hub's own handlers.
 *
 * @module
 */
import { messengerWebhookSecret } from "@agent/net";
import { writeFileAtomic } from "../atomic_file.ts";
import { loadConfig } from "../config/read.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { AgentPaths } from "../paths.ts";
import { UserError } from "../user_error.ts";
import { t } from "../cloud/_messages.ts";
import { CloudSpine } from "../cloud/spine_files.ts";
import { cloudTarget } from "../cloud_target.ts";
import { pullFiles } from "../cloud/sync.ts";
import { setTomlString } from "../cloud/toml_keys.ts";
import { runAssembledHub } from "../daemon/run.ts";
import { fetchControl } from "../control/client.ts";
import { startHub } from "./start.ts";
import { brainPortHandler } from "./brain_port.ts";
import { cloudMount, type DashboardDoor } from "../dashboard/mod.ts";

/** The file in `AGENT_HOME` that says which `agent.toml` `agent cloud run` wrote. */
export const CLOUD_MARKER = ".agent-cloud-run.json";

/** Options for {@linkcode runCloud}. */
export interface CloudRunOptions {
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  logger: Logger;
  version: string;
  out(line: string): void;
  err(line: string): void;
  fetch?: typeof fetch;
  /** Another way to stop it (tests). */
  signal?: AbortSignal;
}

/** Runs the brain until SIGTERM; returns the exit code. */
export async function runCloud(options: CloudRunOptions): Promise<number> {
  const stopping = new AbortController();
  const onTerm = () => stopping.abort("SIGTERM");
  const onInt = () => stopping.abort("SIGINT");
  Deno.addSignalListener("SIGTERM", onTerm);
  Deno.addSignalListener("SIGINT", onInt);
  const signal = options.signal === undefined
    ? stopping.signal
    : AbortSignal.any([options.signal, stopping.signal]);
  try {
    return await startAndRun(options, signal);
  } finally {
    Deno.removeSignalListener("SIGTERM", onTerm);
    Deno.removeSignalListener("SIGINT", onInt);
  }
}

/** A start stopped by a signal before the hub ran: nothing held, a clean exit. */
function stoppedEarly(options: CloudRunOptions, signal: AbortSignal): number {
  const why = typeof signal.reason === "string" ? signal.reason : "stop requested";
  options.logger.info(`cloud: stopped while starting (${why})`);
  return 0;
}

async function startAndRun(options: CloudRunOptions, signal: AbortSignal): Promise<number> {
  const { env, paths, lang, logger } = options;
  const { url, token } = cloudTarget(env, lang);
  const spine = new CloudSpine(url, token, lang, options.fetch ? { fetch: options.fetch } : {});
  await spine.requireCloudMode();
  await refuseForeignConfig(paths, lang);
  if (signal.aborted) return stoppedEarly(options, signal);
  const pulled = await pullFiles({
    spine,
    home: paths.home,
    lang,
    force: true,
    removeGoneSubs: true,
    out: (line) => logger.info(`cloud: ${line}`),
  });
  const toml = pulled.texts.get("agent.toml");
  if (toml === undefined) throw new UserError(t(lang, "no_config_on_spine"));
  const rewritten = setTomlString(
    setTomlString(toml, "sessions", "backend", "spine"),
    "net",
    "store",
    "spine",
  );
  await writeFileAtomic(paths.configFile, rewritten, { mode: 0o600, dirMode: 0o700 });
  await writeFileAtomic(
    `${paths.home}/${CLOUD_MARKER}`,
    JSON.stringify({ sha256: await sha256(rewritten), at: new Date().toISOString() }),
    { mode: 0o600 },
  );

  if (signal.aborted) return stoppedEarly(options, signal);
  const loaded = await loadConfig(paths, { lang });
  // The spine ends the Bot API webhook and hands each update on: webhook mode, with
  // the secret both sides derive from the hub token.
  const config = { ...loaded, messenger: { ...loaded.messenger, mode: "webhook" as const } };
  const hubEnv = { ...env, MESSENGER_WEBHOOK_SECRET: await messengerWebhookSecret(token) };
  // The cloud ledger keeps every budget across container restarts.
  const hub = await startHub({
    config,
    env: hubEnv,
    paths,
    lang,
    logger,
    cloudLedger: { url, token, ...(options.fetch ? { fetch: options.fetch } : {}) },
  });
  if (signal.aborted) {
    await hub.close();
    return stoppedEarly(options, signal);
  }

  let controlPort: number | undefined;
  const hubStatus = async (): Promise<unknown> => {
    if (controlPort === undefined) return null;
    return (await fetchControl(controlPort, "/status", {
      timeoutMs: 5_000,
      tokenFile: paths.hubTokenFile,
    })) ?? null;
  };
  const host = env.AGENT_CLOUD_HEALTH_HOST?.trim() || "0.0.0.0";
  const port = Number(env.AGENT_CLOUD_HEALTH_PORT?.trim() || "8080");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UserError(`AGENT_CLOUD_HEALTH_PORT must be a port number, not '${port}'.`);
  }
  let dashboardDoor: DashboardDoor | undefined;
  const handler = brainPortHandler({
    version: options.version,
    hubStatus,
    routes: () => hub.routes(),
    log: (line) => logger.error(line),
    dashboard: () => dashboardDoor,
    spineToken: token,
  });
  let health: Deno.HttpServer<Deno.NetAddr>;
  try {
    health = Deno.serve({ hostname: host, port, onListen() {} }, handler);
  } catch (error) {
    await hub.close();
    throw error;
  }
  options.out(t(lang, "run_health", { host, port: health.addr.port }));
  try {
    return await runAssembledHub(hub, {
      paths,
      lang,
      logger,
      port: config.hub.port,
      version: options.version,
      out: options.out,
      err: options.err,
      onListen: (p) => {
        controlPort = p;
      },
      // The handlers above already listen: the hub stops on their signal.
      signal,
      listenSignals: false,
      // The dashboard behind the spine, at its https origin.
      otherDashboard: {
        mount: cloudMount(url, token),
        ready: (door) => {
          dashboardDoor = door;
        },
      },
    });
  } finally {
    await health.shutdown().catch(() => {});
    await hub.close();
  }
}

async function refuseForeignConfig(paths: AgentPaths, lang: Lang): Promise<void> {
  let text: string;
  try {
    text = await Deno.readTextFile(paths.configFile);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  let marker: { sha256?: unknown } = {};
  try {
    marker = JSON.parse(await Deno.readTextFile(`${paths.home}/${CLOUD_MARKER}`));
  } catch {
    // no marker: not ours
  }
  if (marker.sha256 !== await sha256(text)) {
    throw new UserError(t(lang, "foreign_config", { path: paths.configFile }));
  }
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
