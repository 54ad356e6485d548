/**
 * The message of anything thrown, for a log line or a sentence.
 *
 * @module
 */

/**
 * The message of anything thrown: an `Error`'s `message`, else the value as text.
 *
 * @example
 * ```ts
 * import { errorMessage } from "./error_message.ts";
 * if (errorMessage(new Error("x")) !== "x" || errorMessage(42) !== "42") throw new Error();
 * ```
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The first line of {@linkcode errorMessage}, trimmed: for one-line reports of errors
 * whose messages run on (a module that failed to load, say).
 *
 * @example
 * ```ts
 * import { errorLine } from "./error_message.ts";
 * if (errorLine(new Error("not found\n    at x")) !== "not found") throw new Error();
 * ```
 */
export function errorLine(error: unknown): string {
  return (errorMessage(error).split("\n")[0] ?? "").trim();
}
