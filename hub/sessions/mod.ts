/**
 * Sessions: the {@linkcode SessionStore} interface in the shape of the spine's cloud
 * session routes, the {@linkcode FileSessionStore} under `<AGENT_DATA_DIR>/sessions`,
 * the {@linkcode SpineSessionStore} over those routes, and {@linkcode openSessionStore},
 * which picks one from `[sessions] backend`.
 *
 * @module
 */
export * from "./store.ts";
export * from "./file_store.ts";
export * from "./spine_store.ts";
export * from "./open.ts";
export * from "./session_id.ts";
