/**
 * The hub daemon seen from outside: the light door `@agent/hub/daemon` for `agent hub
 * status`, `hub stop`, the service files (`hub launchd`, `hub systemd`) and the control
 * API's client. `agent hub status` through the whole-hub door loaded about 500 modules
 * (the hub it only asks about); through this one it loads what it asks with. `agent hub
 * run` starts the hub itself, through `@agent/hub/run`.
 *
 * The door names every export: what the CLI uses, and the types it names.
 *
 * @module
 */

// Status and stop: the lock file, the heartbeat, the control API's answer.
export {
  hubStatus,
  type HubStatusOptions,
  type HubStatusReport,
  statusLines,
  stopHub,
  type StopHubOptions,
} from "./daemon/status.ts";
export { liveLock, type LockInfo } from "./daemon/lock.ts";
export { t as hubMessages } from "./daemon/_messages.ts";

// How this agent was started, and the service files that start it the same way.
export { type AgentLaunch, agentLaunch, type LaunchFacts, readAgentShim } from "./daemon/launch.ts";
export {
  installLaunchd,
  LAUNCHD_LABEL,
  LaunchdError,
  launchdPlist,
  type LaunchdState,
  launchdState,
  type PlistOptions,
  uninstallLaunchd,
} from "./daemon/launchd.ts";
export { systemdUnit, type SystemdUnitOptions } from "./daemon/systemd.ts";

// The control API's client: a request with the hub's token.
export { fetchControl, type FetchControlOptions } from "./control/client.ts";
export { bearerHeaders, readHubToken } from "./control/token.ts";
