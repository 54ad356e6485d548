/**
 * The turn: {@linkcode buildAgent} gives a channel's {@linkcode Agent}, which reads the
 * session, fits it into the context window (compacting older parts), and runs the turn
 * through the call chain (`hub/router/`).
 *
 * @module
 */
export * from "./agent.ts";
