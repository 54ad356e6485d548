/**
 * The hub's network state store: contacts, sessions, handled ids, the network log,
 * the cursor, the profile and counters, kept under `<AGENT_DATA_DIR>/net/`.
 *
 * @module
 */
export * from "./documents.ts";
export * from "./state.ts";
export * from "./spine_documents.ts";
