import assert from "node:assert/strict";
import { derivedEventId, eventIdFloor, isEventId, nextEventId } from "./event_id.ts";

const T = 1_767_225_600_000;

Deno.test("nextEventId() rises with the clock, counts within a millisecond, survives a clock step back", () => {
  const a = nextEventId(undefined, T);
  const b = nextEventId(a, T);
  const c = nextEventId(b, T - 5_000); // the clock stepped back
  const d = nextEventId(c, T + 1);
  assert.deepEqual([a, b, c, d], [
    "1767225600000-000000",
    "1767225600000-000001",
    "1767225600000-000002",
    "1767225600001-000000",
  ]);
  assert.ok(a < b && b < c && c < d);
  // A full millisecond rolls over into the next one.
  assert.equal(nextEventId("1767225600000-999999", T), "1767225600001-000000");
});

Deno.test("derivedEventId() is stable, sorts by its time, and the next written id sorts after it", () => {
  const line = '{"ts":1767225600,"type":"model.failover"}';
  const id = derivedEventId(1_767_225_600, line);
  assert.equal(id, derivedEventId(1_767_225_600, line));
  assert.notEqual(id, derivedEventId(1_767_225_600, line + " "));
  assert.match(id, /^1767225600000-L[0-9a-f]{8}$/);
  assert.ok(isEventId(id));
  assert.ok(derivedEventId(1_767_225_599, line) < id);
  const next = nextEventId(id, T);
  assert.ok(next > id, next);
});

Deno.test("eventIdFloor() splits the ids before a time from those at or after it", () => {
  const floor = eventIdFloor(T);
  assert.ok("1767225599999-999999" < floor);
  assert.ok(derivedEventId(1_767_225_599, "x") < floor);
  assert.ok("1767225600000-000000" > floor);
  assert.ok(derivedEventId(1_767_225_600, "x") > floor);
});

Deno.test("isEventId() takes written and derived ids only", () => {
  for (const good of ["1767225600000-000000", "0000000000000-000001", "1767225600000-Labcdef01"]) {
    assert.ok(isEventId(good), good);
  }
  for (
    const bad of [
      "",
      "0",
      "1767225600000",
      "1767225600000-1",
      "x767225600000-000000",
      "1767225600000-000000\n",
    ]
  ) {
    assert.ok(!isEventId(bad), bad);
  }
});
