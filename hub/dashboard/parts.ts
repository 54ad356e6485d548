/**
 * What an assembled hub gives the dashboard besides the control API's own sources.
 *
 * @module
 */
import type { SpendChartReader } from "../spend/chart.ts";
import type { DashboardRoutes } from "./types.ts";

/** The dashboard's charts and conversations, from the assembled hub. */
export interface DashboardParts {
  /** The daily spend by role, read from the ledger. */
  chart?: SpendChartReader;
  /** Sessions, the web chat and approvals, over the desk. */
  chat?: DashboardRoutes;
  /** Contacts and their actions, over the network node. */
  network?: DashboardRoutes;
  /** Roles, models, budgets and credentials, in `agent.toml` and `.env`. */
  settings?: DashboardRoutes;
  /** Scheduled jobs, their log and their buttons, over the job store. */
  jobs?: DashboardRoutes;
  /** The MCP servers: pins, live state and the owner's acts (`agent mcp`'s). */
  mcp?: DashboardRoutes;
  /** The memories by scope and search, the pending list, and the owner's acts (`agent memory`'s). */
  memory?: DashboardRoutes;
  /**
   * Ends the streams the parts keep open (the chat's desk stream), so a stopping hub's
   * server is not held open by a dashboard tab.
   */
  close?(): void;
}
