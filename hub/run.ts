/**
 * The hub itself, started: the light door `@agent/hub/run` for `agent hub run`, `agent
 * cloud run`, `agent net poll --once` and `agent jobs run`. Through the whole-hub door
 * these loaded every module of the hub besides what a hub runs (the setup, the TUI's and
 * the benchmarks' names); through this one they load `startHub()` and what it assembles.
 * The channels (grammY, the mail packages) and MCP still load only when the
 * configuration turns them on.
 *
 * The door names every export: what the CLI uses, and the types it names.
 *
 * @module
 */

// The hub assembled from configuration, and run until it is told to stop.
export { type Hub, startHub, type StartHubOptions } from "./app/start.ts";
export { type AssembledHub, runAssembledHub, type RunAssembledOptions } from "./daemon/run.ts";
// A read-only home is one sentence before anything opens.
export { unwritableHome } from "./daemon/writable.ts";

// The brain in cloud mode (`agent cloud run`): the same hub, its files from the spine.
export { type CloudRunOptions, runCloud } from "./app/cloud_run.ts";
// `agent jobs run NAME`: one run of a scheduled job in this process, as the hub runs it.
export { runJobNow, type RunJobNowOptions } from "./app/jobs_run_now.ts";
