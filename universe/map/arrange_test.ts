import assert from "node:assert/strict";
import { positionOf } from "../layout.ts";
import { arrangeLinked, hilbertPoint } from "./arrange.ts";

function ring(n: number): [string, string][] {
  const links: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    for (const d of [1, 3]) links.push([`agent-${i}.example`, `agent-${(i + d) % n}.example`]);
  }
  return links;
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function length(p: { x: number; y: number }, q: { x: number; y: number }): number {
  return Math.hypot(p.x - q.x, p.y - q.y);
}

Deno.test("hilbertPoint() walks every cell once, each next to the one before", () => {
  const seen = new Set<string>();
  let last: [number, number] | undefined;
  for (let d = 0; d < 64 * 64; d++) {
    const [x, y] = hilbertPoint(64, d);
    assert.ok(x >= 0 && x < 64 && y >= 0 && y < 64);
    seen.add(`${x},${y}`);
    if (last) assert.equal(Math.abs(x - last[0]) + Math.abs(y - last[1]), 1, `step ${d}`);
    last = [x, y];
  }
  assert.equal(seen.size, 64 * 64);
});

Deno.test("arrangeLinked() puts 500 agents of a ring near their peers, inside the disc", () => {
  const links = ring(500);
  const places = arrangeLinked(links);
  assert.equal(places.size, 500);
  for (const p of places.values()) assert.ok(Math.hypot(p.x - 0.5, p.y - 0.5) <= 0.481);
  const arranged = median(links.map(([a, b]) => length(places.get(a)!, places.get(b)!)));
  const hashed = median(links.map(([a, b]) => length(positionOf(a), positionOf(b))));
  assert.ok(arranged < 0.06, `median link ${arranged.toFixed(3)}`);
  assert.ok(hashed > 0.3, `hashed median link ${hashed.toFixed(3)}`);
  // Spread over the disc, not a ball: no two agents share a place.
  assert.equal(new Set([...places.values()].map((p) => `${p.x},${p.y}`)).size, 500);
});

Deno.test("arrangeLinked() gives the same places whatever order the links come in", () => {
  const links = ring(60).concat([["x.example", "y.example"]]);
  const a = arrangeLinked(links);
  const b = arrangeLinked(links.toReversed().map(([p, q]) => [q, p] as [string, string]));
  assert.deepEqual([...a.entries()].sort(), [...b.entries()].sort());
  // A pair apart from the ring sits together.
  assert.ok(length(a.get("x.example")!, a.get("y.example")!) < 0.2);
  assert.equal(arrangeLinked([["a.example", "a.example"]]).size, 0);
});
