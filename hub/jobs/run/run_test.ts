import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { jobHome } from "../_testing.ts";
import { runJob } from "./run.ts";
import { settleOrphans } from "./settle.ts";
import { slotId } from "../schedule.ts";
import { jobStoreFile } from "../files.ts";
import { ALL_JOBS } from "../pause_store.ts";
import type { SharedSlots, SlotNotice } from "../spine_slots.ts";
import { dayStart } from "../../ledger/mod.ts";

const SLOT = Date.UTC(2026, 0, 1, 5);

Deno.test("runJob() runs a slot once, records its cost and delivers it once", async () => {
  const home = await jobHome();
  try {
    const job = await home.write({ name: "news" });
    const first = await runJob(home.ctx, job, SLOT);
    assert.equal(first.kind, "ok");
    // The same slot again (a restart, a second hub): it is not run twice.
    assert.deepEqual(await runJob(home.second(), job, SLOT), { kind: "taken" });
    assert.deepEqual(await runJob(home.ctx, job, SLOT), { kind: "taken" });
    const [row] = home.store.log("news");
    assert.equal(row?.slot_id, slotId("news", SLOT));
    assert.equal(row?.state, "ok");
    assert.equal(row?.usd.toFixed(4), "0.0020");
    assert.match(row?.session_id ?? "", /^job-news-20260101-050000-[0-9a-f]{4}$/);
    await home.flush();
    const results = home.events.filter((e) => e.type === "job.result");
    assert.equal(results.length, 1);
    assert.equal(results[0]?.text, "Job news ($0.0020):\nDone.");
    // Its calls are in the ledger under the job channel and the run's session.
    const calls = home.ledger.breakdown("session", { sinceMs: 0 });
    assert.ok(calls.some((c) => c.channel === "job" && c.session_id?.startsWith("job-news-")));
  } finally {
    await home.close();
  }
});

Deno.test("runJob() holds the run's ceiling: a call that could pass it is never sent", async () => {
  const home = await jobHome();
  try {
    // One call reserves ~1024 × $2/M of output alone, more than $0.001.
    const job = await home.write({ name: "tight", max_usd_per_run: 0.001 });
    const outcome = await runJob(home.ctx, job, SLOT);
    assert.equal(outcome.kind, "failed");
    assert.equal(home.store.pauses.all().get("tight")?.reason, "run");
    assert.equal(
      home.ledger.sessionSpend(outcome.kind === "failed" ? outcome.sessionId! : "", 0).spentUsd,
      0,
    );
    const notices = home.events.filter((e) => e.type === "job.notice");
    assert.equal(notices.length, 1);
    assert.match(
      notices[0]!.text,
      /^Job tight is paused: a call would have passed its max_usd_per_run of \$0\.0010\./,
    );
    // Paused: the next slot does not run and tells nothing more.
    assert.partialDeepStrictEqual(await runJob(home.ctx, job, SLOT + 1000), {
      kind: "paused",
      job: "tight",
      reason: "run",
    });
    assert.equal(home.events.filter((e) => e.type === "job.notice").length, 1);
  } finally {
    await home.close();
  }
});

Deno.test("runJob() pauses a job at its daily ceiling and tells the owner once", async () => {
  const home = await jobHome();
  try {
    // A run costs $0.002 and may cost up to about $0.0031; the day allows two runs.
    const job = await home.write({ name: "daily", max_usd_per_run: 0.01, max_usd_per_day: 0.0065 });
    assert.equal((await runJob(home.ctx, job, SLOT)).kind, "ok");
    assert.equal((await runJob(home.ctx, job, SLOT + 1000)).kind, "ok");
    const third = await runJob(home.ctx, job, SLOT + 2000);
    assert.equal(third.kind, "refused");
    assert.equal(home.store.pauses.all().get("daily")?.reason, "day");
    assert.partialDeepStrictEqual(await runJob(home.ctx, job, SLOT + 3000), {
      kind: "paused",
      job: "daily",
      reason: "day",
    });
    const notices = home.events.filter((e) => e.type === "job.notice");
    assert.equal(notices.length, 1);
    assert.match(notices[0]!.text, /^Job daily is paused: today's spend \$0\.0040/);
    assert.ok(home.store.spentSince("daily", 0) <= 0.0065);
  } finally {
    await home.close();
  }
});

Deno.test("runJob() tells a ceiling's pause only when the shared slots say this hub tells", async () => {
  const home = await jobHome();
  try {
    const asked: SlotNotice[] = [];
    let answer = false;
    const slots: SharedSlots = {
      claim: () => Promise.resolve({ kind: "off" }),
      settle: () => Promise.resolve(),
      running: () => Promise.resolve([]),
      notice(n) {
        asked.push(n);
        return Promise.resolve(answer);
      },
      pause: () => Promise.resolve({ kind: "off" }),
      resume: () => Promise.resolve({ kind: "off" }),
      pauses: () => Promise.resolve({ kind: "off" }),
    };
    const ctx = { ...home.ctx, slots };
    const job = await home.write({ name: "tight", max_usd_per_run: 0.001 });
    // The other hub told it today: paused here, quietly.
    assert.equal((await runJob(ctx, job, SLOT)).kind, "failed");
    assert.equal(home.store.pauses.all().get("tight")?.reason, "run");
    assert.equal(home.events.filter((e) => e.type === "job.notice").length, 0);
    assert.deepEqual(asked, [{
      job: "tight",
      dayMs: dayStart(Date.now()),
      reason: "run",
      sinceMs: 0,
    }]);
    // Resumed here, paused again: the spine is asked with the resume's time, and tells.
    const before = Date.now();
    assert.ok(home.store.pauses.resume("tight"));
    answer = true;
    assert.equal((await runJob(ctx, job, SLOT + 1000)).kind, "failed");
    assert.ok(asked[1]!.sinceMs >= before && asked[1]!.sinceMs <= Date.now());
    assert.equal(home.events.filter((e) => e.type === "job.notice").length, 1);
    // Resuming all jobs counts for each of them.
    home.store.pauses.resumeAll();
    assert.ok(home.store.pauses.resumedAt("tight") >= asked[1]!.sinceMs);
    assert.equal(home.store.pauses.resumedAt("never"), home.store.pauses.resumedAt(ALL_JOBS));
  } finally {
    await home.close();
  }
});

Deno.test("runJob() runs nothing while every job is paused", async () => {
  const home = await jobHome();
  try {
    const job = await home.write({ name: "news" });
    home.store.pauses.pause(ALL_JOBS, "owner", Date.now());
    assert.partialDeepStrictEqual(await runJob(home.ctx, job, SLOT), {
      kind: "paused",
      job: "*",
      reason: "owner",
    });
    assert.equal(home.store.log().length, 0);
    home.store.pauses.resume(ALL_JOBS);
    assert.equal((await runJob(home.ctx, job, SLOT)).kind, "ok");
  } finally {
    await home.close();
  }
});

Deno.test("runJob() keeps a job delivered to 'none' in the log only", async () => {
  const home = await jobHome();
  try {
    const job = await home.write({ name: "quiet", deliver: "none" });
    assert.equal((await runJob(home.ctx, job, SLOT)).kind, "ok");
    assert.equal(home.events.length, 0);
    assert.equal(home.store.log("quiet")[0]?.detail, "Done.");
  } finally {
    await home.close();
  }
});

Deno.test("runJob() skips a slot while the job's previous run is still going", async () => {
  const home = await jobHome();
  try {
    const job = await home.write({ name: "slow" });
    const [first, second] = await Promise.all([
      runJob(home.ctx, job, SLOT),
      runJob(home.ctx, job, SLOT + 1000),
    ]);
    assert.equal(first.kind, "ok");
    assert.equal(second.kind, "missed");
    assert.match(
      second.kind === "missed" ? second.text ?? "" : "",
      /^Job slow did not run: its run that began at \d\d:\d\d:\d\d is still going \(in this or another process\)\. Try again when it ends\.$/,
    );
    const [newest] = home.store.log("slow");
    assert.equal(newest?.state, "missed");
    assert.equal(newest?.detail, "skipped: the previous run was still running");
    await home.flush();
    assert.equal(home.events.filter((e) => e.type === "job.result").length, 1);
  } finally {
    await home.close();
  }
});

Deno.test("settleOrphans() settles a slot a dead hub left running, tells once, never reruns it", async () => {
  const home = await jobHome();
  try {
    const job = await home.write({ name: "news" });
    // As a hub killed during its run leaves it: claimed, its session named, no end.
    assert.ok(home.store.claim(slotId("news", SLOT), "news", SLOT, Date.now()));
    home.store.started(slotId("news", SLOT), "job-news-20260101-050000-abcd");
    const settled = await settleOrphans(home.ctx, () => false);
    assert.deepEqual(settled.map((r) => [r.slot_id, r.state]), [[
      slotId("news", SLOT),
      "interrupted",
    ]]);
    assert.deepEqual(await settleOrphans(home.ctx, () => false), []);
    const [row] = home.store.log("news");
    assert.equal(row?.state, "interrupted");
    assert.equal(row?.detail, "interrupted: the hub stopped during the run; not run again");
    const notices = home.events.filter((e) => e.type === "job.notice").map((e) => e.text);
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /^Job news was interrupted: the hub stopped during its run of /);
    assert.deepEqual(await runJob(home.ctx, job, SLOT), { kind: "taken" });
  } finally {
    await home.close();
  }
});

Deno.test("runJob() refuses a run while another process's run of the job goes, not a former one's", async () => {
  const home = await jobHome();
  try {
    const job = await home.write({ name: "news" });
    // Another process's run, as its claim left it: a `running` row under its id.
    const db = new DatabaseSync(jobStoreFile(home.paths));
    const put = (pid: number) =>
      db.prepare(
        `INSERT OR REPLACE INTO runs (slot_id, job, slot_ms, claimed_ms, pid, state)
         VALUES ('news@other', 'news', 0, ?, ?, 'running')`,
      ).run(Date.now(), pid);
    try {
      put(Deno.ppid);
      const busy = await runJob(home.ctx, job, SLOT);
      assert.equal(busy.kind, "missed");
      assert.match(busy.kind === "missed" ? busy.text ?? "" : "", /^Job news did not run: /);
      // A former process under this process's id (a container restarted) runs nothing:
      // the row no longer holds the job (the next start settles it).
      put(Deno.pid);
      assert.equal((await runJob(home.ctx, job, SLOT + 1000)).kind, "ok");
    } finally {
      db.close();
    }
  } finally {
    await home.close();
  }
});
