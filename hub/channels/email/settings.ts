/**
 * The e-mail channel's settings: `[email]` in `agent.toml` (validated there) with its
 * login from `.env`: `EMAIL_USERNAME` (the mailbox address when unset) and
 * `EMAIL_PASSWORD`. The channel runs when `[email]` is there; without a password it is
 * left out with one line in the log and one in `agent doctor`.
 *
 * @module
 */
import type { AgentConfig, EmailConfig } from "../../config/types.ts";

/** What the channel runs with. */
export interface EmailSettings extends EmailConfig {
  username: string;
  /** Never logged, never in `/status`. */
  password: string;
}

/** `[email]` plus its login, or why it cannot run. */
export type EmailSettingsResult =
  | { ok: true; settings: EmailSettings }
  | { ok: false; missing: "table" | "password" };

/**
 * The settings from the configuration and the environment.
 *
 * @example
 * ```ts
 * import { emailSettings } from "./settings.ts";
 * const config = { email: { address: "agent@example.com" } } as never;
 * const r = emailSettings(config, { EMAIL_PASSWORD: "pw" });
 * if (!r.ok || r.settings.username !== "agent@example.com") throw new Error();
 * if (emailSettings(config, {}).ok) throw new Error();
 * ```
 */
export function emailSettings(
  config: Pick<AgentConfig, "email">,
  env: Readonly<Record<string, string | undefined>>,
): EmailSettingsResult {
  const email = config.email;
  if (email === undefined) return { ok: false, missing: "table" };
  const password = env.EMAIL_PASSWORD ?? "";
  if (password === "") return { ok: false, missing: "password" };
  return {
    ok: true,
    settings: { ...email, username: env.EMAIL_USERNAME?.trim() || email.address, password },
  };
}

/** Who a sender is to the agent: the owner, or another person by address. */
export type MailPerson = "owner" | `person:${string}`;

/** The person `address` (lower case) is, or `undefined` when it may not write. */
export function personOf(settings: EmailConfig, address: string): MailPerson | undefined {
  if (address === settings.owner) return "owner";
  return settings.allowed_senders.includes(address) ? `person:${address}` : undefined;
}
