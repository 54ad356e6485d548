/**
 * The hub's wiring: the built-in component table and the registry with it, and the
 * list of `agent doctor` checks.
 *
 * @module
 */
export * from "./components.ts";
export * from "./doctor.ts";
