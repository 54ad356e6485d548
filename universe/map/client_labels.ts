/**
 * The map's labels as DOM boxes over the WebGL canvas: each candidate measured once
 * (12 px system-ui, as the stylesheet draws it), placed by `labels.ts` so that none
 * overlaps another or a cover (the legend, a card sheet), and drawn from a pool of
 * spans moved with CSS transforms.
 *
 * @module
 */
import { type LabelBox, type LabelSide, placeLabels } from "./labels.ts";

/** A label that wants drawing: its node's centre and radius in CSS pixels. */
export interface LabelItem {
  id: string;
  text: string;
  x: number;
  y: number;
  /** Higher goes first. */
  rank: number;
  /** The node's radius, the label starts past it. */
  size: number;
  chosen?: boolean;
  /** A group's count (zoomed out), drawn quieter than a name. */
  count?: boolean;
  /** Another agent is chosen and this one is not linked to it: its label dims too. */
  faded?: boolean;
  /** The side of its node, off its links (the chosen agent's); right when absent. */
  side?: LabelSide;
}

/** The label layer of one map. */
export class LabelLayer {
  #box: HTMLElement;
  #measure = document.createElement("canvas").getContext("2d")!;
  #widths = new Map<string, number>();

  constructor(box: HTMLElement) {
    this.#box = box;
    this.#measure.font = "12px system-ui, sans-serif";
  }

  #width(text: string): number {
    let w = this.#widths.get(text);
    if (w === undefined) {
      w = Math.ceil(this.#measure.measureText(text).width) + 12;
      if (this.#widths.size > 20_000) this.#widths.clear();
      this.#widths.set(text, w);
    }
    return w;
  }

  /** Places and draws the labels of `items` in a `width`×`height` view; returns how many. */
  draw(items: LabelItem[], width: number, height: number, covers: Omit<LabelBox, "id">[]): number {
    items.sort((p, q) => q.rank - p.rank || (p.id < q.id ? -1 : 1));
    const boxes = placeLabels(
      // A label that does not fit on the right of its dot may go on the left.
      items.slice(0, 4000).flatMap((i) => {
        const w = this.#width(i.text);
        return i.side
          ? [beside(i, w, 16)]
          : [beside(i, w, 16), beside({ ...i, side: "left" }, w, 16)];
      }),
      width,
      height,
      width * height > 400_000 ? 150 : 60,
      2,
      covers.map((c) => ({ id: "cover", ...c })),
    );
    const byId = new Map(items.map((i) => [i.id, i]));
    const pool = this.#box.children;
    for (let i = 0; i < boxes.length; i++) {
      const box = boxes[i]!;
      let span = pool[i] as HTMLElement | undefined;
      if (!span) {
        span = document.createElement("span");
        this.#box.appendChild(span);
      }
      const item = byId.get(box.id);
      span.textContent = item?.text ?? "";
      span.className = item?.chosen
        ? "label chosen"
        : item?.faded
        ? "label faded"
        : item?.count
        ? "label count"
        : "label";
      span.style.transform = `translate(${Math.round(box.left)}px, ${Math.round(box.top)}px)`;
      span.style.width = `${box.width}px`;
    }
    while (pool.length > boxes.length) pool[pool.length - 1]!.remove();
    return boxes.length;
  }
}

/** The box of `item`'s label on its side: `x` its left edge, `y` its middle. */
function beside(item: LabelItem, width: number, height: number) {
  const gap = item.size + 3;
  const at = item.side === "left"
    ? { x: item.x - gap - width, y: item.y }
    : item.side === "above"
    ? { x: item.x - width / 2, y: item.y - gap - height / 2 }
    : item.side === "below"
    ? { x: item.x - width / 2, y: item.y + gap + height / 2 }
    : { x: item.x + gap, y: item.y };
  return { id: item.id, ...at, width, height };
}
