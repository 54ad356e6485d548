/**
 * Components: the registry of what the hub offers (commands, tools, providers,
 * session stores, channels, sub-agent directories), built from a table of built-ins
 * that the caller passes and from the modules named in `[components] modules`.
 *
 * @module
 */
export * from "./types.ts";
export * from "./registry.ts";
