import assert from "node:assert/strict";
import { resolvePaths } from "../paths.ts";
import { Logger } from "../log.ts";
import { appendNetEvent } from "../network/events.ts";
import { type OwnerEvent, OwnerEventBus } from "../events/mod.ts";
import { subscribeHubEvents } from "../control/events_client.ts";
import { runHub } from "./run.ts";
import { until } from "../../tests/_poll.ts";

Deno.test("runHub() serves GET /events from its bus and ends open streams when it stops", async () => {
  const home = await Deno.makeTempDir({ prefix: "agent-run-events-" });
  const paths = resolvePaths({ env: { AGENT_HOME: home } });
  const logger = new Logger({ stderr: "off" });
  const bus = await OwnerEventBus.open(paths.netDir, { logger });
  const stop = new AbortController();
  const listening = Promise.withResolvers<number>();
  const done = runHub({
    paths,
    lang: "en",
    logger,
    port: 0,
    version: "0.1.0",
    out: () => {},
    err: () => {},
    spend: () => ({}),
    net: () => ({}),
    ownerEvents: bus,
    listenSignals: false,
    signal: stop.signal,
    onListen: (port) => listening.resolve(port),
  });
  const port = await listening.promise;
  const client = new AbortController();
  const heard: OwnerEvent[] = [];
  const opened = Promise.withResolvers<void>();
  let dropped = 0;
  const listener = subscribeHubEvents(port, {
    signal: client.signal,
    tokenFile: paths.hubTokenFile,
    onEvent: (event) => heard.push(event),
    onOpen: () => opened.resolve(),
    onError: () => dropped++,
    retryMs: 50,
  });
  try {
    await opened.promise;
    const inHub = await bus.publish({
      ts: 1,
      type: "model.failover",
      role: "brain",
      stand_in: "fast",
      text: "in the hub",
    });
    // Written by another writer of the folder (a CLI command): the hub's watcher passes it on.
    const outside = await appendNetEvent(paths.netDir, {
      ts: 2,
      type: "net.outbox_dropped",
      address: "b.example",
      id: "m1",
      text: "from outside",
    });
    await until("both events heard", () => heard.length === 2);
    assert.deepEqual(heard, [inHub, outside]);
    const started = performance.now();
    stop.abort();
    assert.equal(await done, 0);
    // The open stream did not hold the shutdown.
    assert.ok(performance.now() - started < 5_000);
    await until("a dropped subscriber", () => dropped > 0);
  } finally {
    client.abort();
    await listener;
    stop.abort();
    await done;
    await bus.close();
    await Deno.remove(home, { recursive: true });
  }
});
