/**
 * What an assembled hub gives the dashboard besides the control API's own sources.
 *
 * @module
 */
import type { SpendChartReader } from "../spend/chart.ts";
import type { DashboardChat } from "./types.ts";

/** The dashboard's charts and conversations, from the assembled hub. */
export interface DashboardParts {
  /** The daily spend by role, read from the ledger. */
  chart?: SpendChartReader;
  /** Sessions, the web chat and approvals, over the desk. */
  chat?: DashboardChat;
  /** Contacts and their actions, over the network node. */
  network?: DashboardChat;
  /** Roles, models, budgets and credentials, in `agent.toml` and `.env`. */
  settings?: DashboardChat;
  /** Scheduled jobs, their log and their buttons, over the job store. */
  jobs?: DashboardChat;
  /** The MCP servers: pins, live state and the owner's acts (`agent mcp`'s). */
  mcp?: DashboardChat;
}
