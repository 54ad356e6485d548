/**
 * The local web dashboard the hub serves under `/dashboard` on its control port:
 * overview, spend, conversations with a web chat over the desk, and approvals.
 *
 * @module
 */
export {
  dashboard,
  type DashboardDoor,
  type DashboardMount,
  type DashboardRoutes,
  type DashboardSources,
} from "./handler.ts";
export { cloudMount, DASHBOARD_ORIGIN_HEADER, localMount } from "./mount.ts";
export type { DashboardSpend } from "./spend.ts";
export { DashboardAuth, type DashboardSession } from "./auth.ts";
export { isUnder, secured } from "./guard.ts";
export type { DashboardParts } from "./parts.ts";
export { type ChatSources, dashboardChat } from "./chat.ts";
export { dashboardNetwork, type NetworkSources } from "./network.ts";
export { dashboardSettings, type SettingsSources } from "./settings.ts";
export { dashboardJobs, type JobsSources } from "./jobs.ts";
export { dashboardMcp, type McpRouteSources } from "./mcp.ts";
export { dashboardMemory, type MemoryRouteSources } from "./memory.ts";
