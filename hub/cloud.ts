/**
 * Cloud mode, light: the door `@agent/hub/cloud` for `agent cloud push`, `pull` and
 * `status` (the files a cloud spine holds, and the terminal that asks before a push),
 * which load no model SDK. The whole hub (`@agent/hub`) costs about half a second of
 * processor time more per run; `agent cloud run` (the hub in the container) loads it.
 *
 * The door names every export: what those subcommands use.
 *
 * @module
 */
export { CloudSpine, cloudStatus, cloudTarget, pullFiles, pushFiles } from "./cloud/mod.ts";
export { TerminalInput } from "./terminal/input.ts";
