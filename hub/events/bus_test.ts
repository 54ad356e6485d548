import assert from "node:assert/strict";
import { Logger } from "../log.ts";
import { OwnerEventBus } from "./bus.ts";
import { appendEvent, appendEvents, eventsFile, readEventLog } from "./log.ts";
import { EVENTS_MAX, type NetEvent, type OwnerEvent } from "./types.ts";
import { until } from "../../tests/_poll.ts";

function failover(role: string): NetEvent {
  return { ts: 1_767_225_600, type: "model.failover", role, stand_in: "fast", text: role };
}

function role(event: OwnerEvent): string {
  return event.type === "model.failover" ? event.role : "?";
}

const ids = (events: OwnerEvent[]) => events.map((e) => e.event_id);

async function withDir(fn: (net: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "agent-events-bus-" });
  try {
    await fn(`${dir}/net`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const quiet = new Logger({ stderr: "off" });

Deno.test("OwnerEventBus.publish() appends first, then tells every subscriber before it returns, in order", async () => {
  await withDir(async (net) => {
    const bus = await OwnerEventBus.open(net, { watch: false });
    const a: OwnerEvent[] = [];
    const b: string[] = [];
    bus.subscribe((event) => a.push(event));
    bus.subscribe((event) => {
      // The event is in the file by the time anyone hears it.
      const text = Deno.readTextFileSync(eventsFile(net));
      b.push(text.includes(`"event_id":"${event.event_id}"`) ? "durable" : "not yet");
    });
    const first = await bus.publish(failover("one"));
    assert.deepEqual(a, [first]);
    await bus.publish(failover("two"));
    await bus.publish(failover("three"));
    assert.deepEqual(a.map(role), ["one", "two", "three"]);
    assert.deepEqual(ids(a), ids(await readEventLog(net)));
    assert.deepEqual([...ids(a)].sort(), ids(a));
    assert.equal(bus.lastId(), a[2]!.event_id);
    await bus.close();
    assert.deepEqual(b, ["durable", "durable", "durable"]);
  });
});

Deno.test("OwnerEventBus.subscribe({after}) delivers the history after the id at once, then live, with no gap or duplicate", async () => {
  await withDir(async (net) => {
    const bus = await OwnerEventBus.open(net, { watch: false });
    const published: OwnerEvent[] = [];
    for (const r of ["1", "2", "3", "4", "5"]) published.push(await bus.publish(failover(r)));
    const heard: OwnerEvent[] = [];
    bus.subscribe((e) => heard.push(e), { after: published[1]!.event_id });
    assert.deepEqual(heard.map(role), ["3", "4", "5"]); // synchronously, before any await
    published.push(await bus.publish(failover("6")));
    assert.deepEqual(heard.map(role), ["3", "4", "5", "6"]);
    // `""` means all that is kept; an id newer than all means nothing until the next.
    const all: string[] = [];
    bus.subscribe((e) => all.push(role(e)), { after: "" });
    assert.deepEqual(all, ["1", "2", "3", "4", "5", "6"]);
    const none: string[] = [];
    bus.subscribe((e) => none.push(role(e)), { after: "9999999999999-000000" });
    await bus.publish(failover("7"));
    assert.deepEqual(none, []);
    await bus.close();
  });
});

Deno.test("OwnerEventBus: subscribers that join while publishes are in flight each get every later event exactly once", async () => {
  await withDir(async (net) => {
    const bus = await OwnerEventBus.open(net, { watch: false });
    const joined: { after: string | undefined; heard: OwnerEvent[] }[] = [];
    const publishing: Promise<OwnerEvent>[] = [];
    for (let i = 0; i < 40; i++) {
      publishing.push(bus.publish(failover(`e${i}`)));
      // Join at a point in the middle of the publishes, from where the bus is now.
      if (i % 3 === 0) {
        const entry = { after: bus.lastId(), heard: [] as OwnerEvent[] };
        bus.subscribe((e) => entry.heard.push(e), entry.after ? { after: entry.after } : {});
        joined.push(entry);
      }
      if (i % 4 === 0) await new Promise((r) => setTimeout(r, i % 8 === 0 ? 1 : 0));
    }
    const all = await Promise.all(publishing);
    assert.deepEqual(ids(all), ids(await readEventLog(net)));
    for (const { after, heard } of joined) {
      const expected = all.filter((e) => after === undefined || e.event_id > after);
      assert.deepEqual(ids(heard), ids(expected), `joined after ${after}`);
    }
    await bus.close();
  });
});

Deno.test("OwnerEventBus: two writers on one file (two buses) pick unique rising ids and both hear everything in file order", async () => {
  await withDir(async (net) => {
    const one = await OwnerEventBus.open(net, { logger: quiet });
    const two = await OwnerEventBus.open(net, { logger: quiet });
    const heardOne: OwnerEvent[] = [];
    const heardTwo: OwnerEvent[] = [];
    one.subscribe((e) => heardOne.push(e), { after: "" });
    two.subscribe((e) => heardTwo.push(e), { after: "" });
    await Promise.all(
      Array.from(
        { length: 40 },
        (_, i) =>
          (i % 2 === 0 ? one : two).publish(failover(`${i % 2 === 0 ? "one" : "two"}-${i}`)),
      ),
    );
    const file = await readEventLog(net);
    assert.equal(file.length, 40);
    assert.equal(new Set(ids(file)).size, 40);
    assert.deepEqual([...ids(file)].sort(), ids(file));
    await until("both buses hear all 40", () => heardOne.length === 40 && heardTwo.length === 40);
    assert.deepEqual(ids(heardOne), ids(file));
    assert.deepEqual(ids(heardTwo), ids(file));
    await one.close();
    await two.close();
  });
});

Deno.test("OwnerEventBus: a line another process appends reaches the subscribers through the watcher", async () => {
  await withDir(async (net) => {
    const bus = await OwnerEventBus.open(net, { logger: quiet });
    const heard: OwnerEvent[] = [];
    bus.subscribe((e) => heard.push(e));
    const outside = await appendEvent(net, failover("from the CLI"));
    await until("the watcher's delivery", () => heard.length === 1);
    assert.deepEqual(heard, [outside]);
    // A line still being written is not delivered until it ends.
    const next = JSON.stringify({ ...failover("half"), event_id: "9999999999999-000000" });
    await Deno.writeTextFile(eventsFile(net), next.slice(0, 20), { append: true });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(heard.length, 1);
    await Deno.writeTextFile(eventsFile(net), next.slice(20) + "\n", { append: true });
    await until("the finished line", () => heard.length === 2);
    assert.equal(role(heard[1]!), "half");
    await bus.close();
  });
});

Deno.test("OwnerEventBus: catch-up from an id trimmed away delivers all that is kept and says so", async () => {
  await withDir(async (net) => {
    const { appended } = await appendEvents(
      net,
      Array.from({ length: EVENTS_MAX + 51 }, (_, i) => failover(`r${i}`)),
    );
    const bus = await OwnerEventBus.open(net, { watch: false });
    const kept = await readEventLog(net);
    assert.equal(kept.length, EVENTS_MAX);
    let truncated = 0;
    const heard: OwnerEvent[] = [];
    bus.subscribe((e) => heard.push(e), {
      after: appended[0]!.event_id,
      onTruncated: () => truncated++,
    });
    assert.equal(truncated, 1);
    assert.deepEqual(ids(heard), ids(kept));
    // From an id that is still there: no flag, the rest only.
    let flagged = false;
    const rest: OwnerEvent[] = [];
    bus.subscribe((e) => rest.push(e), {
      after: kept[150]!.event_id,
      onTruncated: () => flagged = true,
    });
    assert.equal(flagged, false);
    assert.deepEqual(ids(rest), ids(kept.slice(151)));
    await bus.close();
  });
});

Deno.test("OwnerEventBus: a history never trimmed is not called truncated", async () => {
  await withDir(async (net) => {
    await appendEvents(net, [failover("a"), failover("b")]);
    const bus = await OwnerEventBus.open(net, { watch: false });
    let flagged = false;
    const heard: string[] = [];
    bus.subscribe((e) => heard.push(role(e)), { after: "", onTruncated: () => flagged = true });
    assert.deepEqual([heard, flagged], [["a", "b"], false]);
    await bus.close();
  });
});

Deno.test("OwnerEventBus: a throwing listener is logged and the others still hear; close() ends subscriptions", async () => {
  await withDir(async (net) => {
    const lines: string[] = [];
    const logger = new Logger({ stderr: "off" });
    const warn = logger.warn.bind(logger);
    logger.warn = (line: string) => (lines.push(line), warn(line));
    const bus = await OwnerEventBus.open(net, { logger });
    const heard: string[] = [];
    let closed = 0;
    bus.subscribe(() => {
      throw new Error("boom");
    });
    const sub = bus.subscribe((e) => heard.push(role(e)), { onClose: () => closed++ });
    await bus.publish(failover("x"));
    assert.deepEqual(heard, ["x"]);
    assert.ok(lines.some((l) => l.includes("a subscriber failed: boom")), lines.join("\n"));
    assert.equal(bus.subscribers, 2);
    await bus.close();
    assert.equal(closed, 1);
    assert.equal(bus.subscribers, 0);
    sub.close(); // idempotent
    // Publishing after close still writes the history.
    await bus.publish(failover("late"));
    assert.deepEqual((await readEventLog(net)).map(role), ["x", "late"]);
    assert.deepEqual(heard, ["x"]);
  });
});
