/**
 * What a person reads of the jobs: the lines of `agent jobs list` (and `/jobs` in the
 * TUI, the terminal chat and the messenger) fitted to a width, the lines of `agent jobs
 * log`, and the words for a run's outcome and a pause's reason in the owner's language.
 * The stored values and `--json` keep the English codes; only these lines translate them.
 *
 * @module
 */
import { formatTime, type Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { usd } from "./estimate.ts";
import { answerPreview } from "./preview.ts";
import { reasonIn } from "./reasons.ts";
import type { RunRow } from "./store.ts";
import type { JobListing } from "./manage.ts";

/** The outcomes a run has a word for (`RunState`, and `paused` from `agent jobs run`). */
const STATES = ["ok", "failed", "missed", "refused", "running", "interrupted", "taken", "paused"];
/** The reasons a pause has a word for. */
const REASONS = ["owner", "day", "run", "budget"];

/** A run's outcome code (`ok`, `failed`, ...) as the owner reads it; an unknown one as it is. */
export function stateWord(state: string, lang: Lang): string {
  return STATES.includes(state) ? t(lang, `state_${state}` as "state_ok") : state;
}

/** A pause's reason code (`owner`, `day`, `run`, `budget`) as the owner reads it. */
export function reasonWord(reason: string, lang: Lang): string {
  return REASONS.includes(reason) ? t(lang, `reason_${reason}` as "reason_owner") : reason;
}

/** Options for {@linkcode listLines}. */
export interface ListLinesOptions {
  /** How many columns a line may take (a terminal's width). @default 80 */
  columns?: number | undefined;
}

/** The narrowest a cut name gets in the two-line layout before the four-line one is used. */
const MIN_NAME = 12;

/**
 * The lines of `agent jobs list` (and `/jobs`), a job's none longer than `columns`: two a job
 * (the name, the schedule and a pause; then the figures) when they fit, a long name
 * cut with "…"; four a job on a narrow screen (the name and a pause, the schedule, the
 * next and last run, the spend). Each column is padded to its longest, so they line up.
 */
export function listLines(
  listing: Pick<JobListing, "jobs" | "errors" | "all_paused" | "stale_detail">,
  lang: Lang,
  options: ListLinesOptions = {},
): string[] {
  const columns = Math.max(20, options.columns ?? 80);
  const lines: string[] = [];
  if (listing.stale_detail !== undefined) {
    lines.push(t(lang, "pauses_stale", { detail: listing.stale_detail }));
  }
  if (listing.all_paused) lines.push(t(lang, "global_paused"));
  if (listing.jobs.length === 0 && listing.errors.length === 0) lines.push(t(lang, "none"));
  const rows = listing.jobs.map((job) => ({
    name: job.name,
    when: `${job.schedule} (${job.tz})`,
    tag: job.paused === null
      ? ""
      : t(lang, "list_paused", { reason: reasonWord(job.paused, lang) }),
    next: job.next ?? "-",
    last: job.last_state === null ? "-" : stateWord(job.last_state, lang),
    today: usd(job.spent_today_usd, lang),
    month: usd(job.spent_30d_usd, lang),
  }));
  type Row = typeof rows[number];
  const width = (pick: (row: Row) => string) => Math.max(0, ...rows.map((row) => pick(row).length));
  const pad = {
    name: width((r) => r.name),
    when: width((r) => r.when),
    next: width((r) => r.next),
    last: width((r) => r.last),
    today: width((r) => r.today),
  };
  const next = (row: Row) =>
    t(lang, "list_next", { next: row.next.padEnd(pad.next), last: row.last.padEnd(pad.last) });
  const spent = (row: Row) =>
    t(lang, "list_spent", { today: row.today.padEnd(pad.today), month: row.month });
  // Two lines a job: the name column as wide as the schedules and pauses leave room for,
  // a name cut no narrower than MIN_NAME, and the figures whole on the second line.
  const tagged = (row: Row) => row.tag === "" ? row.when.length : pad.when + row.tag.length;
  const nameRoom = Math.min(pad.name, columns - 2 - Math.max(0, ...rows.map(tagged)));
  const twoLines = nameRoom >= Math.min(pad.name, MIN_NAME) &&
    rows.every((row) => `${next(row)}${spent(row)}`.trimEnd().length <= columns);
  // Four lines a job: the name and its pause, the schedule, the runs, the spend.
  const nameRoom4 = Math.max(
    1,
    Math.min(pad.name, columns - Math.max(0, ...rows.map((r) => r.tag.length))),
  );
  for (const row of rows) {
    if (twoLines) {
      lines.push(
        t(lang, "list_when", {
          name: cut(row.name, nameRoom).padEnd(nameRoom),
          when: row.tag === "" ? row.when : row.when.padEnd(pad.when),
          state: row.tag,
        }).trimEnd(),
      );
      lines.push(`${next(row)}${spent(row)}`.trimEnd());
    } else {
      const name = cut(row.name, nameRoom4);
      lines.push(cut(row.tag === "" ? name : `${name.padEnd(nameRoom4)}${row.tag}`, columns));
      lines.push(cut(`  ${row.when}`, columns));
      lines.push(cut(next(row).trimEnd(), columns));
      lines.push(cut(spent(row).trimEnd(), columns));
    }
  }
  lines.push(...listing.errors);
  return lines;
}

/** The lines of `agent jobs log`: when, which job, the outcome, the cost, the answer or reason. */
export function logLines(rows: readonly RunRow[], lang: Lang): string[] {
  if (rows.length === 0) return [t(lang, "no_log")];
  return rows.map((row) => {
    const missed = row.missed ? t(lang, "log_missed") : "";
    // An answer is Markdown: its words show, not its marks. A reason is a sentence,
    // said in the reader's language whichever language its hub wrote it in.
    const detail = row.state === "ok" && row.detail !== null
      ? answerPreview(row.detail, 80)
      : reasonIn(row.detail ?? "", lang).replace(/\s+/g, " ").slice(0, 80);
    return `${formatTime(row.slot_ms)}  ${row.job}  ${stateWord(row.state, lang)}${missed}  ${
      usd(row.usd, lang)
    }  ${detail}`;
  });
}

/** `text` cut to `max` characters, its end shown as "…" when cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 1 ? "…".slice(0, max) : `${text.slice(0, max - 1)}…`;
}
