/**
 * The spine kit: the bundled spine Worker, and the local development server that runs
 * it on workerd through Miniflare (`deno task spine:dev`).
 *
 * The door names every export: what the end-to-end tests and the release check use to
 * run the Workers, and the types those functions take. The command line's part of the
 * kit is on `@agent/kit/spine`.
 *
 * @module
 */

// Bundling: a Worker's entry module into one file for workerd (the spine's and the
// universe's, and the cloud brain's tests).
export {
  bundledSpineScript,
  bundleWorker,
  type BundleWorkerOptions,
  bundleWorkerText,
} from "./bundle.ts";

// Miniflare instances whose temporary folder goes with them (Miniflare's own removal is
// not waited for).
export {
  bundledModule,
  type MiniflareOptions,
  startMiniflare,
  stopMiniflare,
} from "./miniflare.ts";

// The local spine on workerd through Miniflare (`deno task spine:dev`), for the
// end-to-end tests that need a real spine.
export {
  parseDevArgs,
  runSpine,
  runSpineCron,
  type RunSpineOptions,
  SPINE_COMPATIBILITY_DATE,
  spineMiniflareOptions,
  type SpineRuntimeOptions,
} from "./spine_dev.ts";

// The local universe on workerd (`deno task universe:dev`).
export {
  bundledUniverseScript,
  runUniverse,
  runUniverseCron,
  type UniverseRuntimeOptions,
} from "./universe_dev.ts";
