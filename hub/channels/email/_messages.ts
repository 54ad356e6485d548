/**
 * The e-mail channel's sentences in English and Turkish: the answer's footer, the mail
 * that says an approval waits, what the owner is told of refused and undelivered mail,
 * the status line and the doctor's lines.
 *
 * @module
 */
import { catalogue } from "../../i18n.ts";

/** Translator for the e-mail channel. */
export const t = catalogue({
  footer: "Answered by {model} for ${usd}.",
  footer_unpriced: "Answered by {model} (its price is not known).",
  waiting:
    "Before I go on, this needs your approval:\n\n{sentence}\n\nDecide it in the messenger or on the dashboard's Approvals page; my answer follows in this thread once it is decided.",
  refused_title: "{n} e-mail(s) to your agent were not answered:",
  refused_unauthenticated:
    "{n} from an allowed address your mail server did not vouch for (anyone can write a From: line): {senders}",
  refused_unknown_sender: "{n} from senders not in [email] allowed_senders: {senders}",
  refused_rate_limited: "{n} past the hourly limit ([email] max_per_hour): {senders}",
  refused_automatic: "{n} sent by a machine (bounces, auto-replies, lists): {senders}",
  refused_no_sender: "{n} with no single sender in From:",
  refused_self: "{n} from the agent's own address",
  doctor_ok:
    "{address}: IMAP {imap}, SMTP {smtp}, TLS {tls}; answers the owner and {count} other sender(s)",
  doctor_no_password:
    "[email] is set but EMAIL_PASSWORD is not in .env, so the e-mail channel does not start",
  doctor_trust_from:
    "trust_from = true takes every From: line as proven, and {host} is not on this machine: anyone could write as your owner; remove trust_from and set authserv_id",
  doctor_no_ledger: "the spend ledger cannot be opened, so the e-mail channel does not start",
  probe_ok: "logged in to IMAP {imap} (folder {folder}) and SMTP {smtp}",
  probe_unreachable: "{what} {host}:{port} cannot be reached: {detail}",
  probe_tls:
    "{what} {host}:{port} did not complete a TLS handshake ({detail}); check [email] tls: implicit for ports 993 and 465, starttls for 143 and 587",
  probe_auth:
    "{what} {host}:{port} refused the login of {user}; check EMAIL_USERNAME and EMAIL_PASSWORD in .env",
  probe_folder: "IMAP {host}:{port} has no folder '{folder}' ([email] folder)",
  probe_other: "{what} {host}:{port} failed: {detail}",
  probe_timeout: "no answer within {seconds} s",
}, {
  footer: "{model} yanıtladı, ${usd}.",
  footer_unpriced: "{model} yanıtladı (fiyatı bilinmiyor).",
  waiting:
    "Devam etmeden önce şunun için onayınız gerekiyor:\n\n{sentence}\n\nMesajlaşma uygulamasında ya da panelin Onaylar sayfasında karar verin; karar verilince yanıtım bu konuşmada gelecek.",
  refused_title: "Ajanınıza gelen {n} e-posta yanıtlanmadı:",
  refused_unauthenticated:
    "{n} tanesi, posta sunucunuzun doğrulamadığı izinli bir adresten (From: satırını herkes yazabilir): {senders}",
  refused_unknown_sender:
    "{n} tanesi [email] allowed_senders içinde olmayan gönderenlerden: {senders}",
  refused_rate_limited: "{n} tanesi saatlik sınırın ötesinde ([email] max_per_hour): {senders}",
  refused_automatic:
    "{n} tanesi bir makineden (geri dönen postalar, otomatik yanıtlar, listeler): {senders}",
  refused_no_sender: "{n} tanesinin From: satırında tek bir gönderen yok",
  refused_self: "{n} tanesi ajanın kendi adresinden",
  doctor_ok:
    "{address}: IMAP {imap}, SMTP {smtp}, TLS {tls}; sahibini ve {count} başka göndereni yanıtlar",
  doctor_no_password:
    "[email] ayarlı ama .env içinde EMAIL_PASSWORD yok, bu yüzden e-posta kanalı başlamaz",
  doctor_trust_from:
    "trust_from = true her From: satırını kanıtlanmış sayar ve {host} bu makinede değil: herkes sahibiniz gibi yazabilir; trust_from'u kaldırıp authserv_id ayarlayın",
  doctor_no_ledger: "harcama defteri açılamıyor, bu yüzden e-posta kanalı başlamaz",
  probe_ok: "IMAP {imap} (klasör {folder}) ve SMTP {smtp} oturumları açıldı",
  probe_unreachable: "{what} {host}:{port} adresine ulaşılamıyor: {detail}",
  probe_tls:
    "{what} {host}:{port} TLS el sıkışmasını tamamlamadı ({detail}); [email] tls değerine bakın: 993 ve 465 için implicit, 143 ve 587 için starttls",
  probe_auth:
    "{what} {host}:{port}, {user} oturumunu reddetti; .env içinde EMAIL_USERNAME ve EMAIL_PASSWORD değerlerine bakın",
  probe_folder: "IMAP {host}:{port} üzerinde '{folder}' klasörü yok ([email] folder)",
  probe_other: "{what} {host}:{port} başarısız: {detail}",
  probe_timeout: "{seconds} sn içinde yanıt yok",
});
