/**
 * `agent tui` in a real terminal: a tmux pane on a private tmux server, driven with
 * `send-keys` and read with `capture-pane`. Each capture a test looks at can be kept
 * under `tests/tui/artifacts/` (git ignores it).
 *
 * Each pane has a tmux server of its own whose socket lives in a temporary folder of
 * its own (`tmux -S`): tmux keeps its sockets under `TMUX_TMPDIR` or `/tmp`, not
 * `TMPDIR`, and leaves them behind when the server exits, so {@linkcode Pane.kill}
 * ends the server and removes the folder.
 *
 * @module
 */
import { RUN_FLAGS } from "../_agent_flags.ts";
import { removeTree } from "../_temp_dir.ts";
import { until } from "../_poll.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
/**
 * How often {@linkcode Pane.until} looks at the screen. Each look is a `tmux
 * capture-pane` process, ~19 ms of processor time with the server's share (200 looks
 * took 3.8 s here); at the poller's 20 ms a pane waiting for the agent to load spent
 * a fifth of a core looking. A screen is drawn at most every ~16 ms anyway.
 */
const LOOK_MS = 100;
const ARTIFACTS = `${ROOT}tests/tui/artifacts`;

/** Whether tmux can run here. */
export const HAS_TMUX: boolean = (() => {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-S", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** Options for {@linkcode Pane.start}. */
export interface PaneOptions {
  /** Extra environment for the agent. */
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
  /** Deno's own lines (downloads) shown too, as `deno task agent` shows them. @default false */
  denoOutput?: boolean;
}

/** One pane running `agent <args>`; the shell prints `EXIT=<code>` when it ends. */
export class Pane {
  readonly name: string;
  /** The pane's tmux server socket (`tmux -S`). */
  readonly socket: string;
  #dir: string;
  #started = performance.now();

  private constructor(name: string, dir: string) {
    this.name = name;
    this.#dir = dir;
    this.socket = `${dir}/tmux.sock`;
  }

  /** Starts `agent <args>` in a new pane (a session of its own). */
  static async start(args: string[], options: PaneOptions = {}): Promise<Pane> {
    const name = `p${crypto.randomUUID().slice(0, 8)}`;
    const env = Object.entries({ NO_COLOR: "1", ...options.env })
      .map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
    const command = [
      `cd ${shellQuote(ROOT)} &&`,
      // Ink draws only the last frame under CI=true.
      `env -u CI ${env}`,
      shellQuote(Deno.execPath()),
      "run",
      ...(options.denoOutput === true ? [] : ["--quiet"]),
      ...RUN_FLAGS,
      "cli/main.ts",
      ...args.map(shellQuote),
      "; echo EXIT=$?; sleep 600",
    ].join(" ");
    const pane = new Pane(name, await Deno.makeTempDir({ prefix: "agent-tmux-" }));
    try {
      await pane.#tmux(
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        String(options.columns ?? 100),
        "-y",
        String(options.rows ?? 30),
        command,
      );
    } catch (error) {
      await pane.kill();
      throw error;
    }
    return pane;
  }

  #tmux(...args: string[]): Promise<string> {
    return tmux(this.socket, ...args);
  }

  /** Milliseconds since the pane started. */
  get elapsed(): number {
    return performance.now() - this.#started;
  }

  /** Sends keys by tmux name (`Enter`, `Escape`, `C-c`, `Up`...). */
  async keys(...keys: string[]): Promise<void> {
    await this.#tmux("send-keys", "-t", this.name, ...keys);
  }

  /** Types `text` literally. */
  async type(text: string): Promise<void> {
    await this.#tmux("send-keys", "-t", this.name, "-l", text);
  }

  /** The visible screen. */
  async capture(): Promise<string> {
    return await this.#tmux("capture-pane", "-p", "-t", this.name);
  }

  /** Waits until the screen holds `text` (or matches it); returns the screen. */
  async until(text: string | RegExp, timeoutMs?: number): Promise<string> {
    let screen = "";
    const shows = (now: string) => typeof text === "string" ? now.includes(text) : text.test(now);
    return await until(
      () => `the screen to show ${String(text)}; it shows:\n${screen}`,
      async () => shows(screen = await this.capture()) && screen,
      timeoutMs === undefined ? { intervalMs: LOOK_MS } : { timeoutMs, intervalMs: LOOK_MS },
    );
  }

  /** Waits for `EXIT=<code>` and returns the code. */
  async exitCode(timeoutMs?: number): Promise<number> {
    const screen = await this.until(/EXIT=\d+/, timeoutMs);
    return Number(screen.match(/EXIT=(\d+)/)![1]);
  }

  /** Whether the program in the pane has switched to the terminal's alternate screen. */
  async alternateOn(): Promise<boolean> {
    return (await this.#tmux("display-message", "-p", "-t", this.name, "#{alternate_on}"))
      .trim() === "1";
  }

  /**
   * The process id of the program the pane's shell runs (the agent), once it started.
   */
  async programPid(): Promise<number> {
    const shell = await this.#shellPid();
    return await until("the pane's program to start", async () => (await childrenOf(shell))[0]);
  }

  /** The process id of the pane's shell. */
  async #shellPid(): Promise<number> {
    return Number(
      (await this.#tmux("display-message", "-p", "-t", this.name, "#{pane_pid}")).trim(),
    );
  }

  /**
   * Writes `text` to the pane's terminal as another program sharing it would (Deno's
   * download lines while a module loads, a child's stderr): over whatever is drawn.
   */
  async writeTerminal(text: string): Promise<void> {
    const tty = (await this.#tmux("display-message", "-p", "-t", this.name, "#{pane_tty}")).trim();
    // Through a shell: Deno asks --allow-all of a write to a device.
    const out = await new Deno.Command("sh", {
      args: ["-c", 'printf "%s" "$1" >> "$2"', "sh", text, tty],
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  }

  /** Resizes the pane's window. */
  async resize(columns: number, rows: number): Promise<void> {
    await this.#tmux("resize-window", "-t", this.name, "-x", String(columns), "-y", String(rows));
  }

  /** Keeps the current screen as `tests/tui/artifacts/<name>.txt`; returns it. */
  async keep(name: string): Promise<string> {
    const screen = await this.capture();
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    await Deno.writeTextFile(`${ARTIFACTS}/${name}.txt`, screen);
    return screen;
  }

  /**
   * Ends the pane's tmux server and waits until the pane's shell and the agent in it
   * have ended, then removes the socket's folder. The agent ends on the hangup, not at
   * once: it still writes its log then, and a test that removed the home right after the
   * server ended met that line written into a removed folder.
   */
  async kill(): Promise<void> {
    // A server already gone has no pane to ask about, and nothing left to wait for.
    const shell = await this.#shellPid().catch(() => 0);
    const pids = shell > 0 ? [shell, ...await childrenOf(shell)] : [];
    await this.#tmux("kill-server").catch(() => {});
    await until(
      `the pane's processes ${pids.join(", ")} to end`,
      async () => !await anyRunning(pids),
      { intervalMs: 50 },
    );
    await removeTree(this.#dir);
  }
}

// Through `pgrep` and `ps`: Deno opens `/proc` only to `--allow-all`, which the
// end-to-end layer does not have.

/** The children of process `pid`. */
async function childrenOf(pid: number): Promise<number[]> {
  const out = await new Deno.Command("pgrep", { args: ["-P", String(pid)], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map(Number);
}

/** Whether any of `pids` still runs (a zombie has ended: only its exit status is left). */
async function anyRunning(pids: number[]): Promise<boolean> {
  if (pids.length === 0) return false;
  const out = await new Deno.Command("ps", {
    args: ["-o", "stat=", "-p", pids.join(",")],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").some((s) => /^[^Z\s]/.test(s.trim()));
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}
