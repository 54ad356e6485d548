/**
 * {@linkcode UserError}: a failure the user reads as one sentence, with the exit code a
 * command ends with. The hub throws it where it knows the sentence (chat's checks, a
 * bad `agent.toml`); the `agent` command turns it into output in one place.
 *
 * @module
 */

/**
 * A failure for the user: `message` is the one sentence shown (empty when it was
 * already shown), `exitCode` what the command exits with.
 *
 * @example
 * ```ts
 * import { UserError } from "./user_error.ts";
 * const error = new UserError("Unknown role 'x'.", 2);
 * if (error.exitCode !== 2 || error.message !== "Unknown role 'x'.") throw new Error();
 * ```
 */
export class UserError extends Error {
  override name = "UserError";
  /** The exit code of the command that ends with it. */
  readonly exitCode: number;
  constructor(sentence: string, exitCode = 1, options?: ErrorOptions) {
    super(sentence, options);
    this.exitCode = exitCode;
  }
}
