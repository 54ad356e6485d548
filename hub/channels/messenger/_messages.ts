/**
 * The messenger's sentences in English and Turkish.
 *
 * @module
 */
import { catalogue } from "../../i18n.ts";

/** Translator for the messenger channel. */
export const t = catalogue({
  cmd_start: "what this is",
  cmd_new: "start a new conversation",
  cmd_resume: "list conversations, or /resume ID to go back to one",
  cmd_model: "list roles, or /model ROLE to switch",
  cmd_status: "session, role and budget",
  cmd_help: "the commands",
  start:
    "This is your agent, running on your own machine or cloud account. Write to it here as in a terminal chat: it answers with the role it is set to, within your budgets. /help lists the commands.",
  help:
    "/new starts a new conversation; /resume lists them (/resume ID goes back); /model lists roles (/model ROLE switches); /status shows the session, role and budget. Keys are set on the machine, not here.",
  new_session: "New conversation {session}.",
  settings_here:
    "Keys are set on the machine, not through the messenger: run `agent tui` or `agent chat` there and use /settings, or edit {file}.",
  unknown_command: "Unknown command {command}; /help lists the commands.",
  not_text: "Only text messages reach the agent.",
  approve_ask: "The agent wants to run the tool {tool}:\n{description}\nInput: {args}",
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
  budget_spent_event: "The {role} budget is spent (${spent} of ${cap}); it resets {time}.",
  outbox_dropped:
    "A message to {address} could not be delivered in 24 hours and was dropped: {text}",
}, {
  cmd_start: "bu nedir",
  cmd_new: "yeni bir konuşma başlatır",
  cmd_resume: "konuşmaları listeler ya da /resume ID ile birine döner",
  cmd_model: "rolleri listeler ya da /model ROL ile değiştirir",
  cmd_status: "oturum, rol ve bütçe",
  cmd_help: "komutlar",
  start:
    "Bu, kendi makinenizde ya da bulut hesabınızda çalışan ajanınız. Ona burada terminaldeki gibi yazın: ayarlı rolle, bütçeleriniz içinde yanıtlar. /help komutları listeler.",
  help:
    "/new yeni bir konuşma başlatır; /resume konuşmaları listeler (/resume ID geri döner); /model rolleri listeler (/model ROL değiştirir); /status oturumu, rolü ve bütçeyi gösterir. Anahtarlar burada değil, makinede ayarlanır.",
  new_session: "Yeni konuşma {session}.",
  settings_here:
    "Anahtarlar mesajlaşma üzerinden değil, makinede ayarlanır: orada `agent tui` ya da `agent chat` çalıştırıp /settings kullanın ya da {file} dosyasını düzenleyin.",
  unknown_command: "Bilinmeyen komut {command}; /help komutları listeler.",
  not_text: "Ajana yalnızca metin mesajları ulaşır.",
  approve_ask: "Ajan {tool} aracını çalıştırmak istiyor:\n{description}\nGirdi: {args}",
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
  budget_spent_event: "{role} bütçesi tükendi (${cap} sınırından ${spent}); yenilenme {time}.",
  outbox_dropped: "{address} adresine bir mesaj 24 saatte teslim edilemedi ve bırakıldı: {text}",
});
