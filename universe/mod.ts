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
export type { Snapshot, SnapshotTau, TauLink } from "./directory.ts";
export { escapeHtml, pagePath, renderPage } from "./pages.ts";
export { Directory } from "./directory.ts";
export type { AcceptedRequest, ApplyResult } from "./directory.ts";
export { cellOf, MAP_FINE, MAP_GRID, type MapPoint, positionOf } from "./layout.ts";
export { indexMapAgent, MAP_AREA_CAP, MAP_SEARCH_LIMIT } from "./map/store.ts";
export type { MapAgent, MapArea, MapHit, MapOverview, MapRect } from "./map/store.ts";

// The types the signatures above name, so that each is documented with the door
// (`deno doc --lint`): options, results, events and the shapes an embedder passes.
export type { PageLang, PageName, RenderOptions } from "./pages.ts";
export type { HandleOptions } from "./router.ts";
export type { BuildResult } from "./snapshot_build.ts";
export type { UniverseLink, UniverseSub } from "@agent/net";
