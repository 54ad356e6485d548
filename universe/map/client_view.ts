/**
 * The map's drawing, in the browser: sigma.js (WebGL) over a graphology graph in the
 * unit square of `../layout.ts`. Levels of detail: a universe of up to
 * {@linkcode DRAW_ALL} agents is drawn whole; a larger one shows the server's cell
 * counts while zoomed out and the agents and links of the visible area once few enough
 * are in view. Labels are DOM boxes placed by `labels.ts`, so none overlap.
 *
 * @module
 */
import { UndirectedGraph } from "graphology";
import Sigma from "sigma";
import { cellsIn } from "./cells.ts";
import {
  addSelection,
  type CellRange,
  edgeStyle,
  fillArea,
  fillCells,
  highlighted,
  linksOnHover,
  type MapNode,
  nodeStyle,
  placeOf,
  type Selection,
} from "./client_graph.ts";
import { type LabelItem, LabelLayer } from "./client_labels.ts";
import { labelSide } from "./labels.ts";
import type { MapArea, MapOverview, MapRect } from "./store.ts";
import { ellipsis } from "./text.ts";
import { MAP_COLOURS } from "./words.ts";

export type { Selection } from "./client_graph.ts";

/** Up to this many agents the whole universe is drawn at once. */
export const DRAW_ALL = 3000;

/** Zoomed in until at most this many agents are in view, they are drawn one by one. */
export const AREA_LIMIT = 4000;

/** What the view tells the page. */
export interface ViewEvents {
  /** An agent was clicked. */
  onPick(address: string): void;
  /** The set of drawn agents changed. */
  onDrawn(addresses: { address: string; name: string; online: boolean }[]): void;
  /** Boxes over the map (the legend, a card sheet), relative to it: labels avoid them. */
  covers(): { left: number; top: number; width: number; height: number }[];
  /** The layer or the zoom changed: what the legend says about them. */
  onLevel(level: MapLevel): void;
  /** A dot's count as its label writes it (the page's language). */
  countText(n: number): string;
}

/** What the view shows now: the legend's zoom line and scale. */
export interface MapLevel {
  layer: "none" | "all" | "cells" | "area";
  /** The camera's ratio: 1 shows the whole universe, 0.1 is ten times closer. */
  ratio: number;
  /** The cells layer's fewest and most agents per dot. */
  range?: CellRange;
}

/** How much closer one press of + goes while dots are groups (1.6 once they are agents). */
const CELL_STEP = 4;

/** Where the camera goes: any of its place, zoom ratio and angle. */
type CameraMove = Parameters<ReturnType<Sigma<MapNode>["getCamera"]>["setState"]>[0];

/** The map view. */
export class MapView {
  #graph = new UndirectedGraph<MapNode>();
  #sigma: Sigma<MapNode>;
  #overview: MapOverview | undefined;
  #layer: "none" | "all" | "cells" | "area" = "none";
  #areaRect: (MapRect & { truncated: boolean }) | undefined;
  #merged = 1;
  #range: CellRange | undefined;
  /** The agent under the pointer: its links show when the rest are hidden. */
  #hovered: string | undefined;
  /** Many long links drawn: only those of the agent pointed at or chosen show. */
  #hideLinks = false;
  #selection: Selection | undefined;
  #labelLayer: LabelLayer;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #labelFrame = 0;
  #loading = 0;
  #drawnOnce = false;
  #events: ViewEvents;

  constructor(container: HTMLElement, labels: HTMLElement, events: ViewEvents) {
    this.#labelLayer = new LabelLayer(labels);
    this.#events = events;
    this.#sigma = new Sigma(this.#graph, container, {
      renderLabels: false,
      renderEdgeLabels: false,
      allowInvalidContainer: true,
      zIndex: true,
      minCameraRatio: 0.002,
      maxCameraRatio: 3,
      stagePadding: 16,
      // Dots and lines keep their size on screen whatever the zoom.
      zoomToSizeRatioFunction: () => 1,
      defaultEdgeColor: MAP_COLOURS.link,
      nodeReducer: (node, data) => nodeStyle(this.#graph, this.#selection, node, data),
      edgeReducer: (edge, data) =>
        edgeStyle(this.#graph, this.#selection, edge, data, this.#hovered, this.#hideLinks),
    });
    this.#sigma.setCustomBBox({ x: [0, 1], y: [0, 1] });
    // sigma picks the node under the mouse on every move (a GPU read that stalls the
    // frame); while the map is dragged no node can be hovered, so none is looked for.
    const sigma = this.#sigma as unknown as {
      getNodeAtPosition(p: { x: number; y: number }): string | null;
    };
    const pick = sigma.getNodeAtPosition.bind(sigma);
    const captor = this.#sigma.getMouseCaptor();
    sigma.getNodeAtPosition = (p) => (captor.isMouseDown ? null : pick(p));
    this.#sigma.on("clickNode", ({ node }) => {
      const attrs = this.#graph.getNodeAttributes(node);
      if (attrs.kind === "agent") this.#events.onPick(node);
      // A group opens straight at the zoom where its agents are drawn one by one.
      else this.#zoomTo(attrs.x, attrs.y, this.#agentsRatio(attrs));
    });
    this.#sigma.on("enterNode", ({ node }) => this.#hover(node));
    this.#sigma.on("leaveNode", () => this.#hover(undefined));
    this.#sigma.on("afterRender", () => this.#afterRender());
    this.#sigma.getCamera().on("updated", () => {
      this.#level();
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#chooseLayer(), 120);
    });
  }

  /** The overview arrived (or changed): picks the layer to draw. */
  async setOverview(overview: MapOverview): Promise<void> {
    const grew = this.#overview !== undefined && this.#overview.taus !== overview.taus;
    this.#overview = overview;
    if (overview.taus <= DRAW_ALL) {
      if (this.#layer !== "all" || grew) await this.#loadAll();
      return;
    }
    if (grew) this.#areaRect = undefined;
    await this.#chooseLayer(true);
  }

  /** Reloads what is drawn (the minute's refresh). */
  async reload(): Promise<void> {
    this.#areaRect = undefined;
    if (this.#layer === "all") await this.#loadAll();
    else await this.#chooseLayer(true);
  }

  /** Draws `selection` with its links highlighted, or none; `center` moves the camera. */
  select(selection: Selection | undefined, center: boolean): void {
    this.#selection = selection;
    if (selection) {
      this.#withSelection();
      if (center) {
        const big = (this.#overview?.taus ?? 0) > DRAW_ALL;
        const p = placeOf(selection, selection.address);
        const ratio = big ? this.#closeRatio(p) : this.#sigma.getCamera().ratio;
        // A small universe moves only to bring the agent out from under a cover or the edge.
        if (big || !this.#inView(p)) this.#zoomTo(p.x, p.y, ratio);
      }
    }
    document.body.dataset.selected = selection?.address ?? "";
    document.body.dataset.highlighted = String(
      highlighted(this.#graph, this.#selection),
    );
    this.#sigma.refresh();
  }

  /**
   * Zooms by `factor` (> 1 in) around the middle. While dots are groups a step in goes
   * {@linkcode CELL_STEP} times closer, but not past the zoom where the agents in the
   * middle are drawn one by one: from the whole of 100,000 agents, two presses.
   */
  zoom(factor: number): void {
    const camera = this.#sigma.getCamera();
    let ratio = camera.ratio / factor;
    if (factor > 1 && this.#layer === "cells") {
      const { width, height } = this.#sigma.getDimensions();
      const middle = this.#sigma.viewportToGraph({ x: width / 2, y: height / 2 });
      const agents = this.#agentsRatio(middle);
      ratio = Math.min(ratio, Math.max(camera.ratio / CELL_STEP, agents));
    }
    this.#move({ ratio }, 200);
  }

  /** Shows the whole universe. */
  fit(): void {
    this.#move({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }, 200);
  }

  /** The sigma instance (for tests and the benchmark, through `window`). */
  get sigma(): Sigma<MapNode> {
    return this.#sigma;
  }

  /** The map's height left uncovered at the bottom (a card sheet on a phone). */
  #openHeight(): number {
    const { height } = this.#sigma.getDimensions();
    let bottom = height;
    for (const c of this.#events.covers()) {
      if (c.width >= this.#sigma.getDimensions().width * 0.8 && c.top > height * 0.3) {
        bottom = Math.min(bottom, c.top);
      }
    }
    return bottom;
  }

  #inView(p: { x: number; y: number }): boolean {
    const v = this.#sigma.graphToViewport(p);
    const { width } = this.#sigma.getDimensions();
    return v.x > 20 && v.x < width - 20 && v.y > 20 && v.y < this.#openHeight() - 20;
  }

  #zoomTo(x: number, y: number, ratio: number): void {
    // The camera speaks the renderer's framed coordinates; the point goes to the middle
    // of the part of the map that no card covers.
    const s = this.#sigma;
    const { width, height } = s.getDimensions();
    const at = s.viewportToFramedGraph(s.graphToViewport({ x, y }));
    const middle = s.viewportToFramedGraph({ x: width / 2, y: height / 2 });
    const open = s.viewportToFramedGraph({ x: width / 2, y: this.#openHeight() / 2 });
    const k = ratio / s.getCamera().ratio;
    this.#move(
      { x: at.x + (middle.x - open.x) * k, y: at.y + (middle.y - open.y) * k, ratio },
      300,
    );
  }

  /**
   * Moves the camera over `duration` ms, or at once for a person whose system asks for
   * less motion (`prefers-reduced-motion`, read at each move, so a change applies at the
   * next): the map then jumps where a zoom or a chosen agent would have glided.
   */
  #move(state: CameraMove, duration: number): void {
    const camera = this.#sigma.getCamera();
    if (globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches) {
      camera.setState(state);
    } else {
      camera.animate(state, { duration });
    }
  }

  #visibleRect(): MapRect {
    const { width, height } = this.#sigma.getDimensions();
    const a = this.#sigma.viewportToGraph({ x: 0, y: 0 });
    const b = this.#sigma.viewportToGraph({ x: width, y: height });
    const clamp = (v: number) => Math.min(1, Math.max(0, v));
    return {
      x0: clamp(Math.min(a.x, b.x)),
      x1: clamp(Math.max(a.x, b.x)),
      y0: clamp(Math.min(a.y, b.y)),
      y1: clamp(Math.max(a.y, b.y)),
    };
  }

  /**
   * The zoom a chosen agent `p` is shown at: where the agents around it are drawn one
   * by one, and close enough (0.06) that its links can be told apart.
   */
  #closeRatio(p: { x: number; y: number }): number {
    return Math.min(this.#sigma.getCamera().ratio, 0.06, this.#agentsRatio(p));
  }

  /**
   * The widest zoom at which a view centred on `p` holds few enough agents, by the
   * overview's counts as {@linkcode MapView.#chooseLayer} estimates them, to be drawn
   * one by one (with a margin, as the camera may not end exactly on `p`).
   */
  #agentsRatio(p: { x: number; y: number }): number {
    const camera = this.#sigma.getCamera();
    if (!this.#overview) return camera.ratio;
    const { width, height } = this.#sigma.getDimensions();
    const a = this.#sigma.viewportToGraph({ x: 0, y: 0 });
    const b = this.#sigma.viewportToGraph({ x: width, y: height });
    // The half sizes of the view at ratio 1, from the view now.
    const w = Math.abs(b.x - a.x) / camera.ratio / 2, h = Math.abs(b.y - a.y) / camera.ratio / 2;
    const clamp = (v: number) => Math.min(1, Math.max(0, v));
    const fits = (r: number) =>
      this.#estimate({
        x0: clamp(p.x - w * r),
        x1: clamp(p.x + w * r),
        y0: clamp(p.y - h * r),
        y1: clamp(p.y + h * r),
      }) <= AREA_LIMIT * 0.8;
    if (fits(camera.ratio)) return camera.ratio;
    let lo = 1e-4, hi = camera.ratio;
    for (let i = 0; i < 24; i++) {
      const mid = Math.sqrt(lo * hi);
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  #estimate(rect: MapRect): number {
    return this.#overview ? cellsIn(this.#overview, rect) : 0;
  }

  async #chooseLayer(force = false): Promise<void> {
    const o = this.#overview;
    if (!o || o.taus <= DRAW_ALL) return;
    const rect = this.#visibleRect();
    if (this.#estimate(rect) > AREA_LIMIT) {
      // An area asked for before the view went out again must not replace the groups
      // when it arrives (CI, stop 49: zoom in, then out, on a slow machine).
      ++this.#loading;
      if (this.#layer !== "cells" || force || this.#merged !== this.#cellMerge()) {
        this.#drawCells(o);
      }
      return;
    }
    const held = this.#areaRect;
    if (
      !force && this.#layer === "area" && held && !held.truncated &&
      rect.x0 >= held.x0 && rect.x1 <= held.x1 && rect.y0 >= held.y0 && rect.y1 <= held.y1
    ) return;
    // A margin around the view, so a little panning needs no new request.
    const mx = (rect.x1 - rect.x0) * 0.25, my = (rect.y1 - rect.y0) * 0.25;
    const wide = {
      x0: Math.max(0, rect.x0 - mx),
      x1: Math.min(1, rect.x1 + mx),
      y0: Math.max(0, rect.y0 - my),
      y1: Math.min(1, rect.y1 + my),
    };
    const area = await this.#fetchArea(this.#estimate(wide) > AREA_LIMIT * 1.2 ? rect : wide);
    if (area) this.#drawArea(area.area, "area", area.rect);
  }

  async #fetchArea(rect: MapRect): Promise<{ area: MapArea; rect: MapRect } | undefined> {
    const ticket = ++this.#loading;
    const q = new URLSearchParams({
      x0: rect.x0.toFixed(6),
      y0: rect.y0.toFixed(6),
      x1: rect.x1.toFixed(6),
      y1: rect.y1.toFixed(6),
    });
    const response = await fetch(`/api/map/area?${q}`);
    if (!response.ok) throw new Error(`area ${response.status}`);
    const area = await response.json() as MapArea;
    // A newer request has been made since: its answer wins.
    return ticket === this.#loading ? { area, rect } : undefined;
  }

  async #loadAll(): Promise<void> {
    const area = await this.#fetchArea({ x0: 0, y0: 0, x1: 1, y1: 1 });
    if (area) this.#drawArea(area.area, "all", area.rect);
  }

  /** Overview cells merged `merge`×`merge` at a time: fewer, larger dots far out. */
  #cellMerge(): number {
    return this.#sigma.getCamera().ratio >= 0.45 ? 2 : 1;
  }

  #drawCells(o: MapOverview): void {
    this.#layer = "cells";
    this.#areaRect = undefined;
    this.#merged = this.#cellMerge();
    this.#range = fillCells(this.#graph, o, this.#merged);
    this.#hideLinks = false;
    this.#withSelection();
    this.#drawn();
  }

  #drawArea(area: MapArea, layer: "all" | "area", rect: MapRect): void {
    this.#layer = layer;
    this.#areaRect = { ...rect, truncated: area.truncated };
    fillArea(this.#graph, area);
    this.#hideLinks = linksOnHover(this.#graph);
    this.#withSelection();
    // sigma styles each link as it is added, when fewer may have been drawn than hide
    // the rest (LINKS_ON_HOVER): all are styled again now that all are in.
    this.#sigma.refresh();
    this.#drawn();
  }

  /** The selected agent, its peers and their links, added to whatever is drawn. */
  #withSelection(): void {
    if (this.#selection) addSelection(this.#graph, this.#selection);
  }

  #drawn(): void {
    const agents: { address: string; name: string; online: boolean }[] = [];
    this.#graph.forEachNode((node, a) => {
      if (a.kind === "agent") agents.push({ address: node, name: a.name, online: a.online });
    });
    document.body.dataset.layer = this.#layer;
    document.body.dataset.drawn = String(agents.length);
    document.body.dataset.linksOnHover = String(this.#hideLinks);
    this.#level();
    document.body.dataset.highlighted = String(
      highlighted(this.#graph, this.#selection),
    );
    this.#events.onDrawn(agents);
  }

  #hover(node: string | undefined): void {
    const agent = node !== undefined && this.#graph.getNodeAttribute(node, "kind") === "agent";
    this.#hovered = agent ? node : undefined;
    document.body.dataset.hovered = this.#hovered ?? "";
    this.#sigma.refresh();
  }

  #level(): void {
    this.#events.onLevel({
      layer: this.#layer,
      ratio: this.#sigma.getCamera().ratio,
      ...(this.#layer === "cells" && this.#range ? { range: this.#range } : {}),
    });
  }

  #afterRender(): void {
    if (!this.#drawnOnce && this.#layer !== "none") {
      this.#drawnOnce = true;
      // Milliseconds since the navigation started: what a person waits for.
      document.body.dataset.firstDraw = String(Math.round(performance.now()));
    }
    if (!this.#labelFrame) {
      this.#labelFrame = requestAnimationFrame(() => {
        this.#labelFrame = 0;
        this.#placeLabels();
      });
    }
  }

  /** The angles (screen radians) of `node`'s links, seen from its place `p`. */
  #linkAngles(node: string, p: { x: number; y: number }): number[] {
    return this.#graph.neighbors(node).map((peer) => {
      const q = this.#sigma.graphToViewport(this.#graph.getNodeAttributes(peer));
      return Math.atan2(q.y - p.y, q.x - p.x);
    });
  }

  #placeLabels(): void {
    const { width, height } = this.#sigma.getDimensions();
    const s = this.#selection;
    const items: LabelItem[] = [];
    this.#graph.forEachNode((node, a) => {
      const p = this.#sigma.graphToViewport(a);
      if (p.x < -50 || p.y < -20 || p.x > width || p.y > height + 20) return;
      if (a.kind === "cell") {
        // A group's count, the fullest first, where it fits.
        const text = this.#events.countText(a.degree);
        items.push({ id: node, text, x: p.x, y: p.y, rank: a.degree, size: a.size, count: true });
        return;
      }
      const chosen = node === s?.address;
      const linked = s !== undefined && this.#graph.hasEdge(s.address, node);
      const rank = chosen ? 1e9 : linked ? 1e6 + a.degree : a.degree;
      const text = ellipsis(a.name || node, 28);
      items.push({
        id: node,
        text,
        x: p.x,
        y: p.y,
        rank,
        size: chosen ? a.size + 4 : a.size,
        chosen,
        faded: s !== undefined && !chosen && !linked,
        // The chosen agent's label goes where none of its links runs.
        ...(chosen ? { side: labelSide(this.#linkAngles(node, p)) } : {}),
      });
    });
    const placed = this.#labelLayer.draw(items, width, height, this.#events.covers());
    document.body.dataset.labels = String(placed);
  }
}
