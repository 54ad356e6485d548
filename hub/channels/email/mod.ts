/**
 * The e-mail channel (IMAP and SMTP): {@linkcode emailChannel} is the hub's factory
 * for it, {@linkcode emailCheck} the doctor's lines (with `--probe`, a login to both
 * servers).
 *
 * @module
 */
import type { HubChannel, HubContext } from "../../app/channel_types.ts";
import { EmailChannel } from "./channel.ts";
import { emailSettings } from "./settings.ts";

export { EmailChannel, emailStoreFile } from "./channel.ts";
export { emailCheck } from "./doctor.ts";
export { type EmailSettings, emailSettings } from "./settings.ts";
export type { EmailStatus } from "./service.ts";

/**
 * The e-mail channel when `[email]` is set; without `EMAIL_PASSWORD` or the spend
 * ledger (budgets apply to every channel) it is left out with a log line.
 */
export function emailChannel(hub: HubContext): Promise<HubChannel | undefined> {
  const result = emailSettings(hub.config, hub.env);
  if (!result.ok) {
    if (result.missing === "password") {
      hub.logger.error("email: not started: EMAIL_PASSWORD is not in .env");
    }
    return Promise.resolve(undefined);
  }
  if (hub.ledger === undefined) {
    hub.logger.error("email: not started: the spend ledger cannot be opened");
    return Promise.resolve(undefined);
  }
  return Promise.resolve(new EmailChannel(hub, result.settings));
}
