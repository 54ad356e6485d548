/**
 * What each tier-2 tool will do, in one sentence for the owner who approves it, and
 * why a file or a page was refused, in one sentence for the model, in English and
 * Turkish. Values from the model are cut to one line with "…" and made printable,
 * since a prompt-injected model chooses them.
 *
 * @module
 */
import { catalogue, type Lang } from "../i18n.ts";
import { oneLine, printable } from "../text.ts";

/** The tools' catalogue. */
export const t = catalogue({
  write_note: "The agent wants to save the note “{name}” ({chars}).",
  append_note: "The agent wants to add {chars} to the note “{name}”.",
  fetch_url: "The agent wants to fetch a page from {host}: {url}.",
  net_send: "The agent wants to send {to} a message: “{text}”.",
}, {
  write_note: "Ajan “{name}” notunu kaydetmek istiyor ({chars}).",
  append_note: "Ajan “{name}” notuna {chars} eklemek istiyor.",
  fetch_url: "Ajan {host} sitesinden bir sayfa getirmek istiyor: {url}.",
  net_send: "Ajan {to} adresine bir mesaj göndermek istiyor: “{text}”.",
});

/** Why a file tool refused a path: `Cannot read notes/x.md: it holds secrets`. */
export const refusals = catalogue({
  refuse_read: "Cannot read {label}: {why}",
  refuse_write: "Cannot write {label}: {why}",
  refuse_append: "Cannot append to {label}: {why}",
  refuse_list: "Cannot list {label}: {why}",
  outside: "it is outside {scope}",
  scope_home: "the agent's home",
  scope_notes: "the notes folder",
  secret: "it holds secrets",
  data: "it is in the agent's data directory",
  symlink: "it is or goes through a symbolic link",
  hardlink: "it has more than one hard link",
  directory: "it is a directory",
  special: "it is not a plain file",
  missing: "there is no such file",
  changed: "it changed while it was being opened",
  denied: "the system does not allow it",
  too_long: "its name is too long",
  failed: "the system could not open it",
}, {
  refuse_read: "{label} okunamıyor: {why}",
  refuse_write: "{label} yazılamıyor: {why}",
  refuse_append: "{label} dosyasına eklenemiyor: {why}",
  refuse_list: "{label} listelenemiyor: {why}",
  outside: "{scope} dışında",
  scope_home: "ajanın ana klasörünün",
  scope_notes: "notlar klasörünün",
  secret: "gizli anahtarlar içeriyor",
  data: "ajanın veri klasöründe",
  symlink: "sembolik bir bağlantı ya da bir bağlantının içinden geçiyor",
  hardlink: "birden çok sabit bağlantısı var",
  directory: "bir klasör",
  special: "düz bir dosya değil",
  missing: "böyle bir dosya yok",
  changed: "açılırken değişti",
  denied: "sistem buna izin vermiyor",
  too_long: "adı çok uzun",
  failed: "sistem onu açamadı",
});

/** Why `fetch_url` did not fetch a page, one sentence for the model. */
export const fetchRefusals = catalogue({
  scheme: "Cannot fetch {url}: only http and https URLs can be fetched",
  not_public:
    "Cannot fetch {url}: {host} is at {address}, {kind} address, and fetch_url reaches public addresses only",
  not_public_ip:
    "Cannot fetch {url}: {address} is {kind} address, and fetch_url reaches public addresses only",
  other_host:
    "Cannot fetch {url}: it redirects to {target}, on another host than the one the owner approved ({approved}); fetch {target} itself to ask the owner",
  too_many: "Cannot fetch {url}: it redirects more than {max} times",
  bad_redirect: "Cannot fetch {url}: it redirects to something that is not an http or https URL",
  no_address: "Cannot fetch {url}: {host} has no address",
  refused: "Cannot fetch {url}: the server refused the connection",
  timeout: "Cannot fetch {url}: no answer within {seconds} seconds",
  tls: "Cannot fetch {url}: the secure connection failed (the certificate does not check out)",
  failed: "Cannot fetch {url}: the connection failed",
  kind_loopback: "a loopback",
  kind_private: "a private",
  kind_link_local: "a link-local",
  kind_cgnat: "a carrier-grade NAT",
  kind_unique_local: "a unique local",
  kind_unspecified: "an unspecified",
  kind_multicast: "a multicast",
  kind_reserved: "a reserved",
  kind_invalid: "a malformed",
  kind_public: "a public",
}, {
  scheme: "{url} getirilemiyor: yalnızca http ve https adresleri getirilebilir",
  not_public:
    "{url} getirilemiyor: {host} {address} adresinde, bu {kind} bir adres ve fetch_url yalnızca herkese açık adreslere ulaşır",
  not_public_ip:
    "{url} getirilemiyor: {address} {kind} bir adres ve fetch_url yalnızca herkese açık adreslere ulaşır",
  other_host:
    "{url} getirilemiyor: sahibin onayladığı sunucudan ({approved}) başka bir sunucuya, {target} adresine yönlendiriyor; sahibine sormak için {target} adresini ayrıca getir",
  too_many: "{url} getirilemiyor: {max} defadan fazla yönlendiriyor",
  bad_redirect: "{url} getirilemiyor: http ya da https olmayan bir adrese yönlendiriyor",
  no_address: "{url} getirilemiyor: {host} için bir adres yok",
  refused: "{url} getirilemiyor: sunucu bağlantıyı reddetti",
  timeout: "{url} getirilemiyor: {seconds} saniye içinde yanıt gelmedi",
  tls: "{url} getirilemiyor: güvenli bağlantı kurulamadı (sertifika doğrulanamadı)",
  failed: "{url} getirilemiyor: bağlantı kurulamadı",
  kind_loopback: "yerel döngü (loopback)",
  kind_private: "özel",
  kind_link_local: "bağlantı-yerel (link-local)",
  kind_cgnat: "operatör NAT'ı (CGNAT)",
  kind_unique_local: "benzersiz yerel (unique local)",
  kind_unspecified: "belirtilmemiş",
  kind_multicast: "çok noktaya yayın (multicast)",
  kind_reserved: "ayrılmış",
  kind_invalid: "bozuk",
  kind_public: "herkese açık",
});

/** An input a tool does not take (a note name, a time zone), one sentence for the model. */
export const inputRefusals = catalogue({
  bad_note_name:
    "Invalid note name: {name} (use letters, digits, spaces, '.', '_' or '-', at most 81 characters)",
  bad_time_zone: "Unknown time zone: {zone}",
}, {
  bad_note_name:
    "Geçersiz not adı: {name} (harf, rakam, boşluk, '.', '_' ya da '-' kullan, en çok 81 karakter)",
  bad_time_zone: "Bilinmeyen saat dilimi: {zone}",
});

/**
 * `n` characters, in words: `1 character`, `5 characters`; `5 karakter`.
 *
 * @example
 * ```ts
 * import { characters } from "./_messages.ts";
 * if (characters("en", 1) !== "1 character" || characters("tr", 2) !== "2 karakter") {
 *   throw new Error();
 * }
 * ```
 */
export function characters(lang: Lang, n: number): string {
  return lang === "tr" ? `${n} karakter` : `${n} character${n === 1 ? "" : "s"}`;
}

/**
 * A value chosen by the model, fit for a sentence: one line, at most `max` characters
 * (cut with "…"), control characters made visible.
 *
 * @example
 * ```ts
 * import { shown } from "./_messages.ts";
 * if (shown("a\nb\x1b", 10) !== "a b\\x1b") throw new Error(shown("a\nb\x1b", 10));
 * if (shown("abcdef", 4) !== "abc…") throw new Error();
 * ```
 */
export function shown(value: unknown, max = 80): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return printable(oneLine(text, { max, ellipsis: true }));
}
