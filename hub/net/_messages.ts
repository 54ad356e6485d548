import { catalogue } from "../i18n.ts";

/** Sentences the network node throws at the owner. */
export const t = catalogue({
  own_address: "{address} is this agent's own address.",
  no_pending: "There is no pending request from {address}.",
  too_long: "The message is longer than 8000 characters.",
  empty: "The message is empty.",
  not_accepted: "{address} is not an accepted contact.",
  bad_address: "'{address}' is not an agent address.",
}, {
  own_address: "{address} bu ajanın kendi adresi.",
  no_pending: "{address} adresinden bekleyen bir istek yok.",
  too_long: "Mesaj 8000 karakterden uzun.",
  empty: "Mesaj boş.",
  not_accepted: "{address} kabul edilmiş bir kişi değil.",
  bad_address: "'{address}' bir ajan adresi değil.",
});

/** A key of the node's sentences. */
export type NetMessageKey = Parameters<typeof t>[1];
