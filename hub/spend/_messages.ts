/**
 * The money area's sentences in English and Turkish. Dollar amounts arrive already
 * formatted by `formatUsd()`, times by `formatTime()`.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** Translator for budgets, spend lines and the doctor's budget check. */
export const t = catalogue({
  budget_spent:
    "The {role} budget is spent (${spent} of ${cap}) and resets at {time}. To raise the cap, change it in agent.toml.",
  budget_spent_stand_in:
    "The {role} budget is spent until {time}, and {stand_in}, which stands in for it, is spent too until {stand_in_time}.",
  degrade_notice: "({role} budget spent until {time}; {stand_in} answered.)",
  span_today: "today",
  span_this_week: "this week",
  span_this_month: "this month",
  line_budget: "{role} {provider} ${spent} of ${cap} {span}, resets {time}",
  line_no_budget: "{role} {provider} ${spent} this month, no budget",
  line_unmetered: "{role} {provider} no budget (its calls are not counted)",
  suffix_spent: " · SPENT",
  suffix_degrade: ", {stand_in} answers instead",
  suffix_unpriced_one: " · 1 call without a price for {model}",
  suffix_unpriced: " · {n} calls without a price for {model}",
  suffix_estimated_one: " · 1 call estimated (no usage came back)",
  suffix_estimated: " · {n} calls estimated (no usage came back)",
  status_item: "{role} ${spent} of ${cap} {span} (resets {time})",
  status_line: "Budget: {items}",
  status_unknown: "Budget: unknown.",
  ledger_unreadable: "cannot read the spend ledger {file}: {detail}",
  ledger_create: "Cannot create the spend ledger {file}: {detail}",
  ledger_open: "Cannot open the spend ledger {file}: {detail}",
  ledger_read: "Cannot read the spend ledger {file}: {detail}",
  ledger_write: "Cannot write the spend ledger {file}: {detail}",
  ledger_use: "Cannot use the spend ledger {file}: {detail}",
  ledger_read_only:
    "The spend ledger {file} cannot be written (permission denied): budgets are checked, but these calls are not counted.",
  warn_line:
    "Budget warning: {role} has spent ${spent} of ${cap} {span} ({percent}%); it resets {time}.",
  warn_spent_line:
    "Budget spent: {role} has spent ${spent} of ${cap} {span} ({percent}%); it is not called until {time}.",
  doctor_spent:
    "{role} has spent ${spent} of ${cap} {span} ({percent}%) and is not called until {time}{stand_in}",
  doctor_stand_in: "; {stand_in} answers instead",
  doctor_fake_price:
    "{role}'s fake model {model} has a price but reports 0 tokens: set params.usage (for example { input = 1000, output = 200 }) to spend",
  doctor_near: "{role} has spent ${spent} of ${cap} {span} ({percent}%); it resets {time}",
  forecast_line: "Forecast: {items}",
  forecast_reaches: "{role} reaches ${cap} around {time} (${pace}/day)",
  forecast_not_this: "{role} not this period (${projected} of ${cap} by {time} at ${pace}/day)",
  forecast_reached: "{role} reached its ${cap} cap",
  forecast_none: "Forecast: no role has a budget.",
  by_title: "Spend by {by}, {span} ({since} to {until}){role}:",
  by_role: ", role {role}",
  by_empty: "  nothing spent",
  by_total: "total",
  by_calls_one: "1 call",
  by_calls: "{n} calls",
  by_tokens: "{input} in / {output} out tokens",
  by_estimated: ", {n} estimated",
  by_channel: "channel",
  by_contact: "contact",
  by_session: "session",
  by_purpose: "purpose",
  by_job: "job",
  by_day: "day",
  by_no_session: "(no session)",
}, {
  budget_spent:
    "{role} bütçesi tükendi (${cap} sınırından ${spent} harcandı) ve {time} itibarıyla yenilenir. Sınırı yükseltmek için agent.toml dosyasında değiştirin.",
  budget_spent_stand_in:
    "{role} bütçesi {time} saatine kadar tükendi; onun yerine geçen {stand_in} de {stand_in_time} saatine kadar tükendi.",
  degrade_notice: "({role} bütçesi {time} saatine kadar tükendi; {stand_in} yanıtladı.)",
  span_today: "bugün",
  span_this_week: "bu hafta",
  span_this_month: "bu ay",
  line_budget: "{role} {provider} ${spent} / ${cap} {span}, yenilenme {time}",
  line_no_budget: "{role} {provider} ${spent} bu ay, bütçe yok",
  line_unmetered: "{role} {provider} bütçe yok (çağrıları sayılmaz)",
  suffix_spent: " · TÜKENDİ",
  suffix_degrade: ", yerine {stand_in} yanıtlar",
  suffix_unpriced_one: " · {model} için fiyatı olmayan 1 çağrı",
  suffix_unpriced: " · {model} için fiyatı olmayan {n} çağrı",
  suffix_estimated_one: " · 1 çağrı tahmini (kullanım bilgisi gelmedi)",
  suffix_estimated: " · {n} çağrı tahmini (kullanım bilgisi gelmedi)",
  status_item: "{role} ${spent} / ${cap} {span} (yenilenme {time})",
  status_line: "Bütçe: {items}",
  status_unknown: "Bütçe: bilinmiyor.",
  ledger_unreadable: "harcama defteri {file} okunamıyor: {detail}",
  ledger_create: "Harcama defteri {file} oluşturulamıyor: {detail}",
  ledger_open: "Harcama defteri {file} açılamıyor: {detail}",
  ledger_read: "Harcama defteri {file} okunamıyor: {detail}",
  ledger_write: "Harcama defterine {file} yazılamıyor: {detail}",
  ledger_use: "Harcama defteri {file} kullanılamıyor: {detail}",
  ledger_read_only:
    "Harcama defterine {file} yazılamıyor (izin yok): bütçeler denetlenir ama bu çağrılar sayılmaz.",
  warn_line:
    "Bütçe uyarısı: {role} {span} ${cap} sınırının ${spent} kadarını harcadı (%{percent}); yenilenme {time}.",
  warn_spent_line:
    "Bütçe tükendi: {role} {span} ${cap} sınırının ${spent} kadarını harcadı (%{percent}); {time} saatine kadar çağrılmaz.",
  doctor_spent:
    "{role} {span} ${cap} sınırının ${spent} kadarını harcadı (%{percent}) ve {time} saatine kadar çağrılmaz{stand_in}",
  doctor_stand_in: "; yerine {stand_in} yanıtlar",
  doctor_fake_price:
    "{role} rolünün sahte modeli {model} fiyatlı ama 0 belirteç bildirir: harcaması için params.usage ayarlayın (örneğin { input = 1000, output = 200 })",
  doctor_near:
    "{role} {span} ${cap} sınırının ${spent} kadarını harcadı (%{percent}); yenilenme {time}",
  forecast_line: "Tahmin: {items}",
  forecast_reaches: "{role} ${cap} sınırına yaklaşık {time} tarihinde ulaşır (günde ${pace})",
  forecast_not_this:
    "{role} bu dönem ulaşmaz ({time} itibarıyla ${cap} sınırından ${projected}, günde ${pace})",
  forecast_reached: "{role} ${cap} sınırına ulaştı",
  forecast_none: "Tahmin: hiçbir rolün bütçesi yok.",
  by_title: "{by} başına harcama, {span} ({since} - {until}){role}:",
  by_role: ", rol {role}",
  by_empty: "  harcama yok",
  by_total: "toplam",
  by_calls_one: "1 çağrı",
  by_calls: "{n} çağrı",
  by_tokens: "{input} giriş / {output} çıkış belirteci",
  by_estimated: ", {n} tahmini",
  by_channel: "Kanal",
  by_contact: "Kişi",
  by_session: "Oturum",
  by_purpose: "Amaç",
  by_job: "Görev",
  by_day: "Gün",
  by_no_session: "(oturumsuz)",
});
