/**
 * The overview's cells as the page uses them: how many agents a rectangle holds, and
 * the cells merged into a coarser grid for the
 * zoomed-out drawing. Pure, so the levels of detail can be tested without a browser.
 *
 * @module
 */
import { cellX, cellY } from "../layout.ts";
import type { MapOverview, MapRect } from "./store.ts";

/**
 * The agents of the overview's cells that meet `rect` (whole cells: an upper bound).
 *
 * @example
 * ```ts
 * import { cellsIn } from "./cells.ts";
 * const o = { grid: 2, taus: 5, online: 0, links: 0, messages: 0, cells: [0, 2, 3, 3] };
 * if (cellsIn(o, { x0: 0, y0: 0, x1: 0.4, y1: 0.4 }) !== 2) throw new Error();
 * if (cellsIn(o, { x0: 0, y0: 0, x1: 1, y1: 1 }) !== 5) throw new Error();
 * ```
 */
export function cellsIn(o: MapOverview, rect: MapRect): number {
  const x0 = cellX(rect.x0, o.grid), x1 = cellX(rect.x1, o.grid);
  const y0 = cellY(rect.y0, o.grid), y1 = cellY(rect.y1, o.grid);
  let n = 0;
  for (let i = 0; i < o.cells.length; i += 2) {
    const cell = o.cells[i]!, cx = cell % o.grid, cy = Math.floor(cell / o.grid);
    if (cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1) n += o.cells[i + 1]!;
  }
  return n;
}

/**
 * The overview's counts summed over `merge`×`merge` blocks of cells: a map from the
 * cell index in the coarser grid (`grid / merge` per side) to its agents.
 *
 * @example
 * ```ts
 * import { mergeCells } from "./cells.ts";
 * const o = { grid: 4, taus: 6, online: 0, links: 0, messages: 0, cells: [0, 1, 5, 2, 15, 3] };
 * const merged = mergeCells(o, 2);
 * if (merged.get(0) !== 3 || merged.get(3) !== 3 || merged.size !== 2) throw new Error();
 * ```
 */
export function mergeCells(o: MapOverview, merge: number): Map<number, number> {
  const grid = o.grid / merge;
  const counts = new Map<number, number>();
  for (let i = 0; i < o.cells.length; i += 2) {
    const cell = o.cells[i]!;
    const key = Math.floor(Math.floor(cell / o.grid) / merge) * grid +
      Math.floor((cell % o.grid) / merge);
    counts.set(key, (counts.get(key) ?? 0) + o.cells[i + 1]!);
  }
  return counts;
}
