import { catalogue, type Translator } from "../i18n.ts";

/** The network node's sentences in English: the catalogue every language follows. */
export const EN = {
  own_address: "{address} is this agent's own address.",
  no_pending: "There is no pending request from {address}.",
  too_long: "The message is longer than {max} characters.",
  empty: "The message is empty.",
  not_accepted: "{address} is not an accepted contact.",
  not_accepted_yet:
    "{address} has not accepted your contact request yet; send again once they have.",
  removed_by_peer:
    "{address} removed you as a contact; `agent net add {address}` sends a new request.",
  bad_address: "'{address}' is not an agent address.",
  missing_spine_url: "AGENT_SPINE_URL",
  missing_spine_token: "AGENT_SPINE_TOKEN",
  missing_https_spine_url: "an https AGENT_SPINE_URL (http is for localhost and 127.0.0.1 only)",
  missing_identity: "an identity (run `agent net init`)",
  not_configured: "not configured: missing {missing}",
} as const;

/** Sentences the network node throws at the owner. */
export const t: Translator<NetMessageKey> = catalogue(EN, {
  own_address: "{address} bu ajanın kendi adresi.",
  no_pending: "{address} adresinden bekleyen bir istek yok.",
  too_long: "Mesaj {max} karakterden uzun.",
  empty: "Mesaj boş.",
  not_accepted: "{address} kabul edilmiş bir kişi değil.",
  not_accepted_yet:
    "{address} kişi isteğinizi henüz kabul etmedi; kabul ettiğinde yeniden gönderin.",
  removed_by_peer:
    "{address} sizi kişilerinden çıkardı; `agent net add {address}` yeni bir istek gönderir.",
  bad_address: "'{address}' bir ajan adresi değil.",
  missing_spine_url: "AGENT_SPINE_URL",
  missing_spine_token: "AGENT_SPINE_TOKEN",
  missing_https_spine_url:
    "https ile başlayan bir AGENT_SPINE_URL (http yalnızca localhost ve 127.0.0.1 için)",
  missing_identity: "bir ağ kimliği (`agent net init` çalıştırın)",
  not_configured: "yapılandırılmamış: {missing} eksik",
});

/** A key of the node's sentences. */
export type NetMessageKey = keyof typeof EN;
