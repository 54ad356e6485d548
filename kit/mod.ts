/**
 * The spine kit: the bundled spine Worker, and the local development server that runs
 * it on workerd through Miniflare (`deno task spine:dev`).
 *
 * @module
 */
export * from "./bundle.ts";
export * from "./spine_dev.ts";
export * from "./universe_dev.ts";
