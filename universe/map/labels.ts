/**
 * Label placement for the map: labels in priority order, each kept only when its box
 * fits inside the view and overlaps no label already placed. A coarse grid of buckets
 * keeps each check to the few boxes nearby, so thousands of candidates stay cheap.
 *
 * @module
 */

/** A label that wants a place: its anchor (the node's right edge) and its size. */
export interface LabelCandidate {
  id: string;
  /** Left edge, in CSS pixels. */
  x: number;
  /** Vertical centre, in CSS pixels. */
  y: number;
  width: number;
  height: number;
}

/** A placed label's box. */
export interface LabelBox {
  id: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

const BUCKET = 64;

/**
 * The labels of `candidates` (highest priority first) that fit in a `width`×`height`
 * view without overlapping each other or a `blocked` box, `gap` pixels apart, at most `max`.
 * A label may come as several candidates with one id (its places, best first): the
 * first that fits is kept, the others skipped.
 *
 * @example
 * ```ts
 * import { placeLabels } from "./labels.ts";
 * const boxes = placeLabels([
 *   { id: "a", x: 10, y: 10, width: 50, height: 14 },
 *   { id: "b", x: 20, y: 12, width: 50, height: 14 },
 *   { id: "c", x: 10, y: 40, width: 50, height: 14 },
 * ], 200, 100);
 * if (boxes.map((b) => b.id).join() !== "a,c") throw new Error();
 * ```
 */
export function placeLabels(
  candidates: Iterable<LabelCandidate>,
  width: number,
  height: number,
  max = 200,
  gap = 2,
  blocked: LabelBox[] = [],
): LabelBox[] {
  const placed: LabelBox[] = [];
  const buckets = new Map<number, LabelBox[]>();
  const key = (bx: number, by: number) => by * 4096 + bx;
  const keep = (box: LabelBox) => {
    const x0 = Math.floor((box.left - gap) / BUCKET),
      x1 = Math.floor((box.left + box.width + gap) / BUCKET);
    const y0 = Math.floor((box.top - gap) / BUCKET),
      y1 = Math.floor((box.top + box.height + gap) / BUCKET);
    for (let bx = x0; bx <= x1; bx++) {
      for (let by = y0; by <= y1; by++) {
        const list = buckets.get(key(bx, by));
        if (list) list.push(box);
        else buckets.set(key(bx, by), [box]);
      }
    }
  };
  // What else sits on the map (the legend): labels keep clear of it too.
  for (const box of blocked) keep(box);
  const done = new Set<string>();
  for (const c of candidates) {
    if (placed.length >= max) break;
    if (done.has(c.id)) continue;
    const box = { id: c.id, left: c.x, top: c.y - c.height / 2, width: c.width, height: c.height };
    if (box.left < 0 || box.top < 0 || box.left + box.width > width) continue;
    if (box.top + box.height > height) continue;
    const x0 = Math.floor((box.left - gap) / BUCKET),
      x1 = Math.floor((box.left + box.width + gap) / BUCKET);
    const y0 = Math.floor((box.top - gap) / BUCKET),
      y1 = Math.floor((box.top + box.height + gap) / BUCKET);
    let free = true;
    for (let bx = x0; bx <= x1 && free; bx++) {
      for (let by = y0; by <= y1 && free; by++) {
        for (const other of buckets.get(key(bx, by)) ?? []) {
          if (overlaps(box, other, gap)) {
            free = false;
            break;
          }
        }
      }
    }
    if (!free) continue;
    done.add(c.id);
    placed.push(box);
    keep(box);
  }
  return placed;
}

/** Whether two boxes come closer than `gap` pixels. */
export function overlaps(a: LabelBox, b: LabelBox, gap = 0): boolean {
  return a.left < b.left + b.width + gap && b.left < a.left + a.width + gap &&
    a.top < b.top + b.height + gap && b.top < a.top + a.height + gap;
}

/** Where a label sits beside its node. */
export type LabelSide = "right" | "left" | "above" | "below";

/**
 * The side of a node its label goes on so that it crosses as few of the node's links as
 * possible: the side whose direction is furthest from every link's (`angles`, radians,
 * screen coordinates: y grows downwards); the right when there are no links or a tie.
 *
 * @example
 * ```ts
 * import { labelSide } from "./labels.ts";
 * if (labelSide([]) !== "right") throw new Error();
 * if (labelSide([0]) !== "left") throw new Error(); // a link going right
 * ```
 */
export function labelSide(angles: readonly number[]): LabelSide {
  const sides: [LabelSide, number][] = [
    ["right", 0],
    ["left", Math.PI],
    ["below", Math.PI / 2],
    ["above", -Math.PI / 2],
  ];
  if (angles.length === 0) return "right";
  let best: LabelSide = "right";
  let bestGap = -1;
  for (const [side, direction] of sides) {
    let gap = Math.PI;
    for (const a of angles) {
      const d = Math.abs(((a - direction) % (2 * Math.PI) + 3 * Math.PI) % (2 * Math.PI) - Math.PI);
      gap = Math.min(gap, d);
    }
    if (gap > bestGap + 1e-9) [best, bestGap] = [side, gap];
  }
  return best;
}
