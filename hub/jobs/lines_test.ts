import assert from "node:assert/strict";
import { listLines, logLines, reasonWord, stateWord } from "./lines.ts";
import type { RunRow, RunState } from "./store.ts";

/** A row of `agent jobs list` with one run of $0.002 today. */
function listed(name: string, schedule: string, tz: string, paused: string | null) {
  return {
    name,
    schedule,
    tz,
    role: "fast",
    deliver: "messenger",
    next_ms: 0,
    next: "27.11.2026 08:00" as string | null,
    paused,
    last_state: "ok" as string | null,
    last_ms: 0,
    spent_today_usd: 0.002,
    spent_30d_usd: 0.002,
    max_usd_per_run: null,
    max_usd_per_day: null,
  };
}

/** The listing of a paused job, a job with the longest name, and one whose run failed. */
const THREE = {
  jobs: [
    listed("morning-digest", "*/15 6-22 * * 1-5", "America/New_York", "owner"),
    {
      ...listed("news", "0 9 * * *", "America/Argentina/Buenos_Aires", null),
      last_state: "failed",
    },
    { ...listed("quarterly-investor-summary-xyz1", "0 8 * * *", "Europe/Istanbul", null) },
  ],
  errors: [],
  all_paused: false,
};

/** Where each run of two or more spaces ends: the columns a line's fields start in. */
function starts(line: string): number[] {
  return [...line.matchAll(/ {2,}(?=\S)/g)].map((m) => m.index + m[0].length);
}

Deno.test("listLines() says its words in the owner's language, two lines a job, columns lined up", () => {
  const listing = {
    jobs: [
      listed("news", "0 8 * * 1-5", "Europe/Istanbul", "owner"),
      listed("weekly", "30 18 * * 5", "America/New_York", null),
    ],
    errors: [],
    all_paused: false,
  };
  const tr = listLines(listing, "tr");
  assert.deepEqual(tr, [
    "news    0 8 * * 1-5 (Europe/Istanbul)   [duraklatıldı: sizin tarafınızdan]",
    "  sonraki 27.11.2026 08:00  son tamam  bugün $0,0020  30 gün $0,0020",
    "weekly  30 18 * * 5 (America/New_York)",
    "  sonraki 27.11.2026 08:00  son tamam  bugün $0,0020  30 gün $0,0020",
  ]);
  for (const word of ["next", "last", "today", "30 days", "paused", "owner", " ok "]) {
    assert.ok(!tr.join("\n").includes(word), `untranslated '${word}'`);
  }
  const en = listLines(listing, "en");
  assert.deepEqual(en, [
    "news    0 8 * * 1-5 (Europe/Istanbul)   [paused: owner]",
    "  next 27.11.2026 08:00  last ok  today $0.0020  30 days $0.0020",
    "weekly  30 18 * * 5 (America/New_York)",
    "  next 27.11.2026 08:00  last ok  today $0.0020  30 days $0.0020",
  ]);
});

Deno.test("listLines() fits 80 columns with long values, and lines up what differs in length", () => {
  const listing = {
    jobs: [
      {
        ...listed("morning-digest", "*/15 6-22 * * 1-5", "America/New_York", "budget"),
        last_state: "interrupted",
        spent_today_usd: 12.5,
        spent_30d_usd: 312.25,
      },
      { ...listed("ab", "0 8 * * *", "Europe/Istanbul", null), next: null, last_state: null },
    ],
    errors: [],
    all_paused: false,
  };
  for (const lang of ["en", "tr"] as const) {
    const lines = listLines(listing, lang);
    for (const line of lines) assert.ok(line.length <= 80, `${line.length}: ${line}`);
  }
  assert.deepEqual(listLines(listing, "en"), [
    "morning-digest  */15 6-22 * * 1-5 (America/New_York)  [paused: budget]",
    "  next 27.11.2026 08:00  last interrupted  today $12.50   30 days $312.25",
    "ab              0 8 * * * (Europe/Istanbul)",
    "  next -                 last -            today $0.0020  30 days $0.0020",
  ]);
  // The Turkish pause does not leave room for the name: four lines a job, lined up.
  assert.deepEqual(listLines(listing, "tr"), [
    "morning-digest  [duraklatıldı: bütçe tükendi]",
    "  */15 6-22 * * 1-5 (America/New_York)",
    "  sonraki 27.11.2026 08:00  son yarıda kaldı",
    "  bugün $12,50   30 gün $312,25",
    "ab",
    "  0 8 * * * (Europe/Istanbul)",
    "  sonraki -                 son -",
    "  bugün $0,0020  30 gün $0,0020",
  ]);
});

Deno.test("listLines() cuts a long name with … at 80 columns and keeps the columns lined up", () => {
  const lines = listLines(THREE, "en", { columns: 80 });
  assert.deepEqual(lines, [
    "morning-digest       */15 6-22 * * 1-5 (America/New_York)        [paused: owner]",
    "  next 27.11.2026 08:00  last ok      today $0.0020  30 days $0.0020",
    "news                 0 9 * * * (America/Argentina/Buenos_Aires)",
    "  next 27.11.2026 08:00  last failed  today $0.0020  30 days $0.0020",
    "quarterly-investor…  0 8 * * * (Europe/Istanbul)",
    "  next 27.11.2026 08:00  last ok      today $0.0020  30 days $0.0020",
  ]);
});

Deno.test("listLines() at 60 columns: four lines a job, none longer, the columns lined up", () => {
  for (const lang of ["en", "tr"] as const) {
    const lines = listLines(THREE, lang, { columns: 60 });
    assert.equal(lines.length, 12, lines.join("\n"));
    for (const line of lines) assert.ok(line.length <= 60, `${line.length}: ${line}`);
    // The same line of each job starts its fields in the same columns.
    for (let i = 2; i < 4; i++) {
      assert.deepEqual(starts(lines[i]!), starts(lines[i + 4]!), lines.join("\n"));
      assert.deepEqual(starts(lines[i]!), starts(lines[i + 8]!), lines.join("\n"));
    }
  }
  assert.deepEqual(listLines(THREE, "en", { columns: 60 }).slice(0, 8), [
    "morning-digest                   [paused: owner]",
    "  */15 6-22 * * 1-5 (America/New_York)",
    "  next 27.11.2026 08:00  last ok",
    "  today $0.0020  30 days $0.0020",
    "news",
    "  0 9 * * * (America/Argentina/Buenos_Aires)",
    "  next 27.11.2026 08:00  last failed",
    "  today $0.0020  30 days $0.0020",
  ]);
  // Narrower than a name and its pause: the name is cut, the pause stays whole.
  const narrow = listLines(THREE, "en", { columns: 30 });
  for (const line of narrow) assert.ok(line.length <= 30, `${line.length}: ${line}`);
  assert.equal(narrow[0], "morning-dige…  [paused: owner]");
});

Deno.test("stateWord() and reasonWord() say the codes in the owner's language; unknown ones as they are", () => {
  const states = ["ok", "failed", "missed", "refused", "running", "interrupted", "taken", "paused"];
  for (const state of states) assert.equal(stateWord(state, "en"), state);
  assert.deepEqual(states.map((s) => stateWord(s, "tr")), [
    "tamam",
    "başarısız",
    "kaçırıldı",
    "reddedildi",
    "sürüyor",
    "yarıda kaldı",
    "öteki hub'da",
    "duraklatılmış",
  ]);
  assert.deepEqual(["owner", "day", "run", "budget"].map((r) => reasonWord(r, "tr")), [
    "sizin tarafınızdan",
    "günlük sınır",
    "çalışma sınırı",
    "bütçe tükendi",
  ]);
  assert.equal(stateWord("something-new", "tr"), "something-new");
  assert.equal(reasonWord("spine", "tr"), "spine");
});

function row(state: RunState, detail: string, missed = false): RunRow {
  return {
    slot_id: `news@${state}`,
    job: "news",
    slot_ms: Date.UTC(2026, 10, 26, 5, 0),
    claimed_ms: 0,
    state,
    missed,
    usd: 0.002,
    finished_ms: 0,
    detail,
    session_id: null,
  };
}

Deno.test("logLines() shows an answer's words without its Markdown, and a reason as written", () => {
  const [ok, refused] = logLines([
    row("ok", "**Today**: three things.\n\n1. Write the *report*\n\n```ts\nconst x = 1;\n```"),
    row("refused", "the job's max_usd_per_run of $0.02 would be passed"),
  ], "en");
  assert.ok(ok!.includes("  ok  $0.0020  Today: three things. 1. Write the report "), ok);
  assert.ok(!ok!.includes("**") && !ok!.includes("```"), ok);
  assert.ok(refused!.endsWith("  the job's max_usd_per_run of $0.02 would be passed"), refused);
});

Deno.test("logLines() says the outcome in Turkish, the stored code unchanged", () => {
  const rows = [row("failed", "HTTP 500"), row("ok", "Done.", true), row("interrupted", "stopped")];
  assert.deepEqual(logLines(rows, "tr"), [
    "26.11.2026 08:00  news  başarısız  $0,0020  HTTP 500",
    "26.11.2026 08:00  news  tamam (kaçırıldı)  $0,0020  Done.",
    "26.11.2026 08:00  news  yarıda kaldı  $0,0020  stopped",
  ]);
  assert.equal(rows[0]!.state, "failed");
  assert.deepEqual(logLines([], "tr"), ["Henüz çalışma yok."]);
});

Deno.test("logLines() says a stored reason in the reader's language, whichever language wrote it", () => {
  const rows = [
    row("missed", "skipped: the previous run was still running"),
    row("taken", "bu kimliğin öteki hub'ı çalıştırdı"),
    row("failed", "cancelled"),
    row("failed", "HTTP 500"),
  ];
  const tail = (lines: string[]) => lines.map((l) => l.split(/\$0[.,]0020 {2}/)[1]);
  assert.deepEqual(tail(logLines(rows, "tr")), [
    "atlandı: önceki çalışma hâlâ sürüyordu",
    "bu kimliğin öteki hub'ı çalıştırdı",
    "iptal edildi: çalışma yanıt vermeden durduruldu",
    "HTTP 500",
  ]);
  assert.deepEqual(tail(logLines(rows, "en")), [
    "skipped: the previous run was still running",
    "run by the other hub of this identity",
    "cancelled: the run was stopped before it answered",
    "HTTP 500",
  ]);
});
