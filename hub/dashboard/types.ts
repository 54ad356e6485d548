/**
 * The dashboard's shapes: what it reads and acts on, and how the control API mounts it.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { OwnerEvent, OwnerEventFeed } from "../events/mod.ts";
import type { SpendChartReader } from "../spend/chart.ts";
import type { DigestConversation } from "../events/mod.ts";
import type { NetNode } from "../network/node.ts";
import type { SubAgentDirectory } from "../subs/mod.ts";

/** The routes of the conversations, the web chat and the approvals (over the desk). */
export interface DashboardChat {
  /** Answers `/dashboard/api/<name>`, or `undefined` when the name is not its. */
  route(name: string, request: Request, url: URL): Promise<Response | undefined>;
}

/** What the dashboard reads and acts on. */
export interface DashboardSources {
  /** The hub's language: the page's default. */
  lang: Lang;
  /** The control API's port (the cookie's name carries it). */
  port(): number;
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
  chat?: DashboardChat;
  /** The contacts and their actions (the network node). */
  network?: DashboardChat;
  /** Roles, models, budgets and credentials. */
  settings?: DashboardChat;
  /** The scheduled jobs, their log and their buttons. */
  jobs?: DashboardChat;
  /** The MCP servers: their pins and live state, and the owner's acts on them. */
  mcp?: DashboardChat;
  /** Ends open event streams when the hub stops. */
  closing?: AbortSignal;
  /** A one-time code's lifetime. @default 60000 */
  codeTtlMs?: number;
  /**
   * Where the dashboard is served: the hub's control port (`/dashboard`, the default)
   * or the brain behind a cloud spine (`/hub/dashboard`, see `mount.ts`).
   */
  mount?: DashboardMount;
}

/** Where a dashboard is served and what its own origin and cookie are there. */
export interface DashboardMount {
  /** The path prefix: `/dashboard` or `/hub/dashboard`. */
  base: string;
  /**
   * The dashboard's own origin for this request, the only `Origin` a browser may send;
   * throws 403 when the request reached it under a name it must not answer.
   */
  origin(request: Request): string;
  /** The session cookie's name. */
  cookieName(): string;
  /** Whether the cookie is `Secure` (an https origin). */
  secure: boolean;
  /** The command that signs a browser in, named on the page when it cannot. */
  command: string;
  /**
   * Signs sessions with this key so they outlive the process (a brain's container
   * sleeps); without it sessions live in memory only.
   */
  sessionKey?: string;
}

/** The dashboard as the control API mounts it. */
export interface DashboardDoor {
  /** A one-time login code (asked for with the control token). */
  issueCode(): string;
  /** Answers a request whose path starts with `/dashboard`. */
  handle(request: Request, url: URL): Promise<Response>;
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
