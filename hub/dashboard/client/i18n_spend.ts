/**
 * The Spend page's sentences (its breakdowns cut to the top ten, sortable tables, one
 * line per role against its own cap, today by hour, the period before) and the chat's
 * estimated-cost mark, in English and Turkish; `i18n.ts` merges them.
 *
 * @module
 */

/** English. */
export const EN_SPEND = {
  by_hour: "Today by hour and role",
  col_hour: "Hour",
  cumulative_roles: "Spent so far, each role against its own cap",
  cumulative_today: "Spent today by hour, each role against its own cap",
  other_rows: "Other ({n})",
  table_rows: "Table ({n} rows)",
  table_row_one: "Table (1 row)",
  show_all: "Show all {n} rows",
  show_top: "Show the top {n}",
  sort_by: "Sort by {column}",
  previous_day: "Yesterday: ${usd} in {calls} calls.",
  previous_week: "Last week: ${usd} in {calls} calls.",
  previous_month: "Last month: ${usd} in {calls} calls.",
  series_spent: "{role} spent",
  series_forecast: "{role} forecast",
  series_cap: "{role} cap",
  cap_other_period: "its cap is per {budget_period}",
  estimated_mark: "≈ includes estimated calls: the provider never reported their tokens.",
  estimated_title: "{n} of these calls were estimated: the provider never reported their tokens.",
  answer_estimated: "estimated",
  budget_period_day: "day",
  budget_period_week: "week",
  budget_period_month: "month",
  chart_alt:
    "{title}: {n} bars, ${total} in all; the highest is {top} at ${usd}. The table below lists every value.",
  chart_alt_lines: "{title}: {lines}. Each role's line against its cap is written below.",
};

/** Turkish. */
export const TR_SPEND: Record<keyof typeof EN_SPEND, string> = {
  by_hour: "Bugün saate ve role göre",
  col_hour: "Saat",
  cumulative_roles: "Şimdiye kadar harcanan, her rol kendi sınırına karşı",
  cumulative_today: "Bugün saat saat harcanan, her rol kendi sınırına karşı",
  other_rows: "Diğer ({n})",
  table_rows: "Tablo ({n} satır)",
  table_row_one: "Tablo (1 satır)",
  show_all: "{n} satırın hepsini göster",
  show_top: "İlk {n} satırı göster",
  sort_by: "{column} sütununa göre sırala",
  previous_day: "Dün: {calls} çağrıda ${usd}.",
  previous_week: "Geçen hafta: {calls} çağrıda ${usd}.",
  previous_month: "Geçen ay: {calls} çağrıda ${usd}.",
  series_spent: "{role} harcanan",
  series_forecast: "{role} tahmini",
  series_cap: "{role} sınırı",
  cap_other_period: "sınırı {budget_period} başına",
  estimated_mark: "≈ tahmini çağrılar içerir: sağlayıcı belirteçlerini hiç bildirmedi.",
  estimated_title: "Bu çağrıların {n} tanesi tahmini: sağlayıcı belirteçlerini hiç bildirmedi.",
  answer_estimated: "tahmini",
  budget_period_day: "gün",
  budget_period_week: "hafta",
  budget_period_month: "ay",
  chart_alt:
    "{title}: {n} çubuk, toplam ${total}; en yükseği ${usd} ile {top}. Aşağıdaki tablo her değeri listeler.",
  chart_alt_lines: "{title}: {lines}. Her rolün sınırına karşı satırı aşağıda yazılı.",
};
