/**
 * The spine's cloud ledger routes on workerd (`POST|GET /hub/ledger`): the bearer token
 * first, 404 in local mode, appends idempotent by call id, one-sentence 400s for bad
 * rows, pages in append order from a time on.
 */
import assert from "node:assert/strict";
import { hub } from "./_fixtures.ts";
import { sharedSpineTest, spineTest, TOKEN } from "./_setup.ts";

function row(callId: string, fields: Record<string, unknown> = {}) {
  return {
    call_id: callId,
    ts: 1_790_000_000_000,
    role: "brain",
    provider: "vendor-a",
    model_id: "m",
    input_tokens: 1000,
    output_tokens: 200,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd: 0.006,
    estimated: false,
    channel: "messenger",
    session_id: "messenger-1",
    peer: null,
    ...fields,
  };
}

const post = (rows: unknown) => ({ method: "POST", body: JSON.stringify({ rows }) });

spineTest("ledger: the token first, and local mode answers cloud_mode_off", {
  relationalStore: true,
}, async (spine) => {
  const denied = await hub(spine.url, "wrong-token", "/hub/ledger", post([row("a")]));
  assert.deepEqual([denied.status, denied.body], [401, { error: "unauthorized" }]);
  const off = await hub(spine.url, TOKEN, "/hub/ledger", post([row("a")]));
  assert.deepEqual([off.status, off.body], [404, { error: "cloud_mode_off" }]);
});

sharedSpineTest("ledger: appends are idempotent by call id and read back in order", {
  mode: "cloud",
}, async (spine) => {
  const first = await hub(spine.url, TOKEN, "/hub/ledger", post([row("a"), row("b")]));
  assert.deepEqual([first.status, first.body], [200, { written: 2, duplicates: 0 }]);
  const again = await hub(
    spine.url,
    TOKEN,
    "/hub/ledger",
    post([row("b"), row("c", { usd: null, estimated: true, ts: 1_700_000_000_000 })]),
  );
  assert.deepEqual(again.body, { written: 1, duplicates: 1 });
  const all = await hub(spine.url, TOKEN, "/hub/ledger");
  assert.deepEqual((all.body.rows as { call_id: string }[]).map((r) => r.call_id), [
    "a",
    "b",
    "c",
  ]);
  assert.deepEqual(
    (all.body.rows as unknown[])[2],
    row("c", {
      usd: null,
      estimated: true,
      ts: 1_700_000_000_000,
    }),
  );
  assert.equal(all.body.next, null);
  const recent = await hub(spine.url, TOKEN, "/hub/ledger?since=1790000000000");
  assert.deepEqual((recent.body.rows as { call_id: string }[]).map((r) => r.call_id), ["a", "b"]);
});

sharedSpineTest("ledger: bad rows are refused in one sentence naming the field", {
  mode: "cloud",
}, async (spine) => {
  const cases: [unknown, string][] = [
    [[], "'rows' must be a list of 1 to 500 rows"],
    [[row("a", { usd: -1 })], "rows[0].usd must be null or a number of 0 or more"],
    [
      [row("a"), row("b", { input_tokens: 1.5 })],
      "rows[1].input_tokens must be a whole number of 0 or more",
    ],
    [[row("")], "rows[0].call_id must be a string of 1 to 200 characters"],
    [[row("a", { estimated: "yes" })], "rows[0].estimated must be true or false"],
    [["x"], "rows[0] must be an object"],
  ];
  for (const [rows, detail] of cases) {
    const r = await hub(spine.url, TOKEN, "/hub/ledger", post(rows));
    assert.deepEqual([r.status, r.body], [400, { error: "bad_request", detail }]);
  }
  const bad = await hub(spine.url, TOKEN, "/hub/ledger?since=soon");
  assert.deepEqual(bad.body, { error: "bad_request", detail: "'since' must be a whole number" });
  const put = await hub(spine.url, TOKEN, "/hub/ledger", { method: "PUT", body: "{}" });
  assert.equal(put.status, 405);
});
