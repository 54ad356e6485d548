/**
 * `agent doctor`'s checks of the core: the shape of a check and its context, and the
 * checks of the configuration, roles, sessions, persona, `.env` and components. The
 * list of every check, in order, is the wiring's (`hub/app/doctor.ts`).
 *
 * @module
 */
export type * from "./types.ts";
export * from "./core_checks.ts";
