/**
 * Where linked agents sit on the map: near the agents they are linked to. An agent's
 * place from its address's hash (`../layout.ts`) draws each link as a chord across the
 * disc; here the agents that have links are laid out together instead, deterministically
 * (the same links give the same places, whatever order they were reported in):
 *
 * 1. the linked agents fall into connected groups, largest first (ties: the smallest
 *    address first);
 * 2. each group is walked depth-first from its smallest address (peers in address
 *    order), so linked agents get nearby ranks;
 * 3. the ranks run along a Hilbert curve, whose neighbours in order are neighbours in
 *    space, over a square that is mapped onto the disc without tearing (Shirley and
 *    Chiu's concentric map), with the same density towards the middle as hashed places.
 *
 * Agents without links keep their hashed place. Pure, so the server (which indexes the
 * places) runs it and tests check it without workerd.
 *
 * @module
 */
import type { MapPoint } from "../layout.ts";

/**
 * The places of the agents named in `links` (pairs of addresses, each link once or
 * twice), close to their peers.
 *
 * @example
 * ```ts
 * import { arrangeLinked } from "./arrange.ts";
 * const places = arrangeLinked([["a.example", "b.example"], ["b.example", "c.example"]]);
 * const a = places.get("a.example")!, b = places.get("b.example")!;
 * if (places.size !== 3 || Math.hypot(a.x - b.x, a.y - b.y) > 0.6) throw new Error();
 * ```
 */
export function arrangeLinked(links: Iterable<readonly [string, string]>): Map<string, MapPoint> {
  const peers = new Map<string, string[]>();
  const add = (a: string, b: string) => {
    const list = peers.get(a);
    if (list) list.push(b);
    else peers.set(a, [b]);
  };
  for (const [a, b] of links) {
    if (a === b) continue;
    add(a, b);
    add(b, a);
  }
  const groups = groupsOf(peers);
  const order: string[] = [];
  for (const group of groups) order.push(...group);
  const places = new Map<string, MapPoint>();
  const n = order.length;
  const side = 2 ** Math.max(1, Math.ceil(Math.log2(Math.sqrt(n))));
  const cells = side * side;
  for (let rank = 0; rank < n; rank++) {
    const d = Math.floor((rank + 0.5) * cells / n);
    const [hx, hy] = hilbertPoint(side, d);
    places.set(order[rank]!, squareToDisc((hx + 0.5) / side * 2 - 1, (hy + 0.5) / side * 2 - 1));
  }
  return places;
}

/**
 * The connected groups of `peers`, each in depth-first order from its smallest address
 * (peers in address order): a chain of links stays a run of ranks, and every branch is
 * one run, where breadth-first order would interleave the branches.
 */
function groupsOf(peers: Map<string, string[]>): string[][] {
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const start of [...peers.keys()].sort()) {
    if (seen.has(start)) continue;
    const group: string[] = [];
    const stack = [start];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      group.push(at);
      const next = [...new Set(peers.get(at)!)].filter((p) => !seen.has(p)).sort();
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    }
    groups.push(group);
  }
  // Largest first; the sort is stable, so ties keep their smallest address's order.
  return groups.sort((a, b) => b.length - a.length);
}

/** The cell `d` of a Hilbert curve through a `side`×`side` grid (`side` a power of 2). */
export function hilbertPoint(side: number, d: number): [number, number] {
  let x = 0, y = 0, t = d;
  for (let s = 1; s < side; s *= 2) {
    const rx = 1 & (t / 2);
    const ry = 1 & (t ^ rx);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
    x += s * rx;
    y += s * ry;
    t = Math.floor(t / 4);
  }
  return [x, y];
}

/**
 * A point of the square [-1, 1]² on the map's disc: the concentric map (equal areas
 * stay equal, neighbours stay neighbours), then the radius bent as `positionOf()` bends
 * it, for the same brighter core.
 */
function squareToDisc(a: number, b: number): MapPoint {
  let r: number, phi: number;
  if (Math.abs(a) > Math.abs(b)) {
    r = a;
    phi = (Math.PI / 4) * (b / a);
  } else {
    r = b;
    phi = b === 0 ? 0 : Math.PI / 2 - (Math.PI / 4) * (a / b);
  }
  const radius = 0.48 * Math.pow(Math.abs(r), 1.4);
  const sign = r < 0 ? -1 : 1;
  return {
    x: 0.5 + sign * radius * Math.cos(phi),
    y: 0.5 + sign * radius * Math.sin(phi),
  };
}
