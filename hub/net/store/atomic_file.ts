/**
 * Crash-safe file writes; they live in `hub/atomic_file.ts`, shared by the whole hub.
 *
 * @module
 */
export * from "../../atomic_file.ts";
