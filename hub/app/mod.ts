/**
 * The hub's wiring: {@linkcode startHub}, which assembles the hub and its services,
 * the list of services it runs, the built-in component table and the registry with it,
 * and the list of `agent doctor` checks.
 *
 * @module
 */
export * from "./components.ts";
export * from "./doctor.ts";
export * from "./services.ts";
export * from "./start.ts";
export * from "./cloud_run.ts";
export { MEMORY_SCAN_MS, type MemoryScan, memoryService } from "./memory_service.ts";
export { type MemorySpine, openMemory } from "./memory_store.ts";
export * from "./mcp_servers.ts";
