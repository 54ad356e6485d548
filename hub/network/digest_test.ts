import assert from "node:assert/strict";
import { tempDir } from "../../tests/_temp_dir.ts";
import type { NetDigestEvent, NetEvent, OwnerEvent } from "../events/mod.ts";
import { digestLines } from "../events/mod.ts";
import { DIGEST_MAX_TOLD, firstLine, NetDigest, type NetDigestOptions } from "./digest.ts";

/** A digest over a fake clock, writing its events to a list. */
function digest(dir: string, extra: Partial<NetDigestOptions> = {}) {
  const told: NetDigestEvent[] = [];
  let now = 1_000_000_000_000;
  const d = new NetDigest({
    mode: "batched",
    events: {
      publish(event: NetEvent) {
        told.push(event as NetDigestEvent);
        return Promise.resolve({ ...event, event_id: "x" } as OwnerEvent);
      },
    },
    file: `${dir}/net/digest.json`,
    now: () => now,
    ...extra,
  });
  return {
    d,
    told,
    advance(ms: number) {
      now += ms;
    },
  };
}

const ask = (i: number) => ({
  address: `peer${i % 7}.example`,
  name: `Peer ${i % 7}`,
  thread: `thread${i}`,
  asked: `Question ${i}?\nmore lines`,
  answered: `Answer ${i}.`,
});

Deno.test("firstLine() keeps the first non-empty line, without controls, cut with …", () => {
  assert.equal(firstLine("\n\n  Hello\x1b[2J there \nsecond"), "Hello [2J there");
  assert.equal(firstLine("a".repeat(200)), "a".repeat(159) + "…");
  assert.equal(firstLine(""), "");
});

Deno.test("NetDigest tells a quiet spell's first conversation 5 seconds later, then at most every 10 minutes", async () => {
  using dir = tempDir("agent-digest-");
  const { d, told, advance } = digest(dir.path);
  await d.record(ask(1));
  assert.equal(await d.flushDue(), false, "gathers the exchange first");
  advance(5_000);
  assert.equal(await d.flushDue(), true);
  assert.equal(told.length, 1);
  assert.deepEqual(told[0]!.conversations.map((c) => [c.address, c.asked, c.answered]), [
    ["peer1.example", "Question 1?", "Answer 1."],
  ]);
  // A busy stretch right after: one digest, ten minutes after the last one.
  for (let i = 2; i <= 30; i++) {
    advance(15_000);
    await d.record(ask(i));
    await d.flushDue();
  }
  assert.equal(told.length, 1, "nothing within 10 minutes of the last digest");
  advance(600_000);
  assert.equal(await d.flushDue(), true);
  assert.equal(told.length, 2);
  assert.equal(told[1]!.conversations.length, DIGEST_MAX_TOLD);
  assert.equal(told[1]!.more, 29 - DIGEST_MAX_TOLD);
  // The event carries its sentence for readers that only show `text` (en by default).
  assert.ok(told[1]!.text.startsWith("Your agent answered 29 conversation(s) with other agents:"));
  assert.equal(await d.flushDue(), false, "nothing left to tell");
});

Deno.test("NetDigest keeps one entry per peer and thread, and what it gathered across a restart", async () => {
  using dir = tempDir("agent-digest-");
  const first = digest(dir.path);
  await first.d.record(ask(1));
  await first.d.record({ ...ask(1), asked: "A follow-up?", answered: "Sure." });
  // A new digest over the same file (a restart) finds what was gathered.
  const again = digest(dir.path, { now: () => 1_000_000_000_000 + 5_000 });
  assert.equal(await again.d.flushDue(), true);
  const [c] = again.told[0]!.conversations;
  assert.deepEqual([c!.asked, c!.answered, c!.turns], ["Question 1?", "Answer 1.", 2]);
});

Deno.test("NetDigest off tells nothing; daily tells once a day", async () => {
  using dir = tempDir("agent-digest-");
  const off = digest(dir.path, { mode: "off" });
  await off.d.record(ask(1));
  off.advance(86_400_000);
  assert.equal(await off.d.flushDue(), false);
  assert.equal(off.told.length, 0);

  using daily = tempDir("agent-digest-");
  const day = digest(daily.path, { mode: "daily" });
  await day.d.record(ask(1));
  day.advance(3_600_000);
  await day.d.record(ask(2));
  assert.equal(await day.d.flushDue(), false);
  day.advance(86_400_000 - 3_600_000);
  assert.equal(await day.d.flushDue(), true);
  assert.equal(day.told[0]!.conversations.length, 2);
});

Deno.test("NetDigest tells what is due on its own once started", async () => {
  using dir = tempDir("agent-digest-");
  const { d, told } = digest(dir.path, { now: Date.now, gatherMs: 30, intervalMs: 60_000 });
  await d.start();
  try {
    await d.record(ask(1));
    for (let i = 0; i < 100 && told.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(told.length, 1);
  } finally {
    await d.stop();
  }
});

Deno.test("digestLines() names each peer, what it asked and what the agent answered (en, tr)", () => {
  const event: OwnerEvent = {
    ts: 1,
    event_id: "1000-000001",
    type: "net.digest",
    more: 3,
    text: "",
    conversations: [{
      address: "bob.example",
      name: "Bob\u202e",
      thread: "t",
      asked: "Do you play chess?",
      answered: "Yes, on Sundays.",
      turns: 2,
      first_ts: 1,
      last_ts: 2,
    }],
  };
  assert.deepEqual(digestLines("en", event as NetDigestEvent), [
    "Your agent answered 4 conversation(s) with other agents:",
    "- Bob\\u202e (bob.example) asked “Do you play chess?”; your agent answered “Yes, on Sundays.” (2 messages)",
    "…and 3 more: `agent net log` shows them all.",
    "`agent net block ADDRESS` or `agent net remove ADDRESS` stops a conversation.",
  ]);
  assert.deepEqual(digestLines("tr", event as NetDigestEvent), [
    "Ajanınız diğer ajanlarla 4 konuşmayı yanıtladı:",
    "- Bob\\u202e (bob.example) sordu: “Do you play chess?”; ajanınız yanıtladı: “Yes, on Sundays.” (2 mesaj)",
    "…ve 3 tane daha: `agent net log` hepsini gösterir.",
    "`agent net block ADRES` ya da `agent net remove ADRES` bir konuşmayı durdurur.",
  ]);
});
