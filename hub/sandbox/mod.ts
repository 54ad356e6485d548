/**
 * Children fenced by the operating system: bubblewrap's sandbox (`sandboxArgs`,
 * `findBwrap`) and a run with a time and an output limit (`runLimited`). The `shell`
 * tool and sandboxed MCP servers use them.
 *
 * @module
 */
export * from "./bwrap.ts";
export * from "./run.ts";
