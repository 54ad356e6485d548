import assert from "node:assert/strict";
import { loadConfig } from "../config/read.ts";
import { UserError } from "../user_error.ts";
import { jobHome } from "./_testing.ts";
import { listLines } from "./lines.ts";
import {
  addJob,
  jobLog,
  type JobsScope,
  listJobs,
  type NewJob,
  pauseJobs,
  removeJobNamed,
  resumeJobs,
} from "./manage.ts";
import { runJob } from "./run/mod.ts";
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

/** The scope of `home` in `lang`. */
async function scopeOf(home: Awaited<ReturnType<typeof jobHome>>, lang: "en" | "tr") {
  return { paths: home.paths, config: await loadConfig(home.paths, { lang }), lang };
}

Deno.test("resumeJobs() of a job paused at its day's ceiling says when it can run again (F7)", async () => {
  const home = await jobHome();
  try {
    // A run costs $0.002 and may cost up to about $0.0031; the day allows two runs.
    const job = await home.write({
      name: "tight",
      max_usd_per_run: 0.005,
      max_usd_per_day: 0.0065,
    });
    for (let i = 0; i < 3; i++) await runJob(home.ctx, job, Date.now() + i);
    assert.equal(home.store.pauses.all().get("tight")?.reason, "day");
    assert.equal(
      await resumeJobs(await scopeOf(home, "en"), "tight"),
      "Resumed job 'tight'. Today's spend $0.0040 leaves less than one run under its max_usd_per_day of $0.0065, so it runs again after 00:00 (Istanbul), or sooner once max_usd_per_day in persona/jobs/tight.md is raised.",
    );
    // Refused again today: the sentence says when, not "resume resumes it".
    const again = await runJob(home.ctx, job, Date.now() + 10);
    assert.equal(again.kind, "refused");
    assert.equal(
      again.kind === "refused" ? again.text : "",
      "Job tight is paused: today's spend $0.0040 and one more run would pass its max_usd_per_day of $0.0065. Its day starts anew at 00:00 (Istanbul): 'agent jobs resume tight' lets it run from then on; to run it today, raise max_usd_per_day in persona/jobs/tight.md first.",
    );
    const paused = await runJob(home.ctx, job, Date.now() + 20);
    assert.equal(
      paused.kind === "paused" ? paused.text : paused.kind,
      "Job tight is paused at its max_usd_per_day of $0.0065: it can run again after 00:00 (Istanbul), once 'agent jobs resume tight' resumes it, or today once max_usd_per_day in persona/jobs/tight.md is raised and it is resumed.",
    );
    assert.equal(
      await resumeJobs(await scopeOf(home, "tr"), "tight"),
      "'tight' görevi sürdürülüyor. Bugünkü harcama $0,0040, max_usd_per_day sınırı olan $0,0065 altında bir çalışmalık bile yer bırakmıyor; görev İstanbul saatiyle 00:00'dan sonra, ya da persona/jobs/tight.md içindeki max_usd_per_day yükseltilince daha erken yeniden çalışır.",
    );
    const tr = await runJob({ ...home.ctx, lang: "tr" }, job, Date.now() + 30);
    assert.match(
      tr.kind === "refused" ? tr.text ?? "" : tr.kind,
      /Günü İstanbul saatiyle 00:00'da yeniden başlar: 'agent jobs resume tight' o andan sonra çalışmasını sağlar; bugün çalıştırmak için önce persona\/jobs\/tight\.md içindeki max_usd_per_day değerini yükseltin\.$/,
    );
    // A job paused by hand is resumed in the plain sentence.
    await home.write({ name: "news" });
    await pauseJobs(await scopeOf(home, "en"), "news");
    assert.equal(await resumeJobs(await scopeOf(home, "en"), "news"), "Resumed job 'news'.");
  } finally {
    await home.close();
  }
});

Deno.test("jobLog() of a name that is no job says so, as pause does (F14)", async () => {
  const home = await jobHome();
  try {
    for (
      const [lang, said] of [
        ["en", "No job 'nosuch' in persona/jobs/."],
        ["tr", "persona/jobs/ içinde 'nosuch' görevi yok."],
      ] as const
    ) {
      const scope = await scopeOf(home, lang);
      await assert.rejects(
        () => jobLog(scope, "nosuch"),
        (e: unknown) => e instanceof UserError && e.message === said && e.exitCode === 1,
      );
      await assert.rejects(
        () => pauseJobs(scope, "nosuch"),
        (e: unknown) => e instanceof UserError && e.message === said,
      );
    }
    // A job with no runs yet has an empty log; a removed job's log stays readable.
    const job = await home.write({ name: "news" });
    assert.deepEqual(await jobLog(await scopeOf(home, "en"), "news"), []);
    await runJob(home.ctx, job, Date.now());
    await removeJobNamed(await scopeOf(home, "en"), "news");
    assert.equal((await jobLog(await scopeOf(home, "en"), "news")).length, 1);
  } finally {
    await home.close();
  }
});

Deno.test("addJob() blames a bad option on the option, not a file's front matter (F13)", async () => {
  const home = await jobHome();
  try {
    const cases: [Partial<NewJob>, string, string][] = [
      [
        { schedule: "every day" },
        "--schedule 'every day' is not a cron expression: ",
        "--schedule 'every day' bir cron ifadesi değil: ",
      ],
      [
        { tz: "Mars/Base" },
        "--tz must be a time zone such as Europe/Istanbul, not 'Mars/Base'.",
        "--tz Europe/Istanbul gibi bir saat dilimi olmalı, 'Mars/Base' değil.",
      ],
      [
        { role: "nobody" },
        "--role names 'nobody', which is not a role in [models.roles].",
        "--role 'nobody' adını veriyor, ama [models.roles] içinde böyle bir rol yok.",
      ],
      [
        { deliver: "mail" as "none" },
        "--deliver must be one of messenger, events, none, not 'mail'.",
        "--deliver şunlardan biri olmalı: messenger, events, none; 'mail' değil.",
      ],
      [
        { max_usd_per_run: 0.5, max_usd_per_day: 0.1 },
        "--max-usd-per-day must be at least --max-usd-per-run (0.5).",
        "--max-usd-per-day en az --max-usd-per-run (0.5) kadar olmalı.",
      ],
    ];
    for (const [fields, en, tr] of cases) {
      for (const [lang, said] of [["en", en], ["tr", tr]] as const) {
        const job = { name: "bad", schedule: "0 8 * * *", prompt: "Report.", ...fields };
        await assert.rejects(
          async () => await addJob(await scopeOf(home, lang), job),
          (e: unknown) => e instanceof UserError && e.exitCode === 2 && e.message.startsWith(said),
          `${lang} ${JSON.stringify(fields)}`,
        );
      }
    }
  } finally {
    await home.close();
  }
});
