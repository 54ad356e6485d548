import assert from "node:assert/strict";
import { EventReplay, frame, lastEventId, sseResponse, type SseWriter } from "./sse.ts";

/** Reads a stream's text until `seen` holds or it ends. */
async function readUntil(res: Response, seen: (text: string) => boolean): Promise<string> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!seen(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text;
}

Deno.test("frame() writes id, event and one data line per line; ids and names lose their newlines", () => {
  assert.equal(
    frame({ id: "7", event: "x", data: "a\nb\r\nc" }),
    "id: 7\nevent: x\ndata: a\ndata: b\ndata: c\n\n",
  );
  assert.equal(frame({ data: "" }), "data: \n\n");
  assert.equal(frame({ id: "1\n2", event: "e\rv", data: "d" }), "id: 12\nevent: ev\ndata: d\n\n");
});

Deno.test("sseResponse() opens with a comment and retry, sends events and marks, beats, and unsubscribes once", async () => {
  let ended = 0;
  const res = sseResponse((out) => {
    out.mark("5");
    out.send({ id: "6", event: "hello", data: "{}" });
    return () => ended++;
  }, { heartbeatMs: 10, retryMs: 1500 });
  assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
  assert.equal(res.headers.get("cache-control"), "no-store");
  const text = await readUntil(res, (t) => t.includes(": ping"));
  assert.ok(
    text.startsWith(": connected\nretry: 1500\n\nid: 5\n\nid: 6\nevent: hello\ndata: {}\n\n"),
    text,
  );
  assert.equal(ended, 1, "the client went away: unsubscribed");
});

Deno.test("sseResponse() ends when its signal aborts or the writer closes; a send after that is refused", async () => {
  const stop = new AbortController();
  let writer: SseWriter | undefined;
  let ended = 0;
  const res = sseResponse((out) => {
    writer = out;
    return () => ended++;
  }, { signal: stop.signal });
  const reading = readUntil(res, () => false);
  stop.abort();
  assert.match(await reading, /^: connected/);
  assert.equal(writer!.send({ data: "late" }), false);
  assert.equal(ended, 1);
  const closed = sseResponse((out) => {
    out.send({ data: "only" });
    out.close();
    return () => ended++;
  });
  assert.match(await closed.text(), /data: only\n\n$/);
  assert.equal(ended, 2);
});

Deno.test("sseResponse() drops a client that reads nothing once too many bytes wait (back-pressure)", async () => {
  let out: SseWriter | undefined;
  let ended = 0;
  const res = sseResponse((o) => {
    out = o;
    return () => ended++;
  }, { maxBehindBytes: 4096 });
  let sent = 0;
  // The client never reads: the stream ends after a few KiB instead of growing.
  while (out!.send({ id: String(sent), data: "x".repeat(500) })) sent++;
  assert.ok(sent > 4 && sent < 200, String(sent));
  assert.equal(out!.signal.aborted, true);
  assert.equal(ended, 1);
  // What was queued is still delivered, then the stream ends: the client resumes from
  // its last id.
  const text = await res.text();
  assert.match(text, new RegExp(`id: ${sent}\\n`));
});

Deno.test("lastEventId() reads Last-Event-ID, else ?after=; nothing for neither", () => {
  const url = new URL("http://x/s?after=9");
  assert.equal(lastEventId(new Request(url, { headers: { "last-event-id": " 7 " } }), url), "7");
  assert.equal(lastEventId(new Request(url), url), "9");
  const bare = new URL("http://x/s");
  assert.equal(lastEventId(new Request(bare), bare), undefined);
});

Deno.test("EventReplay numbers events and gives those after an id; a foreign or trimmed id is undefined", () => {
  const replay = new EventReplay({ keep: 3 });
  const ids = ["a", "b", "c", "d", "e"].map((d) => replay.push(d).id);
  assert.equal(replay.lastId(), ids[4]);
  assert.deepEqual(replay.after(ids[2]!)!.map((e) => e.data), ["d", "e"]);
  assert.deepEqual(replay.after(ids[4]!), []);
  assert.deepEqual(replay.after("")!.map((e) => e.data), ["c", "d", "e"]);
  // ids[1]'s successor (c) is kept: nothing was lost after it.
  assert.deepEqual(replay.after(ids[1]!)!.map((e) => e.data), ["c", "d", "e"]);
  assert.equal(replay.after(ids[0]!), undefined, "b was trimmed");
  assert.equal(replay.after("other-3"), undefined, "another process's id");
  assert.equal(replay.after(`${ids[0]!.split("-")[0]}-99`), undefined, "not yet given");
  assert.equal(replay.after("nonsense"), undefined);
});

Deno.test("EventReplay.response() resumes after Last-Event-ID, says reset for an unknown id, then goes live", async () => {
  const replay = new EventReplay();
  const first = replay.push("one");
  replay.push("two");
  const url = new URL("http://x/desk");
  const resumed = replay.response(
    new Request(url, { headers: { "last-event-id": first.id } }),
    url,
  );
  setTimeout(() => replay.push("three"), 20);
  const text = await readUntil(resumed, (t) => t.includes("data: three"));
  assert.ok(!text.includes("data: one"), text);
  assert.match(text, /data: two\n\n[^]*data: three\n\n/);
  const fresh = replay.response(new Request(url), url);
  const head = await readUntil(fresh, (t) => /id: \S+\n\n/.test(t));
  assert.ok(head.includes(`id: ${replay.lastId()}\n\n`), head);
  const lost = replay.response(new Request(url, { headers: { "last-event-id": "x-1" } }), url);
  assert.match(await readUntil(lost, (t) => t.includes("reset")), /: reset: /);
});

Deno.test("EventReplay: one subscriber's failure is not the others'", () => {
  const replay = new EventReplay();
  const heard: string[] = [];
  replay.subscribe(() => {
    throw new Error("boom");
  });
  replay.subscribe((e) => heard.push(e.data));
  replay.push("x");
  assert.deepEqual(heard, ["x"]);
});
