/**
 * The cloud ledger on one local workerd (Miniflare, the Worker's own socket):
 * - one row appended (`POST /hub/ledger`, what the brain sends after each call), p50
 *   and p99 (sent in the background after the answer; the budget check reads the local
 *   ledger, so this time is never on a call's path);
 * - a new container's read-back of 5,000 rows (`GET /hub/ledger`, 500 a page).
 *
 * Run: `deno task bench cloud_ledger`. Prints `<metric>: <value>`.
 *
 * @module
 */
import { CloudLedger } from "@agent/hub/money";
import { percentile } from "./_stats.ts";
import { startSpine } from "../spine/_harness.ts";
import { CLOUD_TOKEN } from "../cloud/_cloud.ts";

const APPENDS = 500;
const ROWS = 5_000;

const spine = await startSpine({ hubToken: CLOUD_TOKEN, mode: "cloud", direct: true });
const base = spine.directUrl!;
const row = (i: number) => ({
  call_id: `bench-${i}`,
  ts: Date.now(),
  role: "brain",
  provider: "vendor-a",
  model_id: "claude-sonnet-5",
  input_tokens: 1200,
  output_tokens: 300,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  usd: 0.0081,
  estimated: false,
  channel: "messenger",
  session_id: "messenger-1",
  peer: null,
});
try {
  const post = (rows: unknown[]) =>
    fetch(`${base}/hub/ledger`, {
      method: "POST",
      headers: { authorization: `Bearer ${CLOUD_TOKEN}` },
      body: JSON.stringify({ rows }),
    });
  for (let i = 0; i < 20; i++) await (await post([row(-1 - i)])).body?.cancel();
  const times: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const t0 = performance.now();
    const r = await post([row(i)]);
    await r.body?.cancel();
    if (!r.ok) throw new Error(`append: HTTP ${r.status}`);
    times.push(performance.now() - t0);
  }
  console.log(
    `cloud ledger append p50: ${
      percentile(times, 50).toFixed(2)
    } ms (background, off the budget check)`,
  );
  console.log(`cloud ledger append p99: ${percentile(times, 99).toFixed(2)} ms`);
  for (let i = APPENDS; i < ROWS; i += 500) {
    const r = await post(Array.from({ length: 500 }, (_, j) => row(i + j)));
    await r.body?.cancel();
  }
  const t0 = performance.now();
  const rows = await new CloudLedger(base, CLOUD_TOKEN).rows(0);
  console.log(
    `cloud ledger read-back: ${rows.length} rows in ${(performance.now() - t0).toFixed(0)} ms`,
  );
} finally {
  await spine.stop();
}
