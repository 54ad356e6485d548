/**
 * Cloud mode on one local workerd (Miniflare, the Worker's own socket):
 * - state `PUT` then `GET` of one small document, p50 and p99 of the pair;
 * - session message appends per second (`POST .../messages`, 16 concurrent clients);
 *   goal: at least 500/s;
 * - `agent cloud run` from spawn to a healthy `/health` (pull, rewrite, hub start; no
 *   container start); goal: under 2 s (median of 5 runs);
 * - 50 starts of `agent cloud run`, each SIGTERMed at a random moment of its start;
 *   goal: all 50 exit 0 with no `hub.lock` or temporary file left (issue 27 R1).
 *
 * Run: `deno task bench cloud`. Prints `<metric>: <value>`.
 *
 * @module
 */
import { percentile } from "./_stats.ts";
import { startSpine } from "../spine/_harness.ts";
import { cleanup } from "../cli/_run.ts";
import { cloud, CLOUD_TOKEN, cloudHome, cloudSpine, runBrain } from "../cloud/_cloud.ts";
import { sigtermLine, sigtermStarts } from "../cloud/_sigterm_starts.ts";

const PAIRS = 300;
const MESSAGES = 3_000;
const CONCURRENCY = 16;
const RUNS = 5;

const spine = await startSpine({ hubToken: CLOUD_TOKEN, mode: "cloud", direct: true });
const base = spine.directUrl!;
const auth = { authorization: `Bearer ${CLOUD_TOKEN}` };
try {
  const pairs: number[] = [];
  const value = { contacts: [{ address: "bob.example", name: "Bob", state: "accepted" }] };
  for (let i = 0; i < PAIRS; i++) {
    const t0 = performance.now();
    const put = await fetch(`${base}/hub/state/net.contacts`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({ value: { ...value, i } }),
    });
    await put.body?.cancel();
    const got = await fetch(`${base}/hub/state/net.contacts`, { headers: auth });
    await got.json();
    if (!put.ok || !got.ok) throw new Error(`state: HTTP ${put.status}/${got.status}`);
    pairs.push(performance.now() - t0);
  }
  console.log(`state PUT+GET p50: ${percentile(pairs, 50).toFixed(2)} ms`);
  console.log(`state PUT+GET p99: ${percentile(pairs, 99).toFixed(2)} ms`);

  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, { method: "POST", headers: auth, body: JSON.stringify(body) });
  await (await post("/hub/sessions", { session_id: "bench", data: {} })).body?.cancel();
  await (await post("/hub/sessions/bench/agents", { agent_id: "main", data: {} })).body?.cancel();
  const message = { role: "assistant", content: [{ type: "text", text: "x".repeat(400) }] };
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < MESSAGES) {
      const id = next++;
      const r = await post("/hub/sessions/bench/agents/main/messages", {
        message_id: id,
        data: message,
      });
      await r.body?.cancel();
      if (r.status !== 201) throw new Error(`append ${id}: HTTP ${r.status}`);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const rate = MESSAGES / seconds;
  console.log(
    `session message appends: ${rate.toFixed(0)}/s (${MESSAGES} in ${
      seconds.toFixed(2)
    } s; goal ≥ 500/s)`,
  );
} finally {
  await spine.stop();
}

const { spine: cloudOne, brainPort } = await cloudSpine();
try {
  const home = await cloudHome(cloudOne);
  const pushed = await cloud(home, ["push", "-y"]);
  if (pushed.code !== 0) throw new Error(pushed.stderr);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const empty = await Deno.makeTempDir({ prefix: "agent-cloud-bench-" });
    const brain = await runBrain(empty, brainPort, {
      AGENT_SPINE_URL: cloudOne.url,
      AGENT_SPINE_TOKEN: CLOUD_TOKEN,
    });
    times.push(brain.healthyAfterMs);
    const end = await brain.stop();
    if (end.code !== 0) throw new Error(end.stderr);
    await Deno.remove(empty, { recursive: true });
  }
  console.log(
    `agent cloud run to healthy /health: median ${percentile(times, 50).toFixed(0)} ms ` +
      `(runs: ${times.map((t) => t.toFixed(0)).join(", ")} ms; goal < 2000 ms)`,
  );
  const signals = await sigtermStarts(cloudOne.url, brainPort, 50);
  console.log(sigtermLine(signals));
  if (signals.clean !== signals.starts.length) throw new Error("an unclean exit on SIGTERM");
} finally {
  await cloudOne.stop();
  await cleanup();
}
