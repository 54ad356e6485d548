/**
 * The e-mail channel (IMAP and SMTP): {@linkcode emailChannel} is the hub's factory
 * for it, {@linkcode emailCheck} the doctor's lines (with `--probe`, a login to both
 * servers). The door is light: the channel and its IMAP, SMTP and MIME packages load
 * only when the factory runs (or the probe does).
 *
 * @module
 */
import type { HubContext, HubService } from "../contract.ts";
import { emailSettings } from "./settings.ts";

export { emailCheck } from "./doctor.ts";
export { type EmailSettings, emailSettings, type MailPerson } from "./settings.ts";
// The machinery without the desk, for tests that drive it with a scripted answerer.
export {
  EmailService,
  type EmailServiceOptions,
  type EmailStatus,
  type MailAnswer,
  type MailAnswerer,
  type MailTurn,
} from "./service.ts";
export {
  type MailRow,
  MailStore,
  type OutboxRow,
  type RefusedRow,
  type StoreCounts,
  type TakenMail,
} from "./store.ts";
export { type IncomingMail, type MailAttachment, readMail, type ReadMailOptions } from "./mail.ts";
export type { FetchedMail, ImapState } from "./imap.ts";
export type { AnswerCost } from "./render.ts";
export type { SendRaw } from "./outbox.ts";
export type { Refusal } from "./trust.ts";

/**
 * The e-mail channel when `[email]` is set; without `EMAIL_PASSWORD` or the spend
 * ledger (budgets apply to every channel) it is left out with a log line.
 */
export async function emailChannel(hub: HubContext): Promise<HubService | undefined> {
  const result = emailSettings(hub.config, hub.env);
  if (!result.ok) {
    if (result.missing === "password") {
      hub.logger.error("email: not started: EMAIL_PASSWORD is not in .env");
    }
    return undefined;
  }
  if (hub.ledger === undefined) {
    hub.logger.error("email: not started: the spend ledger cannot be opened");
    return undefined;
  }
  const { EmailChannel } = await import("./channel.ts");
  return new EmailChannel(hub, result.settings);
}
