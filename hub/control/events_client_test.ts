import assert from "node:assert/strict";
import { type NetEvent, type OwnerEvent, OwnerEventBus } from "../events/mod.ts";
import { controlHandler } from "./handler.ts";
import { HubEventsError, subscribeHubEvents } from "./events_client.ts";
import { writeHubToken } from "./token.ts";
import { until } from "../../tests/_poll.ts";

function tokenFileOf(bus: OwnerEventBus): string {
  return `${bus.netDir}/hub.token`;
}

function failover(role: string): NetEvent {
  return { ts: 1_767_225_600, type: "model.failover", role, stand_in: "fast", text: role };
}

/**
 * The control API over `bus` on `port` (0: any), until `stop()`; like a hub, it writes
 * a fresh token to `<netDir>/hub.token` at each start.
 */
async function serveBus(bus: OwnerEventBus, port = 0) {
  const token = await writeHubToken(tokenFileOf(bus));
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port, onListen: () => {} },
    controlHandler({
      pid: 1,
      version: "0",
      startedAt: 0,
      home: "/h",
      dataDir: "/h",
      port,
      token,
      now: Date.now,
      heartbeatAt: () => undefined,
      spend: () => ({}),
      net: () => ({}),
      ownerEvents: bus,
      closing: closing.signal,
    }),
  );
  return {
    port: server.addr.port,
    async stop() {
      closing.abort();
      await server.shutdown();
    },
  };
}

Deno.test("subscribeHubEvents() hears events, reconnects after the hub restarts and resumes with nothing lost or doubled", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-events-client-" });
  const bus = await OwnerEventBus.open(`${dir}/net`, { watch: false });
  let server = await serveBus(bus);
  const port = server.port;
  const stop = new AbortController();
  const heard: OwnerEvent[] = [];
  let opens = 0;
  const errors: number[] = [];
  const listening = subscribeHubEvents(port, {
    signal: stop.signal,
    tokenFile: tokenFileOf(bus),
    onEvent: (event) => heard.push(event),
    onOpen: () => opens++,
    onError: (_error, retryInMs) => errors.push(retryInMs),
    retryMs: 20,
    maxRetryMs: 100,
  });
  try {
    await until("the first connect", () => opens === 1);
    const published = [await bus.publish(failover("a")), await bus.publish(failover("b"))];
    await until("two events", () => heard.length === 2);
    // The hub goes away; events happen while it is down (another process appends).
    await server.stop();
    for (const r of ["c", "d", "e"]) published.push(await bus.publish(failover(r)));
    await until("a failed reconnect", () => errors.length >= 2);
    assert.ok(errors[1]! >= errors[0]!, `backoff grows: ${errors}`);
    server = await serveBus(bus, port);
    await until("the missed events", () => heard.length === 5);
    assert.equal(opens, 2);
    published.push(await bus.publish(failover("f")));
    await until("the live one", () => heard.length === 6);
    assert.deepEqual(heard, published);
  } finally {
    stop.abort();
    await listening;
    await server.stop();
    await bus.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("subscribeHubEvents() started for new events only resumes from where the stream stood, even before any event", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-events-client-" });
  const bus = await OwnerEventBus.open(`${dir}/net`, { watch: false });
  const old = await bus.publish(failover("before the client"));
  let server = await serveBus(bus);
  const port = server.port;
  const stop = new AbortController();
  const heard: string[] = [];
  let opens = 0;
  const listening = subscribeHubEvents(port, {
    signal: stop.signal,
    tokenFile: tokenFileOf(bus),
    onEvent: (event) => heard.push(event.event_id),
    onOpen: () => opens++,
    retryMs: 20,
  });
  try {
    await until("connected", () => opens === 1 && bus.subscribers === 1);
    await server.stop();
    const missed = await bus.publish(failover("while away"));
    server = await serveBus(bus, port);
    await until("the missed event", () => heard.length === 1);
    assert.deepEqual(heard, [missed.event_id]);
    assert.ok(!heard.includes(old.event_id));
  } finally {
    stop.abort();
    await listening;
    await server.stop();
    await bus.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("subscribeHubEvents() rejects when the hub refuses the stream (a bad id), and resolves on abort", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-events-client-" });
  const bus = await OwnerEventBus.open(`${dir}/net`, { watch: false });
  const server = await serveBus(bus);
  try {
    await assert.rejects(
      subscribeHubEvents(server.port, {
        signal: new AbortController().signal,
        tokenFile: tokenFileOf(bus),
        lastEventId: "not-an-id",
        onEvent: () => {},
      }),
      (error) => error instanceof HubEventsError && error.status === 400,
    );
    const stop = new AbortController();
    let opened = false;
    const listening = subscribeHubEvents(server.port, {
      signal: stop.signal,
      tokenFile: tokenFileOf(bus),
      onEvent: () => {},
      onOpen: () => opened = true,
    });
    await until("open", () => opened);
    stop.abort();
    await listening;
    await until("the hub lets go", () => bus.subscribers === 0);
  } finally {
    await server.stop();
    await bus.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("subscribeHubEvents() parses CRLF and CR line ends, split chunks, multi-line data, comments and foreign data", async () => {
  const parts = [
    ': hello\r\n\r\nid: 1767225600000-000000\r\nevent: model.failover\r\ndata: {"ts":1,',
    '"type":"model.failover","role":"a","stand_in":"b","text":"x",',
    '"event_id":"1767225600000-000000"}\r',
    "\n\r\n",
    ": truncated: gone\n\n",
    "data: not json\nid: 1767225600000-000001\n\n",
    'id: 1767225600000-000002\rdata: {"ts":2,\rdata: "type":"net.outbox_dropped"}\r\r',
  ];
  let requests = 0;
  let lastIdSent: string | null = null;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    requests++;
    lastIdSent = request.headers.get("last-event-id");
    if (requests > 1) return new Response(null, { status: 404 });
    const encoder = new TextEncoder();
    return new Response(
      new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(encoder.encode(part));
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  });
  const heard: unknown[] = [];
  let truncated = 0;
  try {
    await assert.rejects(
      subscribeHubEvents(server.addr.port, {
        signal: new AbortController().signal,
        onEvent: (event) => heard.push(event),
        onTruncated: () => truncated++,
        retryMs: 1,
      }),
      HubEventsError, // the second connect answers 404
    );
    assert.deepEqual(heard, [
      {
        ts: 1,
        type: "model.failover",
        role: "a",
        stand_in: "b",
        text: "x",
        event_id: "1767225600000-000000",
      },
      { ts: 2, type: "net.outbox_dropped" },
    ]);
    assert.equal(truncated, 1);
    // The reconnect asked for what came after the last id seen.
    assert.equal(lastIdSent, "1767225600000-000002");
  } finally {
    await server.shutdown();
  }
});
