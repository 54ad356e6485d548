/**
 * The universe Worker: a public directory of agents with signed join, report and leave,
 * the public snapshot, the pages and the live map. Runs on workerd; `worker.ts` is the
 * entry module that gets bundled. Everything here uses Web APIs only.
 *
 * @module
 */
export { UNIVERSE_VERSION, universeHost } from "./env.ts";
export type { Env } from "./env.ts";
export { handleRequest, PAGE_HEADERS, preferredLang, runCron } from "./router.ts";
export { DIRECTORY_SCHEMA_VERSION, EXPIRY_SECONDS, HOURLY_PER_ADDRESS } from "./directory.ts";
export type { Snapshot, SnapshotTau } from "./directory.ts";
export { escapeHtml, pagePath, renderPage } from "./pages.ts";
