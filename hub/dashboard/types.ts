/**
 * The dashboard's shapes: what it reads and acts on, and how the control API mounts it.
 *
 * @module
 */
import type { RouteEntry, Router } from "@agent/net";
import type { Lang } from "../i18n.ts";
import type { DashboardSession } from "./auth.ts";
import type { OwnerEvent, OwnerEventFeed } from "../events/mod.ts";
import type { SpendChartReader } from "../spend/chart.ts";
import type { DigestConversation } from "../events/mod.ts";
import type { NetNode } from "../network/node.ts";
import type { SubAgentDirectory } from "../subs/mod.ts";

/**
 * A part of the dashboard's API (the chat, the network, the settings, the jobs): its
 * routes, with paths below `<base>/api` (`/sessions`). Each route gets the signed-in
 * session; the same-origin, session and CSRF checks have passed before it is asked.
 */
export type DashboardRoutes = Router<DashboardSession>;

/** What the dashboard reads and acts on. */
export interface DashboardSources {
  /** The hub's language: the page's default. */
  lang: Lang;
  now(): number;
  /** The control API's `/status` body. */
  status(): Record<string, unknown>;
  /** The latest owner events, oldest first. */
  recentEvents(): Promise<OwnerEvent[]>;
  /** Live owner events. */
  ownerEvents?: OwnerEventFeed;
  /** The daily series by role, the breakdowns and the per-turn usage. */
  chart?: SpendChartReader;
  /** The conversations, the web chat and the approvals (the desk). */
  chat?: DashboardRoutes;
  /** The contacts and their actions (the network node). */
  network?: DashboardRoutes;
  /** Roles, models, budgets and credentials. */
  settings?: DashboardRoutes;
  /** The scheduled jobs, their log and their buttons. */
  jobs?: DashboardRoutes;
  /** The MCP servers: their pins and live state, and the owner's acts on them. */
  mcp?: DashboardRoutes;
  /** The memories, the pending list, and the owner's acts on them. */
  memory?: DashboardRoutes;
  /** Ends open event streams when the hub stops. */
  closing?: AbortSignal;
  /**
   * Where the detail of an unexpected error goes (the hub's log); the answer carries only
   * `{error: "internal"}`. @default console.error
   */
  log?(line: string): void;
  /**
   * Whether `request` may have a one-time sign-in code (`POST <base>/code`): locally,
   * the control token and no browser `Origin`; behind the spine, whatever reached the
   * brain's port (it checked the hub token). Without it no code is given (401).
   */
  authorizeCode?(request: Request): boolean;
  /** A one-time code's lifetime. @default 60000 */
  codeTtlMs?: number;
  /**
   * Where the dashboard is served: the hub's control port (`/dashboard`, the default)
   * or the brain behind a cloud spine (`/hub/dashboard`, see `mount.ts`).
   */
  mount?: DashboardMount;
}

/** Where a dashboard is served and what its own origin is there. */
export interface DashboardMount {
  /** The path prefix: `/dashboard` or `/hub/dashboard`. */
  base: string;
  /**
   * The dashboard's own origin for this request, the only `Origin` a browser may send;
   * throws 403 when the request reached it under a name it must not answer.
   */
  origin(request: Request): string;
  /** The command that signs a browser in, named on the page when it cannot. */
  command: string;
  /**
   * Signs sessions with this key so they outlive the process (a brain's container
   * sleeps); without it sessions live in memory only.
   */
  sessionKey?: string;
}

/** The dashboard as the control API (or the brain's port) mounts it. */
export interface DashboardDoor {
  /**
   * Answers a request whose path is the mount's base or below it, a refusal too (with
   * the page's headers): the page, its assets, `POST <base>/code` and the API.
   */
  handle(request: Request, url: URL): Promise<Response>;
  /** Every route below the base (`/`, `/code`, `/api/sessions`, ...), for tests and docs. */
  routes(): RouteEntry[];
}

/** The node of the hub's network (`undefined` while it is not configured). */
export interface NetworkSources {
  node(): NetNode | undefined;
  /** The language of the sentences a refused action answers with. */
  lang: Lang;
  /** Why the network is not configured, for the page. */
  detail?(): string | undefined;
  /**
   * What the network lacks (`spine_url`, `spine_token`, `https_spine_url`, `identity`),
   * so the page says it in its own language.
   */
  missing?(): string | undefined;
  /** Tells the hub's universe reporter that the profile changed (`/status` follows at once). */
  universeChanged?(): Promise<void>;
  /** `[net] universe`: the universe's host, empty when off. */
  universeHost?(): string;
  /** The sub-agents a universe report lists (the public ones). */
  subs?(): SubAgentDirectory | undefined;
  /** `[net] digest`: `batched`, `daily` or `off`. */
  digestMode?(): string;
  /** The digests told so far (`net.digest` owner events), oldest first. */
  digests?(): Promise<unknown[]>;
  /** What the digest has gathered for its next telling, and when that is due. */
  gathered?(): Promise<{ conversations: DigestConversation[]; dueMs: number } | undefined>;
}
