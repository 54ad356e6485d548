/**
 * The sentences of the overview's states and events, the approvals page and its
 * navigation badge, the sign-in messages and the session search, in English and
 * Turkish (kept apart from `i18n.ts`, which merges them, so neither file grows past
 * reading).
 *
 * @module
 */

/** English. */
export const EN_STATUS = {
  no_matches: "No session matches “{q}”.",
  ev_contact_request: "Contact request",
  ev_outbox_dropped: "Not delivered",
  ev_digest: "Network digest",
  ev_failover: "Model",
  ev_job: "Job",
  ev_contact_request_line: "{name} ({address}) asks to become a contact: “{text}”",
  ev_outbox_dropped_line:
    "A message to {address} could not be delivered in 24 hours and was dropped: {text}",
  ev_digest_one: "Your agent answered 1 conversation with other agents.",
  ev_digest_many: "Your agent answered {n} conversations with other agents.",
  ev_open_network: "Network page",
  ev_accepted: "{name} is now a contact.",
  net_listening: "listening on the doorbell",
  net_polling: "long-polling",
  net_idle: "idle",
  net_failed: "failed",
  doorbell_one: "Doorbell: {setting}, 1 ring",
  doorbell_many: "Doorbell: {setting}, {rings} rings",
  expires_at: "expires at {time}",
  open_conversation: "Open the conversation",
  approvals_pending: "{n} waiting for a decision",
};

/** Turkish. */
export const TR_STATUS: Record<keyof typeof EN_STATUS, string> = {
  no_matches: "“{q}” ile eşleşen oturum yok.",
  ev_contact_request: "Kişi isteği",
  ev_outbox_dropped: "Teslim edilemedi",
  ev_digest: "Ağ özeti",
  ev_failover: "Model",
  ev_job: "Görev",
  ev_contact_request_line: "{name} ({address}) kişi olmak istiyor: “{text}”",
  ev_outbox_dropped_line:
    "{address} adresine bir mesaj 24 saatte teslim edilemedi ve bırakıldı: {text}",
  ev_digest_one: "Ajanınız diğer ajanlarla 1 konuşmayı yanıtladı.",
  ev_digest_many: "Ajanınız diğer ajanlarla {n} konuşmayı yanıtladı.",
  ev_open_network: "Ağ sayfası",
  ev_accepted: "{name} artık bir kişi.",
  net_listening: "kapı zili dinleniyor",
  net_polling: "uzun yoklama",
  net_idle: "boşta",
  net_failed: "başarısız",
  doorbell_one: "Kapı zili: {setting}, 1 çalma",
  doorbell_many: "Kapı zili: {setting}, {rings} çalma",
  expires_at: "{time} saatinde süresi dolar",
  open_conversation: "Konuşmayı aç",
  approvals_pending: "{n} karar bekliyor",
};
