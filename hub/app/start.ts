/**
 * {@linkcode startHub}: the hub assembled once from configuration: the spend ledger,
 * the network, the component registry, the sub-agents, the network turn and the
 * services. `agent hub run` runs what it returns; `agent net poll --once` polls its
 * network service once.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import { HttpError } from "@agent/net";
import type { AgentConfig } from "../config/types.ts";
import { hasRole } from "../config/roles.ts";
import { SESSION_SEARCH_FILE } from "../session_search/mod.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import { CloudLedger, Ledger } from "../ledger/mod.ts";
import { spendBy, type SpendByOptions, type SpendByReport, spendReport } from "../spend/mod.ts";
import {
  NetDigest,
  type NetNode,
  NetService,
  notConfiguredDetail,
  openNetwork,
  readNetEvents,
} from "../network/mod.ts";
import { turnAnswerer } from "../network_turn/mod.ts";
import { ModelRouter } from "../router/mod.ts";
import { Desk } from "../desk/mod.ts";
import { openMemory } from "./memory_store.ts";
import type { ControlApprovals } from "../control/mod.ts";
import { appCommands } from "./desk_commands.ts";
import { enabledTools } from "../tools/enabled.ts";
import { startMcpServers } from "./mcp_servers.ts";
import { failoverTeller } from "./failover_events.ts";
import { OwnerEventBus } from "../events/mod.ts";
import { SpendChartReader } from "../spend/chart.ts";
import {
  dashboardChat,
  dashboardJobs,
  dashboardMcp,
  dashboardMemory,
  dashboardNetwork,
  type DashboardParts,
  dashboardSettings,
} from "../dashboard/mod.ts";
import { openSessionStore } from "../sessions/open.ts";
import { runJobNowIn } from "./jobs_run_now.ts";
import { type Clock, SYSTEM_CLOCK, testClock } from "../clock.ts";
import { type ConfigReload, configReloader } from "../config/reload.ts";
import type { AgentPaths } from "../paths.ts";
import { subAgentDirectoryFrom } from "../subs/mod.ts";
import { loadComponents } from "./components.ts";
import {
  HUB_SERVICES,
  type HubContext,
  type HubService,
  type HubServiceFactory,
} from "./services.ts";

/** Options for {@linkcode startHub}. */
export interface StartHubOptions {
  config: AgentConfig;
  /** `.env` merged with the process environment. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  logger: Logger;
  /** The services to build. @default {@linkcode HUB_SERVICES} */
  services?: readonly HubServiceFactory[];
  /** A node already opened by the caller, used instead of opening the network again. */
  node?: NetNode;
  /**
   * Cloud mode: the spine whose cloud ledger keeps every row (`agent cloud run`). The
   * local ledger is filled from it before any call, and appends each new row to it.
   */
  cloudLedger?: { url: string; token: string; fetch?: typeof fetch };
  /**
   * The clock jobs and budgets run by. @default a test's `AGENT_TEST_CLOCK` (from a
   * checkout only), else the machine's
   */
  clock?: Clock;
}

/** The assembled hub. */
export interface Hub {
  context: HubContext;
  /** The services that are configured, in start order. */
  services: HubService[];
  /** `{<role>: <spend object>}` now, from the ledger (throws when it cannot be read). */
  spend(): Record<string, unknown>;
  /** Spend broken down over a period (`GET /spend?by=`); an unknown role is a 400. */
  spendBy(options: Omit<SpendByOptions, "nowMs">): SpendByReport;
  /** The blocks of `/status` the services give, by key (`net`, ...). */
  blocks(): Record<string, Record<string, unknown>>;
  /** Network events newer than `afterSec`, for `GET /net/events`. */
  events(afterSec: number): Promise<unknown[]>;
  /** The owner-event bus (`context.events`), for `GET /events`. */
  ownerEvents: OwnerEventBus;
  /** The services' `POST` routes on the control API, by path. */
  routes(): Record<string, (request: Request) => Promise<Response>>;
  /** The web dashboard's charts and conversations. */
  dashboard: DashboardParts;
  /**
   * Reads `agent.toml` again: its roles, models and budgets apply at once; what needs
   * a restart is named. Throws `ConfigError` (a bad file changes nothing).
   */
  reload(): Promise<ConfigReload>;
  /** The desk's open approvals, decided from the TUI through the control API. */
  approvals: ControlApprovals;
  /**
   * Closes what it opened (the desk's answers, the event bus with its subscriptions,
   * then the ledger); the services are stopped by whoever ran them, before.
   */
  close(): Promise<void>;
}

/**
 * Assembles the hub. Nothing here fails for a part that is not configured or cannot
 * open: a ledger that cannot be opened leaves budgets unchecked, a network that is not
 * configured leaves the network service idle with the reason, and a service factory
 * that throws is logged and left out.
 */
export async function startHub(options: StartHubOptions): Promise<Hub> {
  const { config, env, paths, lang, logger } = options;
  let ledger: Ledger | undefined;
  try {
    ledger = Ledger.open(paths.ledgerFile);
  } catch (error) {
    // The error is already a sentence naming the ledger ("Cannot open the spend ledger ...").
    logger.warn(`hub: ${errorMessage(error)}; budgets are not checked and calls are not counted`);
  }
  const cloudLedger = ledger === undefined ? undefined : await linkCloudLedger(ledger, options);
  const memory = openMemory(config, paths, lang, logger, options.cloudLedger);
  // One bus for every owner event the hub tells (the network, budgets, failovers).
  const events = await OwnerEventBus.open(paths.netDir, { logger });
  let node = options.node;
  let unconfigured: string | undefined;
  let missing: string | undefined;
  if (node === undefined) {
    try {
      const opened = await openNetwork({ config, env, paths, logger });
      if (opened.ok) node = opened.node;
      else {
        unconfigured = notConfiguredDetail(opened.missing, lang);
        missing = opened.missing;
      }
    } catch (error) {
      unconfigured = errorMessage(error);
      logger.warn(`network: ${unconfigured}`);
    }
  }
  const registry = await loadComponents(config, paths);
  const found = await subAgentDirectoryFrom(registry, { config, paths });
  for (const f of found.failures) logger.warn(`agent.subs ${f.component}: ${f.detail}`);
  // One router for every turn the hub runs, so a failover is told to the owner once.
  const clock = options.clock ?? testClock(env) ?? SYSTEM_CLOCK;
  const router = new ModelRouter({
    config,
    env,
    ledger,
    logger,
    lang,
    now: () => clock.now(),
    onFailover: failoverTeller({ ledger, events, lang, logger }),
  });
  if (node !== undefined) {
    node.events = events;
    node.lang = lang;
  }
  const answer = turnAnswerer({
    config,
    env,
    paths,
    subs: found.directory,
    logger,
    ledger,
    lang,
    router,
  });
  const digest = node === undefined || config.net.digest === "off" ? undefined : new NetDigest({
    mode: config.net.digest,
    lang,
    events,
    file: `${paths.netDir}/digest.json`,
    logger,
  });
  const network = new NetService({
    node,
    answer,
    ...(digest === undefined ? {} : { digest }),
    link: config.net.link,
    timings: { pollTimeoutSeconds: config.net.poll_timeout_seconds },
    ...(unconfigured === undefined ? {} : { unconfigured }),
    ...(missing === undefined ? {} : { missing }),
  });
  const mcp = await startMcpServers({ config, env, paths, lang, logger, events });
  const desk = new Desk({
    config,
    env,
    paths,
    lang,
    logger,
    ledger,
    tools: [...await enabledTools(registry, config.tools), ...(mcp?.tools() ?? [])],
    router,
    memory,
    commands: appCommands({
      statusLines: () => {
        // What the owner cannot see from a phone otherwise.
        const net = network.status();
        return net.configured ? [`net: ${net.state}${net.address ? ` (${net.address})` : ""}`] : [];
      },
    }),
  });
  const context: HubContext = {
    config,
    env,
    paths,
    lang,
    logger,
    ledger,
    registry,
    subs: found.directory,
    answer,
    network,
    router,
    desk,
    events,
    cloud: options.cloudLedger,
    clock,
    memory,
    mcp,
  };
  const services: HubService[] = [];
  for (const factory of options.services ?? HUB_SERVICES) {
    try {
      const service = await factory(context);
      if (service !== undefined) services.push(service);
    } catch (error) {
      logger.error(`hub: a service could not be built: ${errorMessage(error)}`);
    }
  }
  const reload = configReloader({ config, paths, lang, router });
  const chart = new SpendChartReader(paths.ledgerFile);
  try {
    chart.prepare();
  } catch (error) {
    logger.warn(`dashboard: the spend rollup cannot be set up: ${errorMessage(error)}`);
  }
  let chat: DashboardParts["chat"];
  // The desk stream of each open chat tab ends when the hub stops, or it holds the server.
  const streams = new AbortController();
  try {
    chat = dashboardChat({
      closing: streams.signal,
      desk,
      sessions: openSessionStore(config, env, paths),
      usage: chart,
      searchFile: `${paths.dataDir}/${SESSION_SEARCH_FILE}`,
      lang,
    });
  } catch (error) {
    // A session store that cannot open (spine backend without its keys) leaves the
    // dashboard without conversations; the rest of it works.
    logger.warn(`dashboard: no conversations: ${errorMessage(error)}`);
  }
  return {
    context,
    services,
    dashboard: {
      chart,
      ...(chat ? { chat } : {}),
      close: () => streams.abort(),
      network: dashboardNetwork({
        node: () => network.node,
        lang,
        detail: () => unconfigured,
        missing: () => missing,
        universeHost: () => config.net.universe,
        universeChanged: async () => await network.universeChanged?.(),
        subs: () => found.directory,
        digestMode: () => config.net.digest,
        digests: async () =>
          (await readNetEvents(paths.netDir, 0)).filter((e) =>
            (e as { type?: string }).type === "net.digest"
          ),
        ...(digest === undefined ? {} : { gathered: () => digest.gathered() }),
      }),
      settings: dashboardSettings({ paths, env, lang, reload }),
      mcp: dashboardMcp({ paths, env, lang, live: () => mcp?.statuses() ?? [] }),
      memory: dashboardMemory({
        store: () => memory,
        lang,
        // A cloud brain's sessions live in its spine: no local transcripts to clean.
        sessionsDir: options.cloudLedger === undefined ? paths.sessionsDir : undefined,
      }),
      jobs: dashboardJobs({
        scope: () => ({ paths, config, lang, env }),
        // The hub's own runs (its scheduler's store and delivery worker) when it has them.
        runNow: (name) => runJobNowIn(services, { paths, config, env, lang, logger }, name),
      }),
    },
    reload,
    approvals: {
      open: () => desk.approvals(),
      decide: (id, decision, by) => desk.decide(id, decision, by),
    },
    spend: () => spendReport(config, ledger, Date.now()),
    spendBy(options) {
      if (options.role !== undefined && !hasRole(config, options.role)) {
        throw new HttpError(400, "bad_request", { detail: `role: no role '${options.role}'` });
      }
      return spendBy(config, ledger, { ...options, nowMs: Date.now() });
    },
    blocks() {
      const blocks: Record<string, Record<string, unknown>> = {};
      for (const service of services) {
        if (service.status !== undefined) {
          blocks[service.statusKey ?? service.name] = service.status();
        }
      }
      // Each MCP server's live state (`agent components` shows one that failed to start).
      if (mcp !== undefined) {
        blocks.mcp = {
          servers: mcp.statuses().map((s) => ({
            name: s.name,
            state: s.state,
            tools: s.tools.length,
            ...(s.sentence === undefined ? {} : { sentence: s.sentence }),
          })),
        };
      }
      return blocks;
    },
    events: (afterSec) => readNetEvents(paths.netDir, afterSec),
    ownerEvents: events,
    routes() {
      return Object.assign({}, ...services.map((service) => service.routes?.() ?? {}));
    },
    async close() {
      await desk.close();
      await mcp?.close();
      await events.close();
      chart.close();
      // Rows still on their way to the cloud ledger get a few seconds; the rest are sent
      // at the next start (they are in the local ledger).
      await cloudLedger?.close();
      ledger?.close();
      memory?.close();
    },
  };
}

/**
 * Cloud mode: fills the local ledger from the spine's cloud ledger (a new container
 * starts with an empty disk) and appends every new row to it. A spine that cannot be
 * read leaves the local ledger as it is, with a warning; appends are retried.
 */
async function linkCloudLedger(
  ledger: Ledger,
  options: StartHubOptions,
): Promise<CloudLedger | undefined> {
  const link = options.cloudLedger;
  if (link === undefined) return undefined;
  const { logger } = options;
  const cloud = new CloudLedger(link.url, link.token, {
    ...(link.fetch ? { fetch: link.fetch } : {}),
    warn: (line) => logger.warn(line),
  });
  try {
    const { read, resent } = await cloud.pull(ledger, Date.now());
    logger.info(`cloud ledger: ${read} row(s) of the current periods read, ${resent} resent`);
  } catch (error) {
    logger.warn(
      `cloud ledger: cannot read it: ${
        errorMessage(error)
      }; budgets count this container's calls only until it can`,
    );
  }
  ledger.onRecorded = (rows) => cloud.push(rows);
  return cloud;
}
