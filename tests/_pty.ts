/**
 * Playing a terminal session: `tests/chat/_pty.py` runs `agent` in a pseudo-terminal
 * (python3's pty module) and plays `wait:`/`send:`/`sleep:` steps.
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url).pathname;

/** Whether python3 with its pty module is here (the tests that need it are skipped otherwise). */
export const hasPython: boolean = (() => {
  try {
    return new Deno.Command("python3", { args: ["-c", "import pty"] }).outputSync().success;
  } catch {
    return false;
  }
})();

/**
 * Runs `agent <words>` (default `chat`) for `home` in a pseudo-terminal and plays
 * `steps`; returns what the terminal showed and the exit code.
 */
export async function playTerminal(
  home: string,
  steps: string[],
  words = "chat",
): Promise<{ screen: string; code: number }> {
  const out = await new Deno.Command("python3", {
    args: [`${ROOT}tests/chat/_pty.py`, ROOT, home, ...steps],
    env: { NO_COLOR: "1", AGENT_PTY_ARGS: words, AGENT_PTY_COLUMNS: "40" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const screen = new TextDecoder().decode(out.stdout);
  return { screen, code: Number(/EXIT (-?\d+)\s*$/.exec(screen)?.[1] ?? "-1") };
}
