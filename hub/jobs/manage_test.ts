import assert from "node:assert/strict";
import { loadConfig } from "../config/read.ts";
import { UserError } from "../user_error.ts";
import { jobHome } from "./_testing.ts";
import { type JobsScope, listJobs, listLines, logLines, pauseJobs, resumeJobs } from "./manage.ts";
import { ALL_JOBS } from "./pause_store.ts";

const TOKEN = "spine-token-never-shown";

Deno.test("pauseJobs(), resumeJobs() and listJobs() say when the spine both hubs share is silent", async () => {
  const home = await jobHome();
  try {
    await home.write({ name: "news" });
    const scope: JobsScope = {
      paths: home.paths,
      config: await loadConfig(home.paths, { lang: "en" }),
      lang: "en",
      env: { AGENT_SPINE_URL: "http://spine.invalid", AGENT_SPINE_TOKEN: TOKEN },
      fetch: () => Promise.reject(new TypeError("connection refused")),
    };
    // The pause holds here and waits to be sent; the sentence says the other hub may run.
    const paused = await pauseJobs(scope, undefined);
    assert.match(paused, /^Paused all jobs on this hub only: the spine did not answer \(.+\)\./);
    assert.ok(!paused.includes(TOKEN));
    assert.deepEqual(home.store.pauses.unsent().map((r) => r.job), [ALL_JOBS]);
    // The listing shows what this hub last knew, and says so first.
    const listing = await listJobs(scope);
    assert.equal(listing.pauses, "stale");
    assert.equal(listing.all_paused, true);
    assert.match(
      listLines(listing, "en")[0]!,
      /^The spine did not answer \(.+\): the pauses shown/,
    );
    // A resume the spine did not get would be undone at the next slot: refused, exit 1,
    // except for a pause that never reached it.
    await assert.rejects(
      () => resumeJobs({ ...scope, lang: "tr" }, "news"),
      (error: unknown) =>
        error instanceof UserError && error.exitCode === 1 &&
        /^'news' görevi sürdürülemiyor: /.test(error.message),
    );
    home.store.pauses.markSent(ALL_JOBS);
    await assert.rejects(() => resumeJobs(scope, undefined), {
      message: /^Cannot resume the jobs: .+; they stay paused\. Try again when it answers\.$/,
    });
    assert.ok(home.store.pauses.all().has(ALL_JOBS));
    home.store.pauses.markUnsent(ALL_JOBS);
    assert.equal(await resumeJobs(scope, undefined), "Resumed all jobs.");
    assert.equal(home.store.pauses.all().size, 0);
    // Without a spine in the environment: this home's store alone, as before.
    const local = { ...scope, env: {} };
    assert.equal(await pauseJobs(local, "news"), "Paused job 'news'.");
    assert.equal((await listJobs(local)).pauses, "local");
    assert.deepEqual(home.store.pauses.unsent(), []);
  } finally {
    await home.close();
  }
});

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
    "news    0 8 * * 1-5 (Europe/Istanbul)   [duraklatıldı: owner]",
    "  sonraki 27.11.2026 08:00  son ok  bugün $0.0020  30 gün $0.0020",
    "weekly  30 18 * * 5 (America/New_York)",
    "  sonraki 27.11.2026 08:00  son ok  bugün $0.0020  30 gün $0.0020",
  ]);
  for (const word of ["next", "last", "today", "30 days", "paused"]) {
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
    assert.equal(lines.length, 4);
    for (const line of lines) assert.ok(line.length <= 80, `${line.length}: ${line}`);
    // The figures of both jobs start in the same columns.
    const columns = (line: string) => [...line.matchAll(/ {2}\S/g)].map((m) => m.index);
    assert.deepEqual(columns(lines[1]!), columns(lines[3]!), lines.join("\n"));
  }
  assert.deepEqual(listLines(listing, "en"), [
    "morning-digest  */15 6-22 * * 1-5 (America/New_York)  [paused: budget]",
    "  next 27.11.2026 08:00  last interrupted  today $12.50   30 days $312.25",
    "ab              0 8 * * * (Europe/Istanbul)",
    "  next -                 last -            today $0.0020  30 days $0.0020",
  ]);
});

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

Deno.test("logLines() shows an answer's words without its Markdown, and a reason as written", () => {
  const row = (state: "ok" | "refused", detail: string) => ({
    slot_id: `news@${state}`,
    job: "news",
    slot_ms: Date.UTC(2026, 10, 26, 5, 0),
    claimed_ms: 0,
    state,
    missed: false,
    usd: 0.002,
    finished_ms: 0,
    detail,
    session_id: null,
  });
  const [ok, refused] = logLines([
    row("ok", "**Today**: three things.\n\n1. Write the *report*\n\n```ts\nconst x = 1;\n```"),
    row("refused", "the job's max_usd_per_run of $0.02 would be passed"),
  ], "en");
  assert.ok(ok!.includes("  ok  $0.0020  Today: three things. 1. Write the report "), ok);
  assert.ok(!ok!.includes("**") && !ok!.includes("```"), ok);
  assert.ok(refused!.endsWith("  the job's max_usd_per_run of $0.02 would be passed"), refused);
});
