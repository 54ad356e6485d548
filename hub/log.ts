/**
 * The agent log, `<AGENT_DATA_DIR>/logs/agent.log`: one line per event,
 * `<ISO time> <LEVEL> <message>`. Warnings also go to stderr unless the run is quiet
 * (the TUI); `-v` adds INFO there. Never put a token or key into a message.
 *
 * @module
 */

/** Log levels, lowest first. */
export type Level = "INFO" | "WARNING" | "ERROR";

/** Options for {@linkcode Logger}. */
export interface LoggerOptions {
  /** The log file; `undefined` logs nowhere on disk. */
  file?: string | undefined;
  /** Lowest level echoed to stderr; `"off"` echoes nothing. @default "WARNING" */
  stderr?: Level | "off";
}

const RANK: Record<Level, number> = { INFO: 0, WARNING: 1, ERROR: 2 };

/** Appends lines to the agent log and echoes the important ones to stderr. */
export class Logger {
  #file: string | undefined;
  #stderr: Level | "off";
  #dirReady = false;

  constructor(options: LoggerOptions = {}) {
    this.#file = options.file;
    this.#stderr = options.stderr ?? "WARNING";
  }

  /** Logs at INFO. */
  info(message: string): void {
    this.write("INFO", message);
  }

  /** Logs at WARNING. */
  warn(message: string): void {
    this.write("WARNING", message);
  }

  /** Logs at ERROR. */
  error(message: string): void {
    this.write("ERROR", message);
  }

  /** Writes one line; a log that cannot be written never breaks the caller. */
  write(level: Level, message: string): void {
    const line = `${new Date().toISOString()} ${level} ${message.replace(/\r?\n/g, " ")}\n`;
    if (this.#stderr !== "off" && RANK[level] >= RANK[this.#stderr]) {
      try {
        Deno.stderr.writeSync(new TextEncoder().encode(`${level.toLowerCase()}: ${message}\n`));
      } catch { /* a closed stderr is not the caller's problem */ }
    }
    if (this.#file === undefined) return;
    try {
      if (!this.#dirReady) {
        // The data directory and its logs folder are the owner's alone.
        Deno.mkdirSync(this.#file.slice(0, this.#file.lastIndexOf("/")), {
          recursive: true,
          mode: 0o700,
        });
        this.#dirReady = true;
      }
      Deno.writeTextFileSync(this.#file, line, { append: true, mode: 0o600 });
    } catch { /* see above */ }
  }
}
