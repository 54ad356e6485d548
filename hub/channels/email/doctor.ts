/**
 * `agent doctor`'s e-mail lines, when `[email]` is set: the settings (address, the
 * servers and TLS, how many senders it answers), a failure when `EMAIL_PASSWORD` is
 * missing, a warning when `trust_from` is on for a server that is not on this machine
 * (anyone could write as the owner), and with `--probe` a real login to both servers.
 * The IMAP and SMTP packages load only for the probe.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../../doctor/types.ts";
import { isLoopbackName } from "../../config/email.ts";
import { t } from "./_messages.ts";
import { emailSettings } from "./settings.ts";

/** The `email` lines; none without `[email]`. */
export async function emailCheck(d: DoctorContext): Promise<CheckResult[]> {
  const email = d.config?.email;
  if (email === undefined) return [];
  const line = (status: CheckResult["status"], detail: string): CheckResult => ({
    name: "email",
    status,
    detail,
  });
  const result = emailSettings(d.config!, d.env);
  if (!result.ok) return [line("fail", t(d.lang, "doctor_no_password"))];
  const s = result.settings;
  const lines = [line(
    "ok",
    t(d.lang, "doctor_ok", {
      address: s.address,
      imap: `${s.imap_host}:${s.imap_port}`,
      smtp: `${s.smtp_host}:${s.smtp_port}`,
      tls: s.tls,
      count: s.allowed_senders.length,
    }),
  )];
  if (s.trust_from) {
    const remote = [s.imap_host, s.smtp_host].find((host) => !isLoopbackName(host));
    if (remote !== undefined) {
      lines.push(line("warn", t(d.lang, "doctor_trust_from", { host: remote })));
    }
  }
  if (d.probe === true) {
    const { probeEmail } = await import("./probe.ts");
    const probe = await probeEmail(s, d.lang);
    lines.push(line(probe.ok ? "ok" : "fail", probe.detail));
  }
  return lines;
}
