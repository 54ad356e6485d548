/**
 * Sessions: the {@linkcode SessionStore} interface in the shape of the spine's cloud
 * session routes, the {@linkcode FileSessionStore} under `<AGENT_DATA_DIR>/sessions`,
 * the {@linkcode SpineSessionStore} over those routes, {@linkcode openSessionStore},
 * which picks one from `[sessions] backend`, and the stored shape of a conversation's
 * messages ({@linkcode SessionMessage}, read from any version by
 * {@linkcode readStoredMessage}).
 *
 * @module
 */
export * from "./store.ts";
export * from "./file_store.ts";
export * from "./spine_store.ts";
export * from "./open.ts";
export * from "./session_id.ts";
export * from "./message.ts";
