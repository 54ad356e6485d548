/**
 * The messenger's sentences in English and Turkish.
 *
 * @module
 */
import { catalogue } from "../../i18n.ts";

/** Translator for the messenger channel. */
export const t = catalogue({
  not_text:
    "Only text messages reach the agent; a photo with a caption is answered by its caption.",
  approve_once: "Allow once",
  approve_session: "Allow for this session",
  approve_no: "Deny",
  approve_details: "Details",
  approval_expires: "Waiting for your answer until {time} ({span}); no answer means Deny.",
  approval_args: "Arguments in full:",
  asked_by_email: "Asked in one of your e-mails to the agent.",
  decided_once: "Allowed once by {by}:",
  decided_session: "Allowed for this session by {by}:",
  decided_deny: "Denied by {by}, not run:",
  decided_expired: "No answer within {span}, so it was denied and not run:",
  decided_cancelled: "The answer was stopped, so this was not run:",
  by_here: "you here",
  by_elsewhere: "you ({channel})",
  queued_approval: "Queued: I will answer this after the approval above.",
  span_minutes: "{n} minutes",
  span_seconds: "{n} seconds",
  pressed: "Done.",
  gone: "This question is no longer open.",
  contact_request: "{name} ({address}) asks to become a contact:\n“{text}”",
  contact_accept: "Accept",
  contact_block: "Block",
  contact_accepted: "{address} is now a contact.",
  contact_blocked: "{address} is blocked: nothing from it is read or answered.",
  contact_failed: "That did not work: {detail}",
}, {
  not_text:
    "Ajana yalnızca metin mesajları ulaşır; açıklaması olan bir fotoğraf, açıklamasıyla yanıtlanır.",
  approve_once: "Bir kez izin ver",
  approve_session: "Bu oturum için izin ver",
  approve_no: "Reddet",
  approve_details: "Ayrıntılar",
  approval_expires:
    "Yanıtınız {time} saatine kadar bekleniyor ({span}); yanıt gelmezse reddedilir.",
  approval_args: "Bağımsız değişkenlerin tamamı:",
  asked_by_email: "Ajana gönderdiğiniz bir e-postada soruldu.",
  decided_once: "Bir kez izin verildi ({by}):",
  decided_session: "Bu oturum için izin verildi ({by}):",
  decided_deny: "Reddedildi ({by}), çalıştırılmadı:",
  decided_expired: "{span} içinde yanıt gelmedi; reddedildi ve çalıştırılmadı:",
  decided_cancelled: "Yanıt durduruldu; bu çalıştırılmadı:",
  by_here: "siz, burada",
  by_elsewhere: "siz, {channel}",
  queued_approval: "Sıraya alındı: yukarıdaki onaydan sonra yanıtlayacağım.",
  span_minutes: "{n} dakika",
  span_seconds: "{n} saniye",
  pressed: "Tamam.",
  gone: "Bu soru artık açık değil.",
  contact_request: "{name} ({address}) kişi olmak istiyor:\n“{text}”",
  contact_accept: "Kabul et",
  contact_block: "Engelle",
  contact_accepted: "{address} artık bir kişi.",
  contact_blocked: "{address} engellendi: ondan gelen hiçbir şey okunmaz ya da yanıtlanmaz.",
  contact_failed: "Olmadı: {detail}",
});
