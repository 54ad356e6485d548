/**
 * The processor time and resident memory of this process's workerd children, read from
 * `/proc`, for the benchmarks that run a spine or a universe on workerd.
 *
 * Deno opens `/proc` only to `--allow-all` (`tests/bench/all.ts` gives it to the
 * benchmarks that import this). Without it these readers fail rather than return 0: a
 * 0 read as "no memory used" passed a memory goal unmeasured. Where `/proc` does not
 * exist (not Linux), they return 0.
 *
 * @module
 */

/** The `/proc/<pid>/stat` fields after the command name of each workerd child. */
function workerdChildren(): { pid: string; fields: string[] }[] {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync("/proc")];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw new Error("Cannot read /proc: the benchmark needs --allow-all", { cause: error });
  }
  const found: { pid: string; fields: string[] }[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      if (!stat.includes("(workerd)")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === Deno.pid) found.push({ pid: entry.name, fields });
    } catch (error) {
      // A process that ended while we looked; anything else is a real failure.
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return found;
}

/** CPU time (user + system, ms) of this process's workerd children. */
export function workerdCpuMs(): number {
  // utime and stime, in clock ticks of 1/100 s on Linux.
  const ticks = workerdChildren().reduce(
    (sum, c) => sum + Number(c.fields[11]) + Number(c.fields[12]),
    0,
  );
  return ticks * 10;
}

/** Resident memory of this process's workerd children (bytes). */
export function workerdRss(): number {
  let kb = 0;
  for (const { pid } of workerdChildren()) {
    try {
      const status = Deno.readTextFileSync(`/proc/${pid}/status`);
      kb += Number(status.match(/^VmRSS:\s+(\d+)/m)?.[1] ?? 0);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return kb * 1024;
}
