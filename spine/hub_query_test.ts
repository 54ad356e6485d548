import assert from "node:assert/strict";
import { HttpError } from "@agent/net";
import { parseAckBody, parseUpdatesQuery } from "./hub_query.ts";

const isBadRequest = (e: unknown) =>
  e instanceof HttpError && e.status === 400 && e.code === "bad_request";

Deno.test("parseUpdatesQuery() applies the defaults", () => {
  assert.deepEqual(parseUpdatesQuery(new URLSearchParams("")), { after: 0, timeout: 0, limit: 50 });
  assert.deepEqual(parseUpdatesQuery(new URLSearchParams("after=7&timeout=25&limit=100&x=1")), {
    after: 7,
    timeout: 25,
    limit: 100,
  });
});

Deno.test("parseUpdatesQuery() rejects values out of range or not integers, never clamping", () => {
  for (
    const q of [
      "after=-1",
      "after=1.0",
      "after=",
      "after=0x10",
      "timeout=26",
      "timeout=1e1",
      "limit=0",
      "limit=101",
      "limit= 5",
      "after=1&after=2",
      "after=99999999999999999",
    ]
  ) {
    assert.throws(() => parseUpdatesQuery(new URLSearchParams(q)), isBadRequest, q);
  }
});

Deno.test("parseAckBody() returns distinct seqs and rejects bad bodies", () => {
  assert.deepEqual(parseAckBody({ seqs: [3, 1, 3, 2, 1] }), [3, 1, 2]);
  assert.deepEqual(parseAckBody({ seqs: [] }), []);
  assert.deepEqual(parseAckBody({ seqs: Array(1_000).fill(4) }), [4]);
  for (
    const body of [
      null,
      [],
      {},
      { seqs: {} },
      { seqs: [1, "2"] },
      { seqs: [-1] },
      { seqs: [0.5] },
      { seqs: Array(1_001).fill(1) },
    ]
  ) {
    assert.throws(() => parseAckBody(body), isBadRequest, JSON.stringify(body));
  }
});
