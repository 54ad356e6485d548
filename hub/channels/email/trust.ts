/**
 * Whether a mail is answered at all: it must come from one sender, not from a machine
 * nor from the agent itself, from the owner or an allowed address, and that address
 * must be proven by the receiving server's `Authentication-Results` under the
 * configured authserv-id (a passing DKIM signature of the From domain, or SPF and
 * DMARC both passing) unless `trust_from` is on. Anything else is refused: never
 * answered, never shown to the model, logged and counted in the owner's digest.
 *
 * @module
 */
import type { EmailConfig } from "../../config/types.ts";
import { authVerdict } from "./auth_results.ts";
import type { IncomingMail } from "./mail.ts";
import { type MailPerson, personOf } from "./settings.ts";

/** Why a mail was not answered. */
export type Refusal =
  /** `From:` names no sender or several. */
  | "no_sender"
  /** The agent's own address (a loop). */
  | "self"
  /** A bounce, an auto-reply, a mailing list. */
  | "automatic"
  /** Neither the owner nor an allowed sender. */
  | "unknown_sender"
  /** An allowed address the server did not vouch for (a forged `From:`). */
  | "unauthenticated"
  /** The sender's hourly limit (`max_per_hour`) is reached. */
  | "rate_limited";

/** Every refusal, in a stable order (for the digest). */
export const REFUSALS: readonly Refusal[] = [
  "unauthenticated",
  "unknown_sender",
  "rate_limited",
  "automatic",
  "no_sender",
  "self",
];

/** The verdict on one mail. */
export type Verdict =
  | { ok: true; sender: string; person: MailPerson; proof: "dkim" | "spf+dmarc" | "trust_from" }
  | { ok: false; sender: string | undefined; reason: Refusal };

/**
 * Decides whether `mail` may be answered (the hourly limit is the store's to count).
 *
 * @example
 * ```ts
 * import { judge } from "./trust.ts";
 * const settings = {
 *   address: "agent@example.org", owner: "me@example.com", allowed_senders: [],
 *   authserv_id: "mx.example.org", trust_from: false,
 * } as never;
 * const mail = {
 *   from: { address: "me@example.com", name: "" }, automatic: false,
 *   authResults: ["mx.example.org; dkim=pass header.d=example.com"],
 * } as never;
 * const v = judge(mail, settings);
 * if (!v.ok || v.person !== "owner" || v.proof !== "dkim") throw new Error(JSON.stringify(v));
 * ```
 */
export function judge(
  mail: Pick<IncomingMail, "from" | "automatic" | "authResults">,
  settings: Pick<
    EmailConfig,
    "address" | "owner" | "allowed_senders" | "authserv_id" | "trust_from"
  >,
): Verdict {
  const sender = mail.from?.address;
  if (sender === undefined) return { ok: false, sender, reason: "no_sender" };
  if (sender === settings.address) return { ok: false, sender, reason: "self" };
  if (mail.automatic) return { ok: false, sender, reason: "automatic" };
  const person = personOf(settings as EmailConfig, sender);
  if (person === undefined) return { ok: false, sender, reason: "unknown_sender" };
  if (settings.trust_from) return { ok: true, sender, person, proof: "trust_from" };
  const proof = authVerdict(mail.authResults, settings.authserv_id, sender);
  if (proof === "none") return { ok: false, sender, reason: "unauthenticated" };
  return { ok: true, sender, person, proof };
}
