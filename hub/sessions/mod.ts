/**
 * Sessions: the {@linkcode SessionStore} interface in the shape of the spine's cloud
 * session routes, and the {@linkcode FileSessionStore} under `<AGENT_DATA_DIR>/sessions`.
 *
 * @module
 */
export * from "./store.ts";
export * from "./file_store.ts";
