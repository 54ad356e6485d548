/**
 * Owner-event latency, hub to a server-sent-events client in another process, over
 * 1,000 events per path, against the old way in the same run (a reader polling
 * `events.jsonl` every 2 s, as the messenger did):
 *
 * - `in_process`: the hub publishes on its bus; the control API's `GET /events` streams
 *   it to a `subscribeHubEvents()` client in a separate process.
 * - `file_watch`: another process appends to the events file (a CLI command); the
 *   hub's watcher picks the line up and streams it to the same kind of client.
 * - `polling_2s`: the old loop, `readNetEvents()` every 2 s, events written every 20 ms.
 *
 * Goal: p99 under 50 ms on both new paths.
 *
 * Run: `deno task bench events` (or this file directly).
 *
 * @module
 */
import { percentile } from "./_stats.ts";
import { AGENT_FLAGS } from "../_agent_flags.ts";
import {
  appendNetEvent,
  controlHandler,
  OwnerEventBus,
  readNetEvents,
  writeHubToken,
} from "@agent/hub";

const EVENTS = Number(Deno.env.get("BENCH_EVENTS") ?? "1000");
const GAP_MS = 3;
const POLL_MS = 2_000;
const WRITE_EVERY_MS = 20;
const PEER = new URL("./_events_peer.ts", import.meta.url).pathname;

const wall = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the client process; resolves its latencies once it has heard `count` events. */
async function startClient(port: number, count: number) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...AGENT_FLAGS,
      PEER,
      "client",
      String(port),
      String(count),
      tokenFile,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const opened = Promise.withResolvers<void>();
  const latencies = (async () => {
    const out: number[] = [];
    while (true) {
      const { value, done } = await lines.read();
      if (done) break;
      buffer += value;
      let at: number;
      while ((at = buffer.indexOf("\n")) !== -1) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        if (line === "open") opened.resolve();
        else out.push(Number(line));
      }
    }
    const status = await child.status;
    if (!status.success) throw new Error(`the client process failed (${status.code})`);
    return out;
  })();
  latencies.catch((error) => opened.reject(error));
  await opened.promise;
  // Wrapped: an async function returning the promise itself would wait for it.
  return { latencies };
}

function describe(name: string, values: number[]): { p50: number; p99: number } {
  const p50 = percentile(values, 50);
  const p99 = percentile(values, 99);
  console.log(
    `${name}_ms: p50 ${p50.toFixed(2)}, p99 ${p99.toFixed(2)}, max ${
      Math.max(...values).toFixed(2)
    } (${values.length} events)`,
  );
  return { p50, p99 };
}

const dir = await Deno.makeTempDir({ prefix: "agent-bench-events-" });
const netDir = `${dir}/net`;
const bus = await OwnerEventBus.open(netDir);
const tokenFile = `${dir}/hub.token`;
const token = await writeHubToken(tokenFile);
const closing = new AbortController();
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: () => {} },
  controlHandler({
    pid: Deno.pid,
    version: "bench",
    startedAt: Date.now(),
    home: dir,
    dataDir: dir,
    port: 0,
    token,
    now: Date.now,
    heartbeatAt: () => undefined,
    spend: () => ({}),
    net: () => ({}),
    ownerEvents: bus,
    closing: closing.signal,
  }),
);
const port = server.addr.port;
try {
  // In process: the hub publishes, one event every few ms.
  const heardInProcess = await startClient(port, EVENTS);
  for (let i = 0; i < EVENTS; i++) {
    await bus.publish({
      ts: Math.floor(Date.now() / 1000),
      type: "model.failover",
      role: "brain",
      stand_in: "fast",
      text: String(wall()),
    });
    await sleep(GAP_MS);
  }
  const inProcess = await heardInProcess.latencies;

  // File watch: another process appends; the hub's watcher passes the lines on.
  const heardWatched = await startClient(port, EVENTS);
  const writer = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...AGENT_FLAGS,
      PEER,
      "writer",
      netDir,
      String(EVENTS),
      String(GAP_MS),
    ],
    stdout: "null",
    stderr: "inherit",
  }).output();
  if (!writer.success) throw new Error("the writer process failed");
  const watched = await heardWatched.latencies;

  // The old way: read the file every 2 s; events written every 20 ms meanwhile.
  const polled: number[] = [];
  let after = Math.floor(Date.now() / 1000) + 1;
  const seen = new Set<string>();
  await sleep((after * 1000) - Date.now());
  const stopPolling = new AbortController();
  const poller = (async () => {
    while (!stopPolling.signal.aborted) {
      await sleep(POLL_MS);
      const now = wall();
      for (const event of await readNetEvents(netDir, after - 1)) {
        if (seen.has(event.event_id) || event.type !== "budget.warning") continue;
        seen.add(event.event_id);
        polled.push(now - Number(event.text));
        after = Math.max(after, event.ts);
      }
    }
  })();
  for (let i = 0; i < EVENTS; i++) {
    await appendNetEvent(netDir, {
      ts: Math.floor(Date.now() / 1000),
      type: "budget.warning",
      role: "brain",
      spent_usd: 1,
      cap_usd: 2,
      period: "month",
      text: String(wall()),
    });
    // Slow enough that no event is trimmed from the file before a read finds it.
    await sleep(WRITE_EVERY_MS);
  }
  // Two more rounds, so the last events are read; then the loop ends.
  const deadline = Date.now() + 2 * POLL_MS + 500;
  while (polled.length < EVENTS && Date.now() < deadline) await sleep(100);
  stopPolling.abort();
  await poller;

  console.log(
    `events: ${EVENTS} per path, one every ${GAP_MS} ms (polling: every ${WRITE_EVERY_MS} ms)`,
  );
  const a = describe("in_process", inProcess);
  const b = describe("file_watch", watched);
  const old = describe("polling_2s", polled);
  console.log(
    `ratio to polling_2s (p50/p99): in_process ${(old.p50 / a.p50).toFixed(0)}x/${
      (old.p99 / a.p99).toFixed(0)
    }x faster, file_watch ${(old.p50 / b.p50).toFixed(0)}x/${(old.p99 / b.p99).toFixed(0)}x faster`,
  );
  console.log("goal: p99 < 50 ms on in_process and file_watch");
  if (a.p99 >= 50 || b.p99 >= 50) Deno.exitCode = 1;
} finally {
  closing.abort();
  await server.shutdown();
  await bus.close();
  await Deno.remove(dir, { recursive: true });
}
