/**
 * The hub's wiring: {@linkcode startHub}, which assembles the hub and its channels,
 * the channel interface, the built-in component table and the registry with it, and
 * the list of `agent doctor` checks.
 *
 * @module
 */
export * from "./components.ts";
export * from "./doctor.ts";
export * from "./channel.ts";
export * from "./start.ts";
export * from "./cloud_run.ts";
