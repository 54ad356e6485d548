/**
 * Whether a process id names a running process: {@linkcode processAlive}, kept with the
 * leaves (`hub/process_alive.ts`) so the spend ledger can settle the calls of a dead
 * process too.
 *
 * @module
 */
export { processAlive } from "../process_alive.ts";
