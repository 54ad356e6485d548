import assert from "node:assert/strict";
import { appendEvent, appendEvents, eventsFile, readEventLog } from "./log.ts";
import { EVENTS_MAX, type NetEvent, type OwnerEvent } from "./types.ts";

function failover(role: string, ts = 1_767_225_600): NetEvent {
  return { ts, type: "model.failover", role, stand_in: "fast", text: `${role} is down` };
}

/** The role of a failover event (every event of these tests is one). */
function role(event: OwnerEvent): string {
  return event.type === "model.failover" ? event.role : "?";
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "agent-events-log-" });
  try {
    await fn(`${dir}/net`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("appendEvents() writes each event with a rising id into the line, 0600 in a 0700 folder", async () => {
  await withDir(async (net) => {
    const { appended } = await appendEvents(net, [failover("a"), failover("b")]);
    const third = await appendEvent(net, failover("c"));
    const ids = [...appended, third].map((e) => e.event_id);
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, 3);
    const lines = (await Deno.readTextFile(eventsFile(net))).trimEnd().split("\n");
    assert.deepEqual(lines.map((l) => JSON.parse(l).event_id), ids);
    assert.ok(lines[0]!.startsWith('{"event_id":'), lines[0]);
    assert.deepEqual((await readEventLog(net)).map(role), ["a", "b", "c"]);
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(eventsFile(net))).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(net)).mode! & 0o777, 0o700);
    }
  });
});

Deno.test("appendEvents() keeps an outbox event's own id apart from its event_id", async () => {
  await withDir(async (net) => {
    const dropped = await appendEvent(net, {
      ts: 1,
      type: "net.outbox_dropped",
      address: "peer.example",
      id: "envelope-1",
      text: "hi",
    });
    const [read] = await readEventLog(net);
    assert.deepEqual(read, dropped);
    assert.equal(read?.type === "net.outbox_dropped" && read.id, "envelope-1");
    assert.notEqual(read?.event_id, "envelope-1");
  });
});

Deno.test("readEventLog() reads old lines with a derived id, skips torn lines, and the next writer heals a torn end", async () => {
  await withDir(async (net) => {
    await Deno.mkdir(net, { recursive: true });
    const old = JSON.stringify(failover("old", 1_700_000_000));
    await Deno.writeTextFile(
      eventsFile(net),
      `${old}\nnot json\n{"ts":"x","type":1}\n{"ts":1700000001,"type":"model.fail`,
    );
    const before = await readEventLog(net);
    assert.equal(before.length, 1);
    assert.match(before[0]!.event_id, /^1700000000000-L[0-9a-f]{8}$/);
    // The derived id is the same on every read.
    assert.deepEqual((await readEventLog(net))[0]!.event_id, before[0]!.event_id);
    const added = await appendEvent(net, failover("new"));
    assert.ok(added.event_id > before[0]!.event_id);
    const after = await readEventLog(net);
    assert.deepEqual(after.map(role), ["old", "new"]);
    assert.deepEqual(after.map((e) => e.event_id), [before[0]!.event_id, added.event_id]);
    const text = await Deno.readTextFile(eventsFile(net));
    assert.ok(text.includes('"model.fail\n{"event_id"'), "the torn line ends before the new one");
  });
});

Deno.test("readEventLog() leaves a line still being written (no newline yet) for the next read", async () => {
  await withDir(async (net) => {
    const first = await appendEvent(net, failover("a"));
    const line = JSON.stringify({ ...failover("b"), event_id: "9999999999999-000000" });
    await Deno.writeTextFile(eventsFile(net), line, { append: true });
    assert.deepEqual((await readEventLog(net)).map((e) => e.event_id), [first.event_id]);
    await Deno.writeTextFile(eventsFile(net), "\n", { append: true });
    assert.deepEqual((await readEventLog(net)).map(role), ["a", "b"]);
  });
});

Deno.test("appendEvents() trims the file to the last 200 once it passes 250, keeping the ids", async () => {
  await withDir(async (net) => {
    const all = (await appendEvents(
      net,
      Array.from({ length: EVENTS_MAX + 50 }, (_, i) => failover(`r${i}`)),
    )).appended;
    assert.equal((await readEventLog(net)).length, EVENTS_MAX + 50);
    const last = await appendEvent(net, failover("last"));
    const kept = await readEventLog(net);
    assert.equal(kept.length, EVENTS_MAX);
    assert.deepEqual(kept.at(-1), last);
    assert.deepEqual(kept[0], all[51]);
    // The next id still rises past everything kept.
    assert.ok((await appendEvent(net, failover("after"))).event_id > last.event_id);
  });
});

Deno.test("appendEvents() from concurrent callers in one process: unique ids, rising in file order", async () => {
  await withDir(async (net) => {
    const now = () => 1_767_225_600_000; // one millisecond for all: the sequence must do it
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => appendEvent(net, failover(`c${i}`), { now })),
    );
    const ids = (await readEventLog(net)).map((e) => e.event_id);
    assert.equal(ids.length, 30);
    assert.equal(new Set(ids).size, 30);
    assert.deepEqual([...ids].sort(), ids);
  });
});
