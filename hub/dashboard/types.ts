/**
 * The dashboard's shapes: what it reads and acts on, and how the control API mounts it.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { OwnerEvent, OwnerEventFeed } from "../events/mod.ts";
import type { SpendChartReader } from "../money/spend_chart.ts";

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
  /** Ends open event streams when the hub stops. */
  closing?: AbortSignal;
  /** A one-time code's lifetime. @default 60000 */
  codeTtlMs?: number;
}

/** The dashboard as the control API mounts it. */
export interface DashboardDoor {
  /** A one-time login code (asked for with the control token). */
  issueCode(): string;
  /** Answers a request whose path starts with `/dashboard`. */
  handle(request: Request, url: URL): Promise<Response>;
}
