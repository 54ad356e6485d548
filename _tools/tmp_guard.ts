/**
 * `deno task test` runs its test tasks through this guard: they get a temp folder of
 * their own (a fresh `TMPDIR`, and `TMUX_TMPDIR` for tmux, which does not read
 * `TMPDIR`), and whatever they leave in it fails the run with one line naming it. The
 * folder is removed afterwards either way, so a run never fills the developer's system
 * temp folder, and a test that stops cleaning up is caught on the next run, not months
 * later. A private folder also makes the count exact on a machine where other processes
 * use the system temp folder at the same time.
 *
 * The guard also names a folder in `AGENT_TEST_PORTS` where `tests/_port.ts` claims each
 * loopback port it hands out, so two test files running side by side never get the same
 * one; that folder is the guard's, not counted, and removed with the rest.
 *
 * Run it as `deno run ... _tools/tmp_guard.ts <step>...`: each step in turn, stopping
 * after the first that fails (the exit code of its first failed task is the guard's);
 * exit 1 when they all pass but something was left behind. A step is a task run with
 * `deno task <task>`, or several joined by `+` (`test:check+test:unit`) run side by side:
 * the suite is CPU-bound on a 2-core machine, and a layer that leaves a core idle (the
 * unit layer, the type check, the few files that must run without the others) can share
 * the machine with another.
 *
 * @module
 */

/** What {@linkcode guardedRun} found. */
export interface GuardReport {
  /** The exit code of the first command that failed, or 0. */
  code: number;
  /** The names left in the private temp folder, sorted. */
  left: string[];
}

/** Options for {@linkcode guardedRun}. */
export interface GuardOptions {
  /** Where the private folder is made. @default the system temp folder */
  parent?: string;
}

/** At most this many leftover names are printed. */
export const MAX_NAMES = 20;

/**
 * Runs `steps` one after another (stopping after the first that fails), the commands of
 * a step side by side, with a fresh private temp folder; lists what they left in it and
 * removes it.
 */
export async function guardedRun(
  steps: readonly (readonly (readonly string[])[])[],
  options: GuardOptions = {},
): Promise<GuardReport> {
  const run = await Deno.makeTempDir({
    prefix: "agent-test-run-",
    ...(options.parent === undefined ? {} : { dir: options.parent }),
  });
  const dir = `${run}/tmp`;
  const ports = `${run}/ports`;
  try {
    await Deno.mkdir(dir);
    await Deno.mkdir(ports);
    let code = 0;
    for (const step of steps) {
      const statuses = await Promise.all(
        step.map(([program, ...args]) =>
          new Deno.Command(program!, {
            args,
            env: { TMPDIR: dir, TMUX_TMPDIR: dir, AGENT_TEST_PORTS: ports },
            stdin: step.length === 1 ? "inherit" : "null",
            stdout: "inherit",
            stderr: "inherit",
          }).spawn().status
        ),
      );
      const failed = statuses.find((status) => !status.success);
      if (failed !== undefined) {
        code = failed.code === 0 ? 1 : failed.code;
        break;
      }
    }
    const left: string[] = [];
    for await (const entry of Deno.readDir(dir)) left.push(entry.name);
    return { code, left: left.sort() };
  } finally {
    await removeAll(run);
  }
}

/** The one line that names what a run left behind. */
export function leftLine(left: readonly string[]): string {
  const shown = left.slice(0, MAX_NAMES).join(", ");
  const more = left.length > MAX_NAMES ? `, and ${left.length - MAX_NAMES} more` : "";
  const entries = left.length === 1 ? "1 entry" : `${left.length} entries`;
  return `The tests left ${entries} in the temp folder: ${shown}${more}`;
}

async function removeAll(dir: string): Promise<void> {
  // Tests own their files; a read-only folder one of them left must not stop the cleanup.
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(dir, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 2) throw error;
      await new Deno.Command("chmod", { args: ["-R", "u+rwx", dir] }).output().catch(() => {});
    }
  }
}

if (import.meta.main) {
  if (Deno.args.length === 0) {
    console.error(
      "Usage: _tools/tmp_guard.ts <task>[+<task>...]...: give at least one deno task to run.",
    );
    Deno.exit(2);
  }
  // Ctrl-C reaches the tasks too; the guard outlives them to remove the folder.
  Deno.addSignalListener("SIGINT", () => {});
  const report = await guardedRun(
    Deno.args.map((step) => step.split("+").map((task) => [Deno.execPath(), "task", task])),
  );
  if (report.left.length > 0) console.error(leftLine(report.left));
  Deno.exit(report.code !== 0 ? report.code : report.left.length > 0 ? 1 : 0);
}
