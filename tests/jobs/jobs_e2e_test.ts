/**
 * Scheduled jobs end to end: the hub (a real `agent hub run` process where it is killed,
 * else in the test's process as that command assembles it) with the fake model
 * (priced, so runs spend) and the loopback Bot API, on a clock the test steps
 * (`AGENT_TEST_CLOCK`), so no test waits for a second to pass. A job every second is delivered
 * once per slot across a hub kill and restart; a daily ceiling pauses the job and
 * tells the owner once; `agent jobs pause --all` stops the next slot; a slot missed
 * while no hub ran runs once on start; `agent jobs add` refuses a job whose ceiling is
 * below one run's estimate.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { agent, cleanup } from "../cli/_run.ts";
import { deliveries, HOURLY, PRICED_FAST, results, rows, SLOW, writeJob } from "./_jobs.ts";
import { StepClock } from "./_clock.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { messengerHome, OWNER, runHub, runHubHere, textsIn } from "../messenger/_hub.ts";

Deno.test({
  name: "jobs: an every-second job is delivered once per slot across a hub kill and restart",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { toml: PRICED_FAST });
    await writeJob(home, "tick", "schedule: '* * * * * *'\nmissed: once");
    const clock = await StepClock.create(home);
    const killed = await runHub(home, bot, clock.env);
    let hub: { stop(): Promise<unknown> } = killed;
    const delivered = () => results(textsIn(bot, OWNER), "tick").length;
    try {
      // Two slots, one a step.
      for (let i = 1; i <= 2; i++) {
        await clock.advance(1_000);
        await bot.until(`delivery ${i}`, () => delivered() >= i, 20_000);
      }
      // Both answers marked sent (a kill between a send and its mark may send it again:
      // the one window docs/jobs.md names, not what this test is about).
      await bot.until(
        "the sends marked",
        () => deliveries(home, "tick").every((d) => d.state === "sent"),
        20_000,
      );
      // A crash: no chance to finish anything. Three slots pass while no hub runs.
      killed.child.kill("SIGKILL");
      await killed.stop();
      await clock.advance(3_000);
      const before = delivered();
      // The restart's process is not the point: the hub after the crash runs here.
      hub = await runHubHere(home, bot, clock.env);
      // The slot due at the restart runs; then the next one.
      await bot.until("the slot due at the restart", () => delivered() >= before + 1, 20_000);
      await clock.advance(1_000);
      await bot.until("one more delivery", () => delivered() >= before + 2, 20_000);
      await hub.stop();
      const log = rows(home, "tick");
      const ok = log.filter((r) => r.state === "ok");
      const answers = results(textsIn(bot, OWNER), "tick");
      // Never lost, never doubled: every slot that ran was delivered once.
      assert.equal(answers.length, ok.length, answers.join("|"));
      assert.equal(ok.length, 4);
      // The fake model answers its replies, then "Okay.".
      assert.ok(
        answers.every((x) => /^Job tick \(\$0\.0020\):\n(Done|Okay)\.$/.test(x)),
        answers.join("|"),
      );
      assert.equal(new Set(log.map((r) => r.slot_id)).size, log.length);
      // The seconds the hub was down were found on restart and told once.
      const missed = textsIn(bot, OWNER).filter((x) => x.startsWith("Job tick missed"));
      assert.deepEqual(missed.length, 1, textsIn(bot, OWNER).join("\n"));
      assert.match(missed[0]!, /^Job tick missed 2 run\(s\) while no hub ran/);
      // The slot due at the restart ran; the newest one missed before it is in the log.
      assert.equal(log.filter((r) => r.state === "missed" && r.detail === null).length, 1);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "jobs: a daily ceiling pauses the job and tells the owner once; pause --all stops the next slot",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { toml: PRICED_FAST });
    // One run may cost up to about $0.0031 and costs $0.002: the day allows two runs.
    await writeJob(
      home,
      "capped",
      "schedule: '* * * * * *'\nmax_usd_per_run: 0.005\nmax_usd_per_day: 0.0065",
    );
    await writeJob(home, "other", "schedule: '* * * * * *'\ndeliver: none");
    const clock = await StepClock.create(home);
    const hub = await runHubHere(home, bot, clock.env);
    const running = (job: string) => rows(home, job).some((r) => r.state === "running");
    /**
     * Moves the clock a second and waits until the hub has run `other`'s slot and no run
     * of `capped` is still going (a slot that finds one running is missed, not refused).
     */
    const step = async () => {
      const ran = rows(home, "other").filter((r) => r.state !== "running").length;
      await clock.advance(1_000);
      await bot.until("the slot", () => {
        return rows(home, "other").filter((r) => r.state !== "running").length > ran &&
          !running("capped");
      }, 20_000);
    };
    const pausedNotice = (x: string) => x.startsWith("Job capped is paused");
    try {
      // Two runs fit the day; the third slot is refused and pauses the job.
      for (let i = 0; i < 3; i++) await step();
      await bot.until("the pause notice", () => textsIn(bot, OWNER).some(pausedNotice), 20_000)
        .catch((error) => {
          throw new Error(
            `${error.message}: ${textsIn(bot, OWNER).join(" | ")}; runs of capped: ${
              JSON.stringify(rows(home, "capped"))
            }`,
          );
        });
      // Two more slots: the paused job neither runs nor tells again.
      await step();
      await step();
      const texts = textsIn(bot, OWNER);
      assert.equal(texts.filter(pausedNotice).length, 1);
      assert.equal(results(texts, "capped").length, 2);
      assert.deepEqual(rows(home, "capped").map((r) => r.state), ["ok", "ok", "refused"]);
      const list = await agent(["--home", home, "jobs", "list", "--json"]);
      assert.equal(list.code, 0, list.stderr);
      const capped = JSON.parse(list.stdout).jobs.find((j: { name: string }) =>
        j.name === "capped"
      );
      assert.equal(capped.paused, "day");
      assert.ok(capped.spent_today_usd <= 0.0065);
      // Every job paused: the other job's next slots do not run.
      const paused = await agent(["--home", home, "jobs", "pause", "--all"]);
      assert.equal(paused.code, 0, paused.stderr);
      const ran = rows(home, "other").length;
      await clock.advance(2_000);
      // A slot the hub skips leaves no row: give it the time of one run to show one.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(rows(home, "other").length, ran);
      assert.ok(ran >= 5);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "jobs: a slot missed while no hub ran runs once on start (once) or is recorded (skip)",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { toml: PRICED_FAST });
    const add = (name: string, missed: string) =>
      agent([
        "--home",
        home,
        "jobs",
        "add",
        name,
        "--schedule",
        HOURLY,
        "--prompt",
        "Report.",
        "--missed",
        missed,
      ]);
    assert.equal((await add("once", "once")).code, 0);
    assert.equal((await add("skip", "skip")).code, 0);
    // As if both were added three hours ago and no hub ran since.
    const db = new DatabaseSync(`${home}/data/jobs.sqlite3`);
    db.prepare("UPDATE seen SET since_ms = ?").run(Date.now() - 3 * 3_600_000);
    db.close();
    const hub = await runHubHere(home, bot);
    try {
      await bot.until(
        "the missed run",
        () => results(textsIn(bot, OWNER), "once").length === 1,
        20_000,
      );
      await bot.until(
        "both notices",
        () => textsIn(bot, OWNER).filter((x) => / missed 3 run\(s\) /.test(x)).length === 2,
      );
      const texts = textsIn(bot, OWNER);
      assert.ok(
        texts.some((x) =>
          x.startsWith("Job skip missed 3 run(s)") && x.endsWith("they are skipped.")
        ),
      );
      assert.equal(results(texts, "skip").length, 0);
      assert.deepEqual(rows(home, "skip").map((r) => [r.state, r.missed]), [["missed", 1]]);
      assert.deepEqual(rows(home, "once").map((r) => [r.state, r.missed]), [["ok", 1]]);
      const log = await agent(["--home", home, "jobs", "log"]);
      assert.match(log.stdout, /once {2}ok \(missed\) {2}\$0\.0020 {2}Done\./);
      assert.match(log.stdout, /skip {2}missed \(missed\)/);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "jobs: add prints the estimate and refuses a ceiling below one run's estimate",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { toml: PRICED_FAST });
    try {
      const refused = await agent([
        "--home",
        home,
        "jobs",
        "add",
        "tight",
        "--schedule",
        "0 8 * * *",
        "--prompt",
        "Report.",
        "--max-usd-per-run",
        "0.001",
      ]);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr.trim(),
        /^Cannot add job 'tight': one run may cost up to \$0\.\d{4}, more than its max_usd_per_run of \$0\.0010\.$/,
      );
      const added = await agent([
        "--home",
        home,
        "jobs",
        "add",
        "news",
        "--schedule",
        "0 8 * * *",
        "--prompt",
        "Report.",
        "--max-usd-per-run",
        "0.01",
        "--tz",
        "America/New_York",
      ]);
      assert.equal(added.code, 0, added.stderr);
      assert.match(
        added.stdout,
        /^Estimated cost: \$0\.\d{4} per run, \$0\.\d{4} per day \(1 run\(s\) a day\)\.\nAdded job 'news'; next run \d\d\.\d\d\.\d{4} 08:00 \(America\/New_York\)\.\n$/,
      );
      // A weekly job counts its day, not the 0 runs the next 24 hours may hold.
      const weekly = await agent([
        "--home",
        home,
        "jobs",
        "add",
        "weekly",
        "--schedule",
        "0 8 * * 0",
        "--prompt",
        "Plan the week.",
      ]);
      assert.equal(weekly.code, 0, weekly.stderr);
      assert.match(
        weekly.stdout,
        /^Estimated cost: (\$0\.\d{4}) per run, \1 per day \(1 run\(s\) a day\)\./,
      );
      const bad = await agent([
        "--home",
        home,
        "jobs",
        "add",
        "bad",
        "--schedule",
        "0 8 * * *",
        "--prompt",
        "x",
        "--deliver",
        "mail",
      ]);
      assert.equal(bad.code, 2);
      assert.equal(
        bad.stderr.trim(),
        "--deliver must be one of messenger, events, none, not 'mail'.",
      );
      // pause/resume want a name or --all: neither and both are told apart.
      const neither = await agent(["--home", home, "jobs", "pause"]);
      assert.equal(neither.code, 2);
      assert.equal(neither.stderr.trim(), "'agent jobs pause' needs a job name or --all.");
      const both = await agent(["--home", home, "--lang", "tr", "jobs", "resume", "news", "--all"]);
      assert.equal(both.code, 2);
      assert.equal(
        both.stderr.trim(),
        "'agent jobs resume' bir görev adı ya da --all alır, ikisini birden değil.",
      );
      const run = await agent(["--home", home, "jobs", "run", "news"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "Done.\nJob news: ok ($0.0020).\n");
      const spend = await agent(["--home", home, "spend", "--by", "job"]);
      assert.equal(spend.code, 0, spend.stderr);
      assert.match(spend.stdout, /news/);
    } finally {
      await bot.stop();
      await cleanup();
    }
  },
});
