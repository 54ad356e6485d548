/**
 * Whether a process id names a running process, probed with a harmless signal.
 *
 * @module
 */

/**
 * Returns whether `pid` is a running process, or `undefined` when this run may not
 * probe (no `--allow-run`). SIGCONT does nothing to a running process; the probe only
 * learns whether the pid exists.
 */
export function processAlive(pid: number): boolean | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    if (error instanceof Deno.errors.NotCapable) return undefined;
    if (error instanceof Error && /ESRCH|No such process/i.test(error.message)) return false;
    // Permission denied means the pid exists but belongs to another user.
    return true;
  }
}
