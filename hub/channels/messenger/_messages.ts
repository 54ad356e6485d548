/**
 * The messenger's sentences in English and Turkish.
 *
 * @module
 */
import { catalogue } from "../../i18n.ts";

/** Translator for the messenger channel. */
export const t = catalogue({
  not_text: "Only text messages reach the agent.",
  approve_yes: "Approve",
  approve_no: "Deny",
  approved: "Approved: {tool} runs.",
  denied: "Denied: {tool} does not run.",
  expired: "No answer within {span}: {tool} was denied.",
  span_minutes: "{n} minutes",
  span_seconds: "{n} seconds",
  pressed: "Done.",
  gone: "This question is no longer open.",
  contact_request: "{name} ({address}) asks to become a contact:\n{text}",
  contact_accept: "Accept",
  contact_block: "Block",
  contact_accepted: "{address} is now a contact.",
  contact_blocked: "{address} is blocked: nothing from it is read or answered.",
  contact_failed: "That did not work: {detail}",
}, {
  not_text: "Ajana yalnızca metin mesajları ulaşır.",
  approve_yes: "Onayla",
  approve_no: "Reddet",
  approved: "Onaylandı: {tool} çalışıyor.",
  denied: "Reddedildi: {tool} çalışmıyor.",
  expired: "{span} içinde yanıt gelmedi: {tool} reddedildi.",
  span_minutes: "{n} dakika",
  span_seconds: "{n} saniye",
  pressed: "Tamam.",
  gone: "Bu soru artık açık değil.",
  contact_request: "{name} ({address}) kişi olmak istiyor:\n{text}",
  contact_accept: "Kabul et",
  contact_block: "Engelle",
  contact_accepted: "{address} artık bir kişi.",
  contact_blocked: "{address} engellendi: ondan gelen hiçbir şey okunmaz ya da yanıtlanmaz.",
  contact_failed: "Olmadı: {detail}",
});
