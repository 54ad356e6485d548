/**
 * `[email]` with its defaults, and the rules across its keys that a schema cannot say:
 * the addresses are addresses, `tls = "none"` is for a server on this machine only (a
 * password sent in the clear over a network is a password given away), an
 * `authserv_id` is named unless `trust_from` is on, and the agent's own address is not
 * also its owner's (it would answer itself).
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { ConfigError } from "./error.ts";
import type { RawConfig } from "./_schema.ts";
import type { EmailConfig, EmailTls } from "./types.ts";

/** The default ports of each TLS mode: IMAP, then SMTP. */
export const EMAIL_PORTS: Readonly<Record<EmailTls, readonly [number, number]>> = {
  implicit: [993, 465],
  starttls: [143, 587],
  none: [143, 25],
};

/** `[email]` defaults that are not ports. */
export const EMAIL_DEFAULTS = {
  tls: "implicit",
  folder: "INBOX",
  done_folder: "",
  mode: "idle",
  poll_seconds: 60,
  max_per_hour: 20,
  footer: true,
  attachment_kb: 64,
} as const;

/**
 * Whether `host` names this machine: `localhost`, `127.0.0.0/8` or `::1` (with or
 * without brackets).
 *
 * @example
 * ```ts
 * import { isLoopbackName } from "./email.ts";
 * if (!isLoopbackName("127.0.0.2") || !isLoopbackName("[::1]")) throw new Error();
 * if (isLoopbackName("127.0.0.1.example.com") || isLoopbackName("mail.example.com")) {
 *   throw new Error();
 * }
 * ```
 */
export function isLoopbackName(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost" || h === "::1") return true;
  const parts = h.split(".");
  return parts.length === 4 && parts[0] === "127" &&
    parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/**
 * Whether `text` is one plain address (`local@domain.tld`, no name, no brackets).
 *
 * @example
 * ```ts
 * import { isMailAddress } from "./email.ts";
 * if (!isMailAddress("ayse.yilmaz@example.com.tr")) throw new Error();
 * if (isMailAddress("Ayşe <a@b.c>") || isMailAddress("a@localhost") || isMailAddress("a@b")) {
 *   throw new Error();
 * }
 * ```
 */
export function isMailAddress(text: string): boolean {
  return /^[^\s@<>(),;:"\[\]\\]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(text);
}

/** `[email]` with its defaults, or `undefined` when the table is not there. */
export function emailWithDefaults(raw: RawConfig["email"]): EmailConfig | undefined {
  if (raw === undefined) return undefined;
  const tls = raw.tls ?? EMAIL_DEFAULTS.tls;
  const [imapPort, smtpPort] = EMAIL_PORTS[tls];
  return {
    address: raw.address.trim().toLowerCase(),
    imap_host: raw.imap_host.trim(),
    imap_port: raw.imap_port ?? imapPort,
    smtp_host: raw.smtp_host.trim(),
    smtp_port: raw.smtp_port ?? smtpPort,
    tls,
    owner: raw.owner.trim().toLowerCase(),
    allowed_senders: [...new Set((raw.allowed_senders ?? []).map((a) => a.trim().toLowerCase()))],
    authserv_id: (raw.authserv_id ?? "").trim(),
    trust_from: raw.trust_from ?? false,
    folder: raw.folder ?? EMAIL_DEFAULTS.folder,
    done_folder: (raw.done_folder ?? EMAIL_DEFAULTS.done_folder).trim(),
    mode: raw.mode ?? EMAIL_DEFAULTS.mode,
    poll_seconds: raw.poll_seconds ?? EMAIL_DEFAULTS.poll_seconds,
    max_per_hour: raw.max_per_hour ?? EMAIL_DEFAULTS.max_per_hour,
    footer: raw.footer ?? EMAIL_DEFAULTS.footer,
    attachment_kb: raw.attachment_kb ?? EMAIL_DEFAULTS.attachment_kb,
  };
}

/** Throws a {@linkcode ConfigError} naming the first rule `[email]` breaks. */
export function checkEmail(email: EmailConfig | undefined, file: string, lang: Lang): void {
  if (email === undefined) return;
  const named: [string, string][] = [
    ["address", email.address],
    ["owner", email.owner],
    ...email.allowed_senders.map((a): [string, string] => ["allowed_senders", a]),
  ];
  for (const [key, value] of named) {
    if (!isMailAddress(value)) {
      throw new ConfigError(t(lang, "email_address", { file, key, value }));
    }
  }
  if (email.owner === email.address) {
    throw new ConfigError(t(lang, "email_self", { file }));
  }
  if (email.tls === "none") {
    for (const key of ["imap_host", "smtp_host"] as const) {
      if (!isLoopbackName(email[key])) {
        throw new ConfigError(t(lang, "email_tls_none", { file, key, host: email[key] }));
      }
    }
  }
  if (email.authserv_id === "" && !email.trust_from) {
    throw new ConfigError(t(lang, "email_authserv", { file }));
  }
  if (email.done_folder !== "" && email.done_folder === email.folder) {
    throw new ConfigError(t(lang, "email_done_folder", { file }));
  }
}
