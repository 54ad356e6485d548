/**
 * The page's sentences in English and Turkish, and its dates: DD.MM.YYYY HH:MM in
 * Europe/Istanbul, as everywhere else in the agent.
 *
 * @module
 */
import { EN_PAGES, TR_PAGES } from "./i18n_pages.ts";
import { EN_MCP, TR_MCP } from "./i18n_mcp.ts";
import { EN_MEMORY, TR_MEMORY } from "./i18n_memory.ts";
import { EN_STATUS, TR_STATUS } from "./i18n_status.ts";
import { EN_SPEND, TR_SPEND } from "./i18n_spend.ts";
import {
  formatCount,
  formatUsd,
  formatUsdAll,
  formatUsdColumn,
  formatUsdFixed,
  withSeparators,
} from "../../spend/usd_format.ts";

const EN = {
  ...EN_PAGES,
  ...EN_MCP,
  ...EN_MEMORY,
  ...EN_STATUS,
  ...EN_SPEND,
  nav_settings: "Settings",
  settings_note: "Saved into {file}; the hub uses the new values after it restarts.",
  settings_saved_role: "{role} saved.",
  settings_unchanged: "Nothing changed.",
  provider: "Provider",
  model: "Model",
  budget_usd: "Budget (USD)",
  save: "Save",
  secrets: "Credentials",
  set: "set",
  not_set: "not set",
  nav_network: "Network",
  own_card: "Your card",
  spine_silent: "the spine does not answer now",
  contacts: "Contacts",
  no_contacts: "No contacts yet.",
  contact: "Contact",
  state: "State",
  messages: "Messages in / out",
  note: "Note",
  updated: "Updated",
  actions: "Actions",
  accept: "Accept",
  block: "Block",
  unblock: "Unblock",
  state_pending_in: "asks to connect",
  state_pending_out: "asked, waiting",
  state_accepted: "contact",
  state_blocked: "blocked",
  title: "agent dashboard",
  nav_overview: "Overview",
  nav_spend: "Spend",
  nav_conversations: "Conversations",
  nav_approvals: "Approvals",
  nav_label: "Pages",
  lang_label: "Language",
  theme_label: "Theme",
  theme_auto: "Auto",
  theme_light: "Light",
  theme_dark: "Dark",
  sign_out: "Sign out",
  login_missing: "Open the dashboard with `agent dashboard`: it signs this browser in.",
  login_used:
    "This sign-in link was already used or has expired (links work once, for 60 seconds). Run `agent dashboard` again.",
  login_failed: "The hub did not answer. Is it running? Start it with `agent hub run`.",
  loading: "Loading…",
  error: "Something went wrong: {detail}",
  hub: "Hub",
  hub_line: "pid {pid}, version {version}, up since {since}",
  heartbeat: "Last heartbeat {time}",
  channels: "Channels",
  messenger: "Messenger",
  messenger_off: "not configured",
  messenger_line: "{state} ({mode}), last update {time}",
  email: "E-mail",
  email_line: "{state} ({mode}) as {address}, last mail {time}",
  email_connected: "connected",
  email_connecting: "connecting",
  email_reconnecting: "not connected, trying again",
  email_stopped: "stopped",
  last_error: "Last error: {error}",
  network: "Network",
  net_off: "not configured",
  net_line: "{state}, {address}",
  universe_joined: "Universe: listed on {host}",
  universe_not_joined: "Universe: not listed on {host} (join on the Network page)",
  budgets: "Budgets",
  no_budget: "{role}: ${spent} spent, no budget",
  gauge: "{role}: ${spent} of ${cap} {period}",
  resets: "resets {time}",
  forecast: "at this pace ${projected} by the reset",
  reaches: "reaches the cap {time}",
  spent_label: "SPENT",
  stand_in: "{stand_in} answers instead",
  events: "Latest events",
  no_events: "No events yet.",
  live: "live",
  period: "Period",
  period_day: "today",
  period_week: "this week",
  period_month: "this month",
  spend_title: "Spend {period}: ${total} in {calls} calls",
  by_day: "By day and role",
  cumulative: "Spent so far against the cap",
  by_channel: "By channel",
  by_contact: "By contact",
  by_session: "By session",
  download: "Download CSV",
  col_day: "Day",
  col_key: "Name",
  col_usd: "Dollars",
  col_calls: "Calls",
  col_tokens: "Tokens in / out",
  nothing: "Nothing spent in this period.",
  cap: "cap",
  spent_series: "spent",
  forecast_series: "forecast",
  total: "Total",
  search: "Search sessions",
  sessions: "Sessions",
  no_sessions: "No sessions yet.",
  new_chat: "New conversation",
  send: "Send",
  cancel: "Cancel",
  message_label: "Message",
  queued: "{n} queued",
  queued_line: "queued: answered after the current answer",
  skip_to_content: "Skip to content",
  hub_unreachable: "The hub is not reachable: is it running? Nothing was changed.",
  send_unreachable:
    "The hub is not reachable, so the message was not sent: it is back in the box. Start the hub (agent hub run) and send it again.",
  answer_meta: "{model} · {input} in / {output} out · ${usd}",
  approval: "Approval needed",
  allow_once: "Allow once",
  allow_session: "Allow for this session",
  deny: "Deny",
  decided: "Decided: {decision}",
  approval_keys: "Alt+Shift+Y allows once, Alt+Shift+N denies.",
  approval_live: "Approval needed: {message} {keys}",
  waiting_decision: "waiting for your decision",
  no_approvals: "Nothing waits for a decision.",
  approvals_title: "Pending approvals",
  from_channel: "from {channel}",
  you: "You",
  assistant: "Agent",
  cancelled: "cancelled",
  busy: "answering…",
};

type Key = keyof typeof EN;

const TR: Record<Key, string> = {
  ...TR_PAGES,
  ...TR_MCP,
  ...TR_MEMORY,
  ...TR_STATUS,
  ...TR_SPEND,
  nav_settings: "Ayarlar",
  settings_note:
    "{file} dosyasına kaydedilir; hub yeni değerleri yeniden başladıktan sonra kullanır.",
  settings_saved_role: "{role} kaydedildi.",
  settings_unchanged: "Hiçbir şey değişmedi.",
  provider: "Sağlayıcı",
  model: "Model",
  budget_usd: "Bütçe (USD)",
  save: "Kaydet",
  secrets: "Kimlik bilgileri",
  set: "ayarlı",
  not_set: "ayarlı değil",
  nav_network: "Ağ",
  own_card: "Kartınız",
  spine_silent: "omurga şu an yanıt vermiyor",
  contacts: "Kişiler",
  no_contacts: "Henüz kişi yok.",
  contact: "Kişi",
  state: "Durum",
  messages: "Gelen / giden mesaj",
  note: "Not",
  updated: "Güncellendi",
  actions: "İşlemler",
  accept: "Kabul et",
  block: "Engelle",
  unblock: "Engeli kaldır",
  state_pending_in: "bağlanmak istiyor",
  state_pending_out: "istendi, bekleniyor",
  state_accepted: "kişi",
  state_blocked: "engelli",
  title: "agent paneli",
  nav_overview: "Genel bakış",
  nav_spend: "Harcama",
  nav_conversations: "Konuşmalar",
  nav_approvals: "Onaylar",
  nav_label: "Sayfalar",
  lang_label: "Dil",
  theme_label: "Tema",
  theme_auto: "Otomatik",
  theme_light: "Açık",
  theme_dark: "Koyu",
  sign_out: "Çıkış",
  login_missing: "Paneli `agent dashboard` ile açın: bu tarayıcıda oturumu o açar.",
  login_used:
    "Bu giriş bağlantısı zaten kullanıldı ya da süresi doldu (bağlantılar bir kez, 60 saniye çalışır). `agent dashboard` komutunu yeniden çalıştırın.",
  login_failed: "Hub yanıt vermedi. Çalışıyor mu? `agent hub run` ile başlatın.",
  loading: "Yükleniyor…",
  error: "Bir şeyler ters gitti: {detail}",
  hub: "Hub",
  hub_line: "pid {pid}, sürüm {version}, {since} tarihinden beri çalışıyor",
  heartbeat: "Son sinyal {time}",
  channels: "Kanallar",
  messenger: "Mesajlaşma",
  messenger_off: "yapılandırılmadı",
  messenger_line: "{state} ({mode}), son güncelleme {time}",
  email: "E-posta",
  email_line: "{state} ({mode}), {address} olarak, son posta {time}",
  email_connected: "bağlı",
  email_connecting: "bağlanıyor",
  email_reconnecting: "bağlı değil, yeniden deneniyor",
  email_stopped: "durdu",
  last_error: "Son hata: {error}",
  network: "Ağ",
  net_off: "yapılandırılmadı",
  net_line: "{state}, {address}",
  universe_joined: "Evren: {host} üzerinde listeleniyor",
  universe_not_joined: "Evren: {host} üzerinde listelenmiyor (Ağ sayfasından katılın)",
  budgets: "Bütçeler",
  no_budget: "{role}: ${spent} harcandı, bütçe yok",
  gauge: "{role}: ${cap} bütçenin ${spent} kadarı ({period})",
  resets: "{time} sıfırlanır",
  forecast: "bu hızla sıfırlamaya kadar ${projected}",
  reaches: "{time} sınıra ulaşır",
  spent_label: "TÜKENDİ",
  stand_in: "yerine {stand_in} yanıtlıyor",
  events: "Son olaylar",
  no_events: "Henüz olay yok.",
  live: "canlı",
  period: "Dönem",
  period_day: "bugün",
  period_week: "bu hafta",
  period_month: "bu ay",
  spend_title: "Harcama ({period}): {calls} çağrıda ${total}",
  by_day: "Güne ve role göre",
  cumulative: "Sınıra karşı şimdiye kadar harcanan",
  by_channel: "Kanala göre",
  by_contact: "Kişiye göre",
  by_session: "Oturuma göre",
  download: "CSV indir",
  col_day: "Gün",
  col_key: "Ad",
  col_usd: "Dolar",
  col_calls: "Çağrı",
  col_tokens: "Belirteç giriş / çıkış",
  nothing: "Bu dönemde harcama yok.",
  cap: "sınır",
  spent_series: "harcanan",
  forecast_series: "tahmin",
  total: "Toplam",
  search: "Oturumlarda ara",
  sessions: "Oturumlar",
  no_sessions: "Henüz oturum yok.",
  new_chat: "Yeni konuşma",
  send: "Gönder",
  cancel: "İptal",
  message_label: "Mesaj",
  queued: "{n} sırada",
  queued_line: "sırada: şu anki yanıttan sonra yanıtlanacak",
  skip_to_content: "İçeriğe geç",
  hub_unreachable: "Hub'a ulaşılamıyor: çalışıyor mu? Hiçbir şey değişmedi.",
  send_unreachable:
    "Hub'a ulaşılamıyor, bu yüzden mesaj gönderilmedi: yeniden kutuda. Hub'ı başlatın (agent hub run) ve yeniden gönderin.",
  answer_meta: "{model} · {input} giriş / {output} çıkış · ${usd}",
  approval: "Onay gerekiyor",
  allow_once: "Bir kez izin ver",
  allow_session: "Bu oturum için izin ver",
  deny: "Reddet",
  decided: "Karar: {decision}",
  approval_keys: "Alt+Shift+Y bir kez izin verir, Alt+Shift+N reddeder.",
  approval_live: "Onay gerekiyor: {message} {keys}",
  waiting_decision: "kararınızı bekliyor",
  no_approvals: "Karar bekleyen bir şey yok.",
  approvals_title: "Bekleyen onaylar",
  from_channel: "{channel} kanalından",
  you: "Siz",
  assistant: "Ajan",
  cancelled: "iptal edildi",
  busy: "yanıtlıyor…",
};

let current: "en" | "tr" = "en";

/** Sets the page's language. */
export function setLang(lang: string): void {
  current = lang === "tr" ? "tr" : "en";
  document.documentElement.lang = current;
}

/** The page's language. */
export function lang(): "en" | "tr" {
  return current;
}

/** A sentence with `{name}` filled in. */
export function t(key: Key, values: Record<string, string | number> = {}): string {
  const text = (current === "tr" ? TR : EN)[key];
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ""));
}

/** DD.MM.YYYY HH:MM in Europe/Istanbul; `-` for nothing. */
export function time(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === "") return "-";
  const ms = typeof value === "number" ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return "-";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Istanbul",
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(ms).map((p) => [p.type, p.value]),
  );
  return `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute}`;
}

/** HH:MM in Europe/Istanbul (a moment within the next hours); `-` for nothing. */
export function clock(value: string | number | null | undefined): string {
  return time(value).split(" ")[1] ?? "-";
}

/** A `YYYY-MM-DD` day as DD.MM. */
export function shortDay(day: string): string {
  const [, m, d] = day.split("-");
  return `${d}.${m}`;
}

/** Dollars as the CLI shows them, without the `$`, in the page's language: `formatUsd()`. */
export function usd(value: number): string {
  return formatUsd(value, current);
}

/** Amounts a sentence compares, in the page's language: `formatUsdAll()`. */
export function usdAll<const T extends readonly number[]>(
  values: T,
): { -readonly [K in keyof T]: string } {
  return formatUsdAll(values, current);
}

/** A column of amounts that adds up to its total, in the page's language: `formatUsdColumn()`. */
export function usdColumn(
  values: readonly number[],
  total: number,
): { parts: string[]; total: string; decimals: number } {
  return formatUsdColumn(values, total, current);
}

/** Dollars with `decimals` decimals (a table's shared number), in the page's language. */
export function usdFixed(value: number, decimals: number): string {
  return formatUsdFixed(value, { decimals, lang: current });
}

/** A number written with a decimal point (a chart axis's step), in the page's language. */
export function decimal(text: string): string {
  return withSeparators(text, current);
}

/** A count with thousands grouped as the page's language groups them: `formatCount()`. */
export function count(value: number): string {
  return formatCount(value, current);
}
