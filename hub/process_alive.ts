/**
 * Whether a process id names a running process, probed with a harmless signal (and its
 * state as `ps` reports it, so a killed but unreaped process counts as dead).
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
    // A killed process whose parent has not reaped it yet still takes signals: a zombie
    // is dead, whatever the probe says.
    return !isZombie(pid);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    if (error instanceof Deno.errors.NotCapable) return undefined;
    if (error instanceof Error && /ESRCH|No such process/i.test(error.message)) return false;
    // Permission denied means the pid exists but belongs to another user.
    return true;
  }
}

/**
 * Whether `pid` is a zombie (killed, not yet reaped by its parent), as `ps` says (Deno
 * reads `/proc/<pid>` only with every permission); `false` when `ps` cannot tell.
 */
export function isZombie(pid: number): boolean {
  try {
    const out = new Deno.Command("ps", {
      args: ["-o", "stat=", "-p", String(pid)],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    return new TextDecoder().decode(out.stdout).trim().startsWith("Z");
  } catch {
    return false;
  }
}
