/**
 * Where each agent sits on the universe's map: a position from its address alone, the
 * same on the server (which indexes it) and in the page (which draws it), so a refresh
 * or a newcomer never moves anyone. The world is the unit square; agents fill a disc
 * in it, denser towards the middle, like a galaxy seen from above.
 *
 * @module
 */

/** Cells per side of the overview grid (`GET /api/map/overview`). */
export const MAP_GRID = 64;

/** Cells per side of the fine grid the area index uses. */
export const MAP_FINE = 1024;

/** A point of the unit square. */
export interface MapPoint {
  x: number;
  y: number;
}

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit number. */
export function hash32(text: string, seed = 2166136261): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  // A final mix so that addresses differing in their last character spread out.
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d) >>> 0;
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39) >>> 0;
  h ^= h >>> 15;
  return h >>> 0;
}

/**
 * The position of `address` in the unit square: an angle and a radius from two hashes,
 * inside a disc of radius 0.48 around the middle.
 *
 * @example
 * ```ts
 * import { positionOf } from "./layout.ts";
 * const a = positionOf("ada.example");
 * if (a.x !== positionOf("ada.example").x || a.x < 0 || a.x >= 1) throw new Error();
 * ```
 */
export function positionOf(address: string): MapPoint {
  const angle = (hash32(address) / 4294967296) * Math.PI * 2;
  const u = hash32(address, 0x9e3779b9) / 4294967296;
  // u^0.7 rather than sqrt(u): a brighter core, a thinner rim.
  const radius = 0.48 * Math.pow(u, 0.7);
  return { x: 0.5 + radius * Math.cos(angle), y: 0.5 + radius * Math.sin(angle) };
}

/** The index of the cell of a `grid`×`grid` grid that holds `p` (row-major). */
export function cellOf(p: MapPoint, grid: number = MAP_GRID): number {
  return cellY(p.y, grid) * grid + cellX(p.x, grid);
}

/** The column of `x` in a grid of `grid` cells per side. */
export function cellX(x: number, grid: number = MAP_GRID): number {
  return Math.min(grid - 1, Math.max(0, Math.floor(x * grid)));
}

/** The row of `y` in a grid of `grid` cells per side. */
export function cellY(y: number, grid: number = MAP_GRID): number {
  return Math.min(grid - 1, Math.max(0, Math.floor(y * grid)));
}
