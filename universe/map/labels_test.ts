import assert from "node:assert/strict";
import { type LabelCandidate, labelSide, overlaps, placeLabels } from "./labels.ts";

Deno.test("placeLabels() keeps no two overlapping boxes among 5,000 crowded candidates", () => {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const candidates: LabelCandidate[] = [];
  for (let i = 0; i < 5000; i++) {
    candidates.push({
      id: `n${i}`,
      x: random() * 800,
      y: random() * 600,
      width: 30 + random() * 90,
      height: 14,
    });
  }
  const boxes = placeLabels(candidates, 800, 600, 10_000);
  assert.ok(boxes.length > 50, `only ${boxes.length} placed`);
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i]!;
    assert.ok(a.left >= 0 && a.top >= 0 && a.left + a.width <= 800 && a.top + a.height <= 600);
    for (let j = i + 1; j < boxes.length; j++) {
      assert.ok(!overlaps(a, boxes[j]!), `${a.id} ${boxes[j]!.id}`);
    }
  }
});

Deno.test("placeLabels() gives the first candidates their place and stops at max", () => {
  const same = Array.from(
    { length: 10 },
    (_, i) => ({ id: `n${i}`, x: i * 200, y: 50, width: 100, height: 14 }),
  );
  assert.deepEqual(placeLabels(same, 5000, 100, 3).map((b) => b.id), ["n0", "n1", "n2"]);
  const stacked = [{ id: "first", x: 0, y: 50, width: 100, height: 14 }, {
    id: "second",
    x: 50,
    y: 52,
    width: 100,
    height: 14,
  }];
  assert.deepEqual(placeLabels(stacked, 500, 100).map((b) => b.id), ["first"]);
});

Deno.test("placeLabels() drops labels that would leave the view", () => {
  assert.deepEqual(
    placeLabels([{ id: "edge", x: 780, y: 50, width: 100, height: 14 }], 800, 100),
    [],
  );
});

Deno.test("placeLabels() keeps labels off the blocked boxes (the legend)", () => {
  const legend = { id: "legend", left: 0, top: 60, width: 200, height: 40 };
  const boxes = placeLabels(
    [
      { id: "under", x: 10, y: 70, width: 50, height: 14 },
      { id: "free", x: 10, y: 20, width: 50, height: 14 },
    ],
    400,
    100,
    10,
    2,
    [legend],
  );
  assert.deepEqual(boxes.map((b) => b.id), ["free"]);
});

Deno.test("labelSide() puts a label where none of its node's links runs (issue 39 U07)", () => {
  assert.equal(labelSide([]), "right");
  // Links to the right and below: the label goes left (the first side furthest away).
  assert.equal(labelSide([0, Math.PI / 2]), "left");
  // Links every way but up.
  assert.equal(labelSide([0, Math.PI, Math.PI / 2]), "above");
  // A link slightly above the right: still away from the right.
  assert.notEqual(labelSide([-0.1]), "right");
});

Deno.test("placeLabels() keeps the first place of a label that fits, and only one", () => {
  const boxes = placeLabels(
    [
      { id: "a", x: 100, y: 50, width: 60, height: 16 },
      // b's right side would overlap a's label: its left side is taken instead.
      { id: "b", x: 120, y: 50, width: 60, height: 16 },
      { id: "b", x: 30, y: 50, width: 60, height: 16 },
      { id: "a", x: 300, y: 50, width: 60, height: 16 },
    ],
    400,
    100,
  );
  assert.deepEqual(boxes.map((b) => [b.id, b.left]), [["a", 100], ["b", 30]]);
});
