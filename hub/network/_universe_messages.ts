/**
 * The sentences of the universe actions (join, leave and their failures), in English
 * and Turkish: what `agent net universe` prints and the dashboard's Network page says.
 *
 * @module
 */
import { catalogue, type Translator } from "../i18n.ts";

/** The key of a universe sentence. */
export type UniverseSentenceKey =
  | "off"
  | "too_long"
  | "joined"
  | "left"
  | "failed"
  | "unreachable"
  | "not_https"
  | "scheme_in_host"
  | "own_spine";

/** The universe actions' catalogue. */
export const t: Translator<UniverseSentenceKey> = catalogue({
  off: "The universe is off: [net] universe in agent.toml is empty.",
  too_long: "--{option} has more than {max} characters.",
  joined: "{address} is listed in {host} ({links} visible link(s)): {url}",
  left: "{address} left {host}; the hub no longer reports to it.",
  failed: "The universe {host} refused: {detail}.",
  unreachable:
    "The universe {host} does not answer ({detail}); check [net] universe in agent.toml and the connection.",
  not_https:
    "The universe {host} answered in plain http, not https; an http universe works only on localhost or 127.0.0.1, with AGENT_NET_ALLOW_INSECURE=1 in .env.",
  scheme_in_host:
    '[net] universe is a host, not a URL: write universe = "{bare}" in agent.toml (https is used; http only on localhost or 127.0.0.1 with AGENT_NET_ALLOW_INSECURE=1).',
  own_spine:
    "Your own spine {url} does not answer ({detail}), so the universe {host} was not asked; start the spine, or check AGENT_SPINE_URL in .env.",
}, {
  off: "Evren kapalı: agent.toml içindeki [net] universe boş.",
  too_long: "--{option} {max} karakterden uzun.",
  joined: "{address}, {host} içinde listeleniyor ({links} görünür bağlantı): {url}",
  left: "{address}, {host} evreninden ayrıldı; hub artık bildirmiyor.",
  failed: "{host} evreni reddetti: {detail}.",
  unreachable:
    "{host} evreni yanıt vermiyor ({detail}); agent.toml içindeki [net] universe ayarını ve bağlantıyı denetleyin.",
  not_https:
    "{host} evreni https değil düz http ile yanıt verdi; http bir evren yalnızca localhost ya da 127.0.0.1 üzerinde, .env içinde AGENT_NET_ALLOW_INSECURE=1 ile çalışır.",
  scheme_in_host:
    '[net] universe bir URL değil, bir ana makine adıdır: agent.toml içine universe = "{bare}" yazın (https kullanılır; http yalnızca localhost ya da 127.0.0.1 üzerinde AGENT_NET_ALLOW_INSECURE=1 ile).',
  own_spine:
    "Kendi spine'ınız {url} yanıt vermiyor ({detail}), bu yüzden {host} evrenine sorulmadı; spine'ı başlatın ya da .env içindeki AGENT_SPINE_URL ayarını denetleyin.",
});
