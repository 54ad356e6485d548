/**
 * The error of a bad or missing `agent.toml`, kept apart from the loader so code
 * that only recognises it loads no TOML parser or schema.
 *
 * @module
 */
import { UserError } from "../user_error.ts";

/** A problem with `agent.toml`; `message` is the sentence to show the user (exit 2). */
export class ConfigError extends UserError {
  override name = "ConfigError";
  /** `"missing"` when the file does not exist, else `"invalid"`. */
  readonly kind: "missing" | "invalid";
  constructor(message: string, options?: ErrorOptions & { kind?: "missing" | "invalid" }) {
    super(message, 2, options);
    this.kind = options?.kind ?? "invalid";
  }
}
