/**
 * `agent doctor --probe`'s e-mail line: a real login to the IMAP server (and opening
 * `[email] folder`) and to the SMTP server, and, when one fails, one sentence naming
 * the server, the host and port, and what failed: cannot be reached (refused, no such
 * host, no answer), the TLS handshake, the login, or the folder.
 *
 * @module
 */
import { ImapFlow } from "imapflow";
import { createTransport } from "nodemailer";
import type { Lang } from "../../i18n.ts";
import { t } from "./_messages.ts";
import { imapOptions } from "./imap.ts";
import { smtpOptions } from "./outbox.ts";
import type { EmailSettings } from "./settings.ts";

/** How long each login may take. */
const PROBE_MS = 10_000;

/** What a probe found: `ok` with a sentence, or the failure's sentence. */
export interface ProbeResult {
  ok: boolean;
  detail: string;
}

type Kind = "unreachable" | "tls" | "auth" | "other";

/**
 * The kind of a connection failure and its short detail, from Node-style codes and
 * messages (both `imapflow` and `nodemailer` pass the socket's own).
 *
 * @example
 * ```ts
 * import { failureKind } from "./probe.ts";
 * const e = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
 * if (failureKind(e).kind !== "unreachable" || failureKind(e).detail !== "connection refused") {
 *   throw new Error();
 * }
 * if (failureKind(Object.assign(new Error("x"), { code: "EAUTH" })).kind !== "auth") throw new Error();
 * ```
 */
export function failureKind(error: unknown): { kind: Kind; detail: string } {
  const e = error as {
    code?: string;
    authenticationFailed?: boolean;
    responseCode?: number;
    message?: string;
  };
  const code = String(e?.code ?? "");
  const message = String(e?.message ?? error);
  const text = `${code} ${message}`;
  if (e?.authenticationFailed || code === "EAUTH" || e?.responseCode === 535) {
    return { kind: "auth", detail: message };
  }
  if (/ECONNREFUSED|Connection refused/i.test(text)) {
    return { kind: "unreachable", detail: "connection refused" };
  }
  if (/ENOTFOUND|EAI_AGAIN|EDNS|failed to lookup|Name or service not known/i.test(text)) {
    return { kind: "unreachable", detail: "no such host" };
  }
  if (/ETIMEDOUT|CONNECT_TIMEOUT|timed? ?out|EHOSTUNREACH|ENETUNREACH/i.test(text)) {
    return { kind: "unreachable", detail: "no answer" };
  }
  if (/ETLS|SSL|TLS|certificate|CERT_|handshake|corrupt message|wrong version/i.test(text)) {
    return { kind: "tls", detail: message.replace(/\s+/g, " ").slice(0, 160) };
  }
  return { kind: "other", detail: message.replace(/\s+/g, " ").slice(0, 200) };
}

function sentence(
  lang: Lang,
  what: "IMAP" | "SMTP",
  host: string,
  port: number,
  user: string,
  error: unknown,
): string {
  const { kind, detail } = failureKind(error);
  const vars = { what, host, port, user, detail };
  return kind === "unreachable"
    ? t(lang, "probe_unreachable", vars)
    : kind === "tls"
    ? t(lang, "probe_tls", vars)
    : kind === "auth"
    ? t(lang, "probe_auth", vars)
    : t(lang, "probe_other", vars);
}

function withTimeout<T>(work: Promise<T>, lang: Lang): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(Object.assign(new Error(t(lang, "probe_timeout", { seconds: PROBE_MS / 1000 })), {
          code: "ETIMEDOUT",
        })),
      PROBE_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Logs in to IMAP (opening the folder) and to SMTP; the first failure's sentence. */
export async function probeEmail(settings: EmailSettings, lang: Lang): Promise<ProbeResult> {
  const s = settings;
  const imap = new ImapFlow(imapOptions(s, {
    disableAutoIdle: true,
    connectionTimeout: PROBE_MS,
    greetingTimeout: PROBE_MS,
  }));
  imap.on("error", () => {});
  try {
    await withTimeout(imap.connect(), lang);
  } catch (error) {
    imap.close();
    return {
      ok: false,
      detail: sentence(lang, "IMAP", s.imap_host, s.imap_port, s.username, error),
    };
  }
  try {
    await withTimeout(imap.mailboxOpen(s.folder, { readOnly: true }), lang);
  } catch {
    imap.close();
    return {
      ok: false,
      detail: t(lang, "probe_folder", { host: s.imap_host, port: s.imap_port, folder: s.folder }),
    };
  }
  await imap.logout().catch(() => imap.close());
  const smtp = createTransport({
    ...smtpOptions(s),
    connectionTimeout: PROBE_MS,
    greetingTimeout: PROBE_MS,
  });
  try {
    await withTimeout(smtp.verify(), lang);
  } catch (error) {
    return {
      ok: false,
      detail: sentence(lang, "SMTP", s.smtp_host, s.smtp_port, s.username, error),
    };
  } finally {
    smtp.close();
  }
  return {
    ok: true,
    detail: t(lang, "probe_ok", {
      imap: `${s.imap_host}:${s.imap_port}`,
      smtp: `${s.smtp_host}:${s.smtp_port}`,
      folder: s.folder,
    }),
  };
}
