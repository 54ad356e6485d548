/**
 * The hub daemon: `agent hub run`, its lock, heartbeat and crash record, `status`,
 * `stop`, and the service files for launchd and systemd.
 *
 * @module
 */
export * from "./lock.ts";
export * from "./process.ts";
export * from "./state_files.ts";
export * from "./run.ts";
export * from "./writable.ts";
export * from "./status.ts";
export * from "./systemd.ts";
export * from "./launch.ts";
export * from "./launchd.ts";
export { t as hubMessages } from "./_messages.ts";
