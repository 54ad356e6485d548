/**
 * The other process of `events_bench.ts`:
 *
 * - `client <port> <count> <token file>`: listens to the hub's `GET /events` with
 *   `subscribeHubEvents()`, prints `open` once connected, then one line per event: the
 *   milliseconds from the moment the event was handed to the hub (its `text`, a wall
 *   clock reading) to its arrival here; exits after `count` events.
 * - `writer <net dir> <count> <gap ms>`: appends `count` events to the file as a CLI
 *   command does, one every `gap` ms, each stamped with the wall clock before the append.
 *
 * Wall clock: `performance.timeOrigin + performance.now()` (sub-millisecond, shared by
 * the processes of one machine).
 *
 * @module
 */
import { appendNetEvent, subscribeHubEvents } from "@agent/hub";

const wall = () => performance.timeOrigin + performance.now();
const [mode, a, b, c] = Deno.args;

if (mode === "client") {
  const stop = new AbortController();
  let left = Number(b);
  await subscribeHubEvents(Number(a), {
    signal: stop.signal,
    tokenFile: c!,
    onOpen: () => console.log("open"),
    onEvent(event) {
      console.log((wall() - Number(event.text)).toFixed(3));
      if (--left === 0) stop.abort();
    },
  });
} else if (mode === "writer") {
  for (let i = 0; i < Number(b); i++) {
    await appendNetEvent(a!, {
      ts: Math.floor(Date.now() / 1000),
      type: "model.failover",
      role: "brain",
      stand_in: "fast",
      text: String(wall()),
    });
    await new Promise((r) => setTimeout(r, Number(c)));
  }
} else {
  console.error("usage: _events_peer.ts client <port> <count> | writer <net dir> <count> <gap ms>");
  Deno.exit(2);
}
