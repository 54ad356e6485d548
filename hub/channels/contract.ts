/**
 * The contract between the hub and what it runs: what a channel adapter that runs
 * inside the hub (the messenger) and every other lifecycle service implement
 * ({@linkcode HubService}), and what the hub hands to every factory
 * ({@linkcode HubContext}). Here, under `channels/`, so an adapter names them without
 * importing upward from `app/` (whose `services.ts` lists the services and loads them).
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { Ledger } from "../ledger/mod.ts";
import type { NetService, TurnAnswerer } from "../network/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { Registry } from "../components/registry.ts";
import type { SubAgentDirectory } from "../subs/mod.ts";
import type { HubComponent } from "../daemon/mod.ts";
import type { ModelRouter } from "../router/mod.ts";
import type { Desk } from "../desk/mod.ts";
import type { OwnerEventBus } from "../events/mod.ts";
import type { Clock } from "../clock.ts";
import type { MemoryStore } from "../memory/mod.ts";
import type { McpServers } from "../mcp/mod_runtime.ts";

/** Something the hub runs for its lifetime, with its block for `GET /status`. */
export interface HubService extends HubComponent {
  /** The key of the service's block in `/status`. @default its name */
  statusKey?: string;
  /** The service's block in the control API's `/status`, if it has one. */
  status?(): Record<string, unknown>;
  /** `POST` routes the service serves on the control API (a webhook), by path. */
  routes?(): Record<string, (request: Request) => Promise<Response>>;
}

/** What the hub assembled, handed to every service factory. */
export interface HubContext {
  config: AgentConfig;
  /** `.env` merged with the process environment. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  logger: Logger;
  /** The spend ledger; `undefined` when it cannot be opened (budgets go unchecked). */
  ledger: Ledger | undefined;
  /** The component registry (built-ins and `[components] modules`). */
  registry: Registry;
  /** The sub-agent directory, when an `agent.subs` entry point works. */
  subs: SubAgentDirectory | undefined;
  /** Answers a message from an accepted contact (a network turn). */
  answer: TurnAnswerer;
  /** The network service (idle when the network is not configured). */
  network: NetService;
  /** The model router every hub turn shares (budgets, stand-ins, the ledger). */
  router: ModelRouter;
  /** The conversation desk of the hub's channels (the messenger's chats, the web). */
  desk: Desk;
  /** The owner-event bus: writers publish here, channels subscribe. */
  events: OwnerEventBus;
  /** Cloud mode: the spine the brain answers for (its state routes, its cron). */
  cloud?: { url: string; token: string; fetch?: typeof fetch } | undefined;
  /** The clock jobs and budgets run by (the router's `now` reads it too). */
  clock: Clock;
  /** What the agent remembers; `undefined` when `[memory]` is off or the store cannot be opened. */
  memory?: MemoryStore | undefined;
  /** The MCP servers `agent.toml` lists, started; `undefined` when it lists none. */
  mcp?: McpServers | undefined;
}

/**
 * Builds a service (or a channel that runs in the hub) from the hub, or `undefined` when
 * it is not configured.
 */
export type HubServiceFactory = (hub: HubContext) => Promise<HubService | undefined>;
