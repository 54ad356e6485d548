/**
 * The hub daemon, light: the door `@agent/hub/daemon` for `agent hub status`, `stop`,
 * `systemd-unit`, `install` and `uninstall`, which look at a hub (its lock, heartbeat
 * and control API) or write a service file, and load no model SDK. The whole hub
 * (`@agent/hub`) costs about half a second of processor time more per run; `agent hub
 * run` loads it.
 *
 * The door names every export: what those subcommands use.
 *
 * @module
 */
export { agentLaunch, readAgentShim } from "./daemon/launch.ts";
export {
  installLaunchd,
  LAUNCHD_LABEL,
  LaunchdError,
  launchdPlist,
  launchdState,
  uninstallLaunchd,
} from "./daemon/launchd.ts";
export { liveLock } from "./daemon/lock.ts";
export { hubStatus, statusLines, stopHub } from "./daemon/status.ts";
export { systemdUnit } from "./daemon/systemd.ts";
export { t as hubMessages } from "./daemon/_messages.ts";
