/**
 * What the map's graph holds, in the browser: the server's cell counts or agents and
 * links turned into graphology nodes and edges (sizes and colours from `words.ts`), the
 * selected agent and its peers added to whatever is drawn, and how a selection colours
 * the rest. The view (`client_view.ts`) decides which layer to load and where the
 * camera goes; this file only fills and styles the graph.
 *
 * @module
 */
import type { UndirectedGraph } from "graphology";
import { positionOf } from "../layout.ts";
import { mergeCells } from "./cells.ts";
import type { MapArea, MapOverview } from "./store.ts";
import { lineOf } from "./text.ts";
import { MAP_COLOURS } from "./words.ts";

/** One node's attributes: an agent or, zoomed out, a cell (its `degree`: how many agents). */
export type MapNode = {
  x: number;
  y: number;
  size: number;
  color: string;
  kind: "agent" | "cell";
  name: string;
  online: boolean;
  degree: number;
  zIndex?: number;
};

/** The map's graph. */
export type MapGraph = UndirectedGraph<MapNode>;

/** The selected agent and its links, drawn whatever the layer. */
export interface Selection {
  address: string;
  name: string;
  online: boolean;
  links: { peer: string; messages: number; name?: string; online?: boolean }[];
  /** Where the map index puts it and its peers (the layout moves linked agents). */
  places?: Record<string, readonly [number, number]>;
}

/** Where `address` is drawn: the map index's place when known, else its hashed one. */
export function placeOf(s: Selection | undefined, address: string): { x: number; y: number } {
  const p = s?.places?.[address];
  return p ? { x: p[0], y: p[1] } : positionOf(address);
}

/** The fewest and most agents one dot of the cells layer holds: the legend's scale. */
export interface CellRange {
  min: number;
  max: number;
}

/**
 * Fills `g` with the overview's cells merged `merge`×`merge`: fewer, larger dots far
 * out, coloured along the legend's scale (blue for the emptiest, purple for the fullest).
 */
export function fillCells(g: MapGraph, o: MapOverview, merge: number): CellRange {
  const grid = o.grid / merge;
  const counts = mergeCells(o, merge);
  g.clear();
  let max = 1, min = Infinity;
  for (const n of counts.values()) {
    max = Math.max(max, n);
    min = Math.min(min, n);
  }
  for (const [cell, n] of counts) {
    const share = Math.sqrt(n / max);
    g.addNode(`cell:${cell}`, {
      x: (cell % grid + 0.5) / grid,
      y: (Math.floor(cell / grid) + 0.5) / grid,
      size: (1.5 + 7 * share) * merge,
      color: mixColour(MAP_COLOURS.cellLow, MAP_COLOURS.cellHigh, share),
      kind: "cell",
      name: String(n),
      online: false,
      degree: n,
    });
  }
  return { min: min === Infinity ? 0 : min, max: counts.size === 0 ? 0 : max };
}

/**
 * The colour `t` of the way from `from` to `to` (both `#rrggbb`), as `#rrggbb`.
 *
 * @example
 * ```ts
 * import { mixColour } from "./client_graph.ts";
 * if (mixColour("#000000", "#ffffff", 0.5) !== "#808080") throw new Error();
 * ```
 */
export function mixColour(from: string, to: string, t: number): string {
  const at = (c: string, i: number) => parseInt(c.slice(1 + 2 * i, 3 + 2 * i), 16);
  let out = "#";
  for (let i = 0; i < 3; i++) {
    const v = Math.round(at(from, i) + (at(to, i) - at(from, i)) * Math.min(1, Math.max(0, t)));
    out += v.toString(16).padStart(2, "0");
  }
  return out;
}

/** Fills `g` with an area's agents and links; an agent's size grows with its links. */
export function fillArea(g: MapGraph, area: MapArea): void {
  g.clear();
  for (const a of area.agents) {
    g.addNode(a.address, {
      x: a.x,
      y: a.y,
      size: 3,
      color: a.online ? MAP_COLOURS.online : MAP_COLOURS.offline,
      kind: "agent",
      name: lineOf(a.name),
      online: a.online,
      degree: 0,
    });
  }
  let max = 1;
  for (let i = 2; i < area.links.length; i += 3) max = Math.max(max, area.links[i]!);
  for (let i = 0; i < area.links.length; i += 3) {
    const a = area.agents[area.links[i]!]!.address, b = area.agents[area.links[i + 1]!]!.address;
    const messages = area.links[i + 2]!;
    if (g.hasEdge(a, b)) continue;
    g.addEdge(a, b, { size: 0.4 + 2.2 * Math.log1p(messages) / Math.log1p(max), messages });
    g.updateNodeAttribute(a, "degree", (d: number | undefined) => (d ?? 0) + 1);
    g.updateNodeAttribute(b, "degree", (d: number | undefined) => (d ?? 0) + 1);
  }
  g.forEachNode((node, attrs) =>
    g.setNodeAttribute(node, "size", 2.5 + Math.min(6, attrs.degree) * 0.5)
  );
}

/** Adds the selected agent, its peers and their links to whatever `g` holds. */
export function addSelection(g: MapGraph, s: Selection): void {
  const add = (address: string, name: string, online: boolean) => {
    if (g.hasNode(address)) return;
    const p = placeOf(s, address);
    g.addNode(address, {
      ...p,
      size: 4,
      color: online ? MAP_COLOURS.online : MAP_COLOURS.offline,
      kind: "agent",
      name,
      online,
      degree: 0,
    });
  };
  add(s.address, s.name, s.online);
  for (const link of s.links) {
    // A peer the map has not drawn, with its own name and state (not its address, offline).
    add(link.peer, link.name ?? link.peer, link.online ?? false);
    if (!g.hasEdge(s.address, link.peer)) {
      g.addEdge(s.address, link.peer, { size: 1.5, messages: link.messages });
    }
  }
}

/** How many links of the selected agent are drawn. */
export function highlighted(g: MapGraph, s: Selection | undefined): number {
  return s && g.hasNode(s.address) ? g.degree(s.address) : 0;
}

/** A node as drawn: the selected one stands out, its peers stay, the rest fade. */
export function nodeStyle(
  g: MapGraph,
  s: Selection | undefined,
  node: string,
  data: MapNode,
): Partial<MapNode> & { label?: string; hidden?: boolean } {
  if (!s) return data;
  if (node === s.address) {
    return { ...data, color: MAP_COLOURS.selected, size: data.size + 4, zIndex: 2 };
  }
  if (g.hasEdge(s.address, node)) return { ...data, zIndex: 1 };
  // Dimmed, but still online green or offline grey: fading is not going offline.
  return { ...data, color: data.online ? MAP_COLOURS.fadedOnline : MAP_COLOURS.faded, zIndex: 0 };
}

/**
 * Above this many drawn links, and when they are long (agents at their hashed places,
 * beyond what the server lays out: see `arrange.ts`), only the links of the agent
 * pointed at (or chosen) are drawn: the rest would be chords across the map that hide
 * more than they show.
 */
export const LINKS_ON_HOVER = 100;

/** A median link longer than this share of the drawn agents' extent is "long". */
const LONG_LINK = 0.15;

/**
 * Whether a graph's links are drawn only for the agent pointed at or chosen: more than
 * {@linkcode LINKS_ON_HOVER} of them and their median length long.
 */
export function linksOnHover(g: MapGraph): boolean {
  if (g.size <= LINKS_ON_HOVER) return false;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  g.forEachNode((_, a) => {
    x0 = Math.min(x0, a.x);
    x1 = Math.max(x1, a.x);
    y0 = Math.min(y0, a.y);
    y1 = Math.max(y1, a.y);
  });
  const lengths = g.mapEdges((_e, _d, _s, _t, a, b) => Math.hypot(a.x - b.x, a.y - b.y))
    .sort((p, q) => p - q);
  return lengths[Math.floor(lengths.length / 2)]! > LONG_LINK * Math.max(x1 - x0, y1 - y0);
}

/**
 * A link as drawn: the selected agent's stand out, those of `hovered` brighten, the
 * rest fade when one is chosen, or are hidden when `hideLinks` ({@linkcode linksOnHover}).
 */
export function edgeStyle(
  g: MapGraph,
  s: Selection | undefined,
  edge: string,
  data: Record<string, unknown>,
  hovered?: string,
  hideLinks = false,
): Record<string, unknown> {
  const [a, b] = g.extremities(edge);
  const pointed = hovered !== undefined && (a === hovered || b === hovered);
  if (s && (a === s.address || b === s.address)) {
    return {
      ...data,
      color: MAP_COLOURS.selected,
      size: Number(data.size ?? 1) + 1.5,
      zIndex: 2,
    };
  }
  if (pointed) {
    return { ...data, color: MAP_COLOURS.hoverLink, size: Number(data.size ?? 1) + 1, zIndex: 1 };
  }
  if (hideLinks) return { ...data, hidden: true };
  return s ? { ...data, color: MAP_COLOURS.fadedLink, zIndex: 0 } : data;
}
