/**
 * The turn: {@linkcode buildAgent} gives a channel's {@linkcode Agent}, which reads the
 * session, fits it into the context window (compacting older parts), and runs the turn
 * through the call chain (`hub/router/`).
 *
 * @module
 */
export * from "./agent.ts";
export {
  type ExtractOptions,
  type ExtractResult,
  extractSession,
  MEMORY_ROLE,
} from "./memory_extract.ts";
export { MEMORY_PARTY_META, MEMORY_SCOPE_META } from "./memory_meta.ts";
