/**
 * A job's answer is never lost and never doubled, end to end: a real `agent hub run`
 * with the fake model and the loopback Bot API. While the Bot API refuses every send,
 * answers wait in the job store; the hub is SIGKILLed with them pending, and once the
 * Bot API accepts again the restarted hub delivers each exactly once. A hub SIGKILLed
 * during a run leaves the slot settled as `interrupted` at the next start, with its
 * call in the ledger (settled as estimated), told once and never run again. The hub
 * that is killed is the real process; the one started after it, whose process is not
 * the point, runs in the test's process as that command assembles it (`_home_hub.ts`).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { cleanup } from "../cli/_run.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { messengerHome, OWNER, runHub, runHubHere, textsIn } from "../messenger/_hub.ts";
import { deliveries, HOURLY, PRICED_FAST, results, rows, SLOW, writeJob } from "./_jobs.ts";
import { until } from "../_poll.ts";

Deno.test({
  name:
    "jobs: answers pending while the Bot API refuses survive a SIGKILL and arrive once after restart",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { toml: PRICED_FAST });
    await writeJob(home, "tick", "schedule: '* * * * * *'\nmissed: skip");
    // The Bot API refuses every message for now (a 502 is worth trying again).
    bot.fail("sendMessage", { code: 502, description: "Bad Gateway", times: 100_000 });
    const killed = await runHub(home, bot);
    let hub: { stop(): Promise<unknown> } = killed;
    try {
      // Two answers wait, each sent and refused at least once.
      await until(
        "two refused answers",
        () =>
          deliveries(home, "tick").filter((d) =>
            d.target === `chat:${OWNER}` && d.state === "pending" && d.attempts >= 1
          ).length >= 2,
      );
      killed.child.kill("SIGKILL");
      await killed.stop();
      const waiting = deliveries(home, "tick").filter((d) => d.target === `chat:${OWNER}`);
      assert.ok(waiting.every((d) => d.state === "pending"), JSON.stringify(waiting));
      assert.equal(results(textsIn(bot, OWNER), "tick").length, 0);

      // The Bot API accepts again; the hub restarts and stops the job at once.
      bot.unfail("sendMessage");
      await writeJob(home, "tick", "schedule: '0 0 1 1 *'\nmissed: skip");
      hub = await runHubHere(home, bot);
      await until(
        "every waiting answer",
        () => results(textsIn(bot, OWNER), "tick").length >= waiting.length,
      );
      await hub.stop();
      const delivered = results(textsIn(bot, OWNER), "tick");
      const ok = rows(home, "tick").filter((r) => r.state === "ok");
      // Exactly once each: every answer the log holds, none twice.
      assert.equal(delivered.length, ok.length, delivered.join(" | "));
      const chat = deliveries(home, "tick").filter((d) => d.target === `chat:${OWNER}`);
      assert.equal(chat.length, ok.length);
      assert.ok(chat.every((d) => d.state === "sent"), JSON.stringify(chat));
      // The event stream got each answer once too.
      const events = (await Deno.readTextFile(`${home}/data/net/events.jsonl`)).split("\n")
        .filter((line) => line.includes('"type":"job.result"'))
        .map((line) => JSON.parse(line).slot_id as string);
      assert.deepEqual([...new Set(events)].sort(), ok.map((r) => r.slot_id).sort());
      assert.equal(events.length, ok.length);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "jobs: a hub SIGKILLed mid-run leaves a settled slot and a ledger row, told once",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    // A long answer, a word every 100 ms: the run takes seconds.
    const words = Array.from({ length: 80 }, (_, i) => `w${i}`).join(" ");
    const { home } = await messengerHome(bot, {
      toml: [
        [
          'model_id = "fake-fast"\n',
          `model_id = "fake-fast"\nparams = { replies = ["${words}"], word_ms = 100, usage = { input = 1000, output = 500 } }\n`,
        ],
        PRICED_FAST[1]!,
      ],
    });
    await writeJob(home, "slow", `schedule: '${HOURLY}'\nmissed: once`);
    // As if added three hours ago: the newest missed slot runs once on start.
    await Deno.mkdir(`${home}/data`, { recursive: true });
    const db = new DatabaseSync(`${home}/data/jobs.sqlite3`);
    db.exec("CREATE TABLE IF NOT EXISTS seen (job TEXT PRIMARY KEY, since_ms INTEGER NOT NULL)");
    db.prepare("INSERT INTO seen (job, since_ms) VALUES (?, ?)").run(
      "slow",
      Date.now() - 3 * 3_600_000,
    );
    db.close();
    const killed = await runHub(home, bot);
    let hub: { stop(): Promise<unknown> } = killed;
    try {
      // Its call is in flight: the ledger holds it pending.
      await until("the call in flight", () => {
        const running = rows(home, "slow").find((r) => r.state === "running");
        return running?.session_id != null && pendingCalls(home, running.session_id) === 1;
      });
      killed.child.kill("SIGKILL");
      await killed.stop();
      const [left] = rows(home, "slow");
      assert.equal(left?.state, "running");

      hub = await runHubHere(home, bot);
      await until(
        "the interrupted notice",
        () => textsIn(bot, OWNER).some((x) => x.startsWith("Job slow was interrupted")),
      );
      await hub.stop();
      const log = rows(home, "slow");
      assert.equal(log.length, 1, JSON.stringify(log));
      assert.equal(log[0]?.state, "interrupted");
      assert.equal(log[0]?.slot_id, left?.slot_id);
      // Its call is counted, as estimated: the job's spend and the ledger agree.
      const calls = ledgerCalls(home, log[0]!.session_id!);
      assert.equal(calls.length, 1);
      assert.equal(calls[0]?.estimated, 1);
      assert.ok(calls[0]!.usd > 0);
      assert.equal(log[0]?.usd.toFixed(6), calls[0]?.usd.toFixed(6));
      assert.equal(pendingCalls(home, log[0]!.session_id!), 0);
      const texts = textsIn(bot, OWNER);
      assert.equal(texts.filter((x) => x.startsWith("Job slow was interrupted")).length, 1);
      assert.equal(results(texts, "slow").length, 0);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

function ledger(home: string): DatabaseSync {
  return new DatabaseSync(`${home}/data/spend.sqlite3`, { readOnly: true });
}

function pendingCalls(home: string, session: string): number {
  try {
    const db = ledger(home);
    try {
      const row = db.prepare("SELECT COUNT(*) AS n FROM pending WHERE session_id = ?")
        .get(session) as { n: number };
      return row.n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

function ledgerCalls(home: string, session: string): { usd: number; estimated: number }[] {
  const db = ledger(home);
  try {
    return db.prepare("SELECT usd, estimated FROM calls WHERE session_id = ?")
      .all(session) as unknown as { usd: number; estimated: number }[];
  } finally {
    db.close();
  }
}
