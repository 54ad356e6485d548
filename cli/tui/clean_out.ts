/**
 * The terminal output the TUI's screens are drawn to, which can start the next frame on
 * a clean screen. Ink draws each frame where the cursor is, and after the first only
 * the rows that changed, moving the cursor relative to where it left it. Anything else
 * written to the terminal meanwhile (Deno's `Download https://…` lines while the
 * agent's modules load on a fresh cache, on its standard error) moves the cursor and
 * stays on the screen: a setup box with its top cut off, a status bar drawn from the
 * middle of a row for the rest of the session. So each screen's first frame, and the
 * chat's first frame after its start-up, begins with clearing the screen and putting
 * the cursor home, in the same write as the frame: whatever came before it is gone.
 *
 * @module
 */
import process from "node:process";

/** Clears the whole screen and puts the cursor on its first row and column. */
const CLEAN = "\x1b[2J\x1b[H";

type Stream = typeof process.stdout;

/** Standard output for Ink, whose next frame can be asked to start on a clean screen. */
export class CleanOut {
  /** The stream to give Ink (`render(tree, {stdout})`). */
  readonly stream: Stream;
  #pending = true;

  /** Wraps `target` (default: standard output); the first frame starts clean. */
  constructor(target: Stream = process.stdout) {
    this.stream = new Proxy(target, {
      get: (t, prop) => {
        if (prop === "write") {
          return (chunk: unknown, ...rest: unknown[]) =>
            (t.write as (...args: unknown[]) => boolean)(this.#prefixed(chunk), ...rest);
        }
        const value = Reflect.get(t, prop, t);
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
  }

  /** The next frame clears the screen first and is drawn from its top row. */
  cleanNext(): void {
    this.#pending = true;
  }

  /**
   * A frame's text with the clean in front when one is asked for. A frame has rows
   * (line breaks); Ink's other writes (hiding the cursor) pass as they are.
   */
  #prefixed(chunk: unknown): unknown {
    if (!this.#pending || typeof chunk !== "string" || !chunk.includes("\n")) return chunk;
    this.#pending = false;
    return CLEAN + chunk;
  }
}
