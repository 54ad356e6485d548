/**
 * The Spend page's charts, drawn by uPlot (bundled from npm): bars by category,
 * stacked bars by day and role, and the cumulative spend against the cap with the
 * forecast. Each chart sits beside a table with the same numbers (the chart is an
 * image to a screen reader, the table is the text). Pointing at a chart shows the
 * values under the pointer in its legend: the whole label the axis had to cut, and each
 * series' own dollars (not the stacked height).
 *
 * @module
 */
import uPlot from "uplot";
import { h } from "./dom.ts";
import { decimal, usd } from "./i18n.ts";

/** Colours that read on light and dark backgrounds. */
export const PALETTE: readonly string[] = [
  "#2f81f7",
  "#e3a008",
  "#3fb950",
  "#db61a2",
  "#a371f7",
  "#f0883e",
  "#56d4dd",
];

function colour(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}

function width(el: HTMLElement): number {
  return Math.max(280, Math.min(1400, el.clientWidth || 600));
}

/** The event the page sends when the person picks another theme. */
export const THEME_CHANGE = "agent-theme-change";

function mount(label: string, make: (el: HTMLElement) => uPlot): HTMLElement {
  const el = h("div", { class: "chart", role: "img", "aria-label": label });
  // Drawn once the element is in the page and has a width; redrawn when it changes, and
  // when the theme does (the axes take their colours from the page's at each draw).
  requestAnimationFrame(() => {
    const plot = make(el);
    new ResizeObserver(() => plot.setSize({ width: width(el), height: plot.height })).observe(el);
    const dark = matchMedia("(prefers-color-scheme: dark)");
    const recolour = () => {
      if (el.isConnected) return plot.redraw(false, true);
      removeEventListener(THEME_CHANGE, recolour);
      dark.removeEventListener("change", recolour);
    };
    addEventListener(THEME_CHANGE, recolour);
    dark.addEventListener("change", recolour);
    el.dispatchEvent(new CustomEvent("drawn", { bubbles: true }));
  });
  return el;
}

const axisStroke = () => getComputedStyle(document.documentElement).getPropertyValue("--fg").trim();
const gridStroke = () =>
  getComputedStyle(document.documentElement).getPropertyValue("--line").trim();

/** Dollars as a legend shows them; a dash where the pointer is off the chart. */
function dollars(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `$${usd(value)}`;
}

/** The pointer snaps to the nearest label; no zooming by dragging. */
const HOVER: uPlot.Cursor = {
  show: true,
  y: false,
  points: { show: false },
  drag: { x: false, y: false, setScale: false },
};

/** The x series: its hover value is the label at the pointer, whole. */
function labelSeries(name: string, labels: string[]): uPlot.Series {
  return {
    label: name,
    value: (_u, raw) => (raw === null || raw === undefined ? "" : labels[raw] ?? ""),
  };
}

/** uPlot's default axis font. */
const AXIS_FONT =
  '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

function axes(labels?: string[]): uPlot.Axis[] {
  const x: uPlot.Axis = { stroke: axisStroke, grid: { show: false }, ticks: { show: false } };
  if (labels) {
    // As many labels as fit, about one per 70 pixels, each cut to the room it has
    // (session names are long; the table below the chart holds them whole). The room is
    // the plot's, not the chart's: on a phone the dollar axis takes a fifth of the width,
    // and labels measured against the whole chart ran into each other.
    const every = (u: uPlot) =>
      Math.max(1, Math.ceil(labels.length / Math.max(1, plotWidth(u) / 70)));
    x.values = (u, splits) => {
      const room = (plotWidth(u) / Math.max(1, labels.length)) * every(u) - 8;
      return splits.map((i) => fitText(labels[i] ?? "", room));
    };
    x.splits = (u) => labels.map((_, i) => i).filter((i) => i % every(u) === 0);
  }
  return [x, {
    stroke: axisStroke,
    grid: { stroke: gridStroke, width: 1 },
    values: (_u, splits) => splits.map((v) => `$${decimal(String(v))}`),
    // As wide as its longest label: a fixed 60 px cut the "$" off "$0.0125".
    size: (_u, values) => valueAxisSize(values ?? []),
  }];
}

/** The plot area's width in CSS pixels (the chart less its dollar axis). */
function plotWidth(u: uPlot): number {
  return u.bbox.width / uPlot.pxRatio;
}

let measurer: CanvasRenderingContext2D | null | undefined;

/** `text` as it fits in `px` pixels of the axis font, cut with "…" when it does not. */
function fitText(text: string, px: number): string {
  measurer ??= document.createElement("canvas").getContext("2d");
  if (!measurer) return text;
  measurer.font = AXIS_FONT;
  if (measurer.measureText(text).width <= px) return text;
  const chars = Array.from(text);
  while (chars.length > 1 && measurer.measureText(`${chars.join("")}…`).width > px) chars.pop();
  return `${chars.join("")}…`;
}

/**
 * The width in CSS pixels the dollar axis needs for `values`: the widest label in
 * uPlot's axis font, plus its ticks and gap (10 + 5 px) and a margin; at least 48.
 */
function valueAxisSize(values: readonly string[]): number {
  measurer ??= document.createElement("canvas").getContext("2d");
  if (measurer) measurer.font = AXIS_FONT;
  const widest = Math.max(
    0,
    ...values.map((v) => measurer ? measurer.measureText(v).width : v.length * 7.5),
  );
  return Math.max(48, Math.ceil(widest) + 22);
}

/**
 * Bars stacked by series over `labels`; `series` each hold one value per label.
 * Series are drawn largest stack first so each role's band shows.
 */
export function stackedBars(
  label: string,
  labels: string[],
  series: { name: string; values: number[] }[],
  xName = "",
): HTMLElement {
  return mount(label, (el) => {
    const x = labels.map((_, i) => i);
    const stacks: number[][] = [];
    let below = labels.map(() => 0);
    for (const s of series) {
      below = below.map((v, i) => v + (s.values[i] ?? 0));
      stacks.push(below);
    }
    const order = series.map((_, i) => i).reverse();
    const bars = uPlot.paths.bars!({ size: [0.7, 48] });
    return new uPlot(
      {
        width: width(el),
        height: 260,
        scales: {
          x: { time: false, range: [-0.5, Math.max(0.5, labels.length - 0.5)] },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: axes(labels),
        legend: { live: true },
        cursor: HOVER,
        series: [
          labelSeries(xName, labels),
          ...order.map((i): uPlot.Series => ({
            label: series[i]!.name,
            fill: colour(i),
            stroke: colour(i),
            paths: bars,
            points: { show: false },
            // The series' own value, not the top of its stack.
            value: (_u, _raw, _s, idx) =>
              idx === null || idx === undefined ? "–" : dollars(series[i]!.values[idx]),
          })),
        ],
      },
      [x, ...order.map((i) => stacks[i]!)] as uPlot.AlignedData,
      el,
    );
  });
}

/** One bar per label. */
export function bars(
  label: string,
  labels: string[],
  values: number[],
  names: { x: string; y: string },
): HTMLElement {
  return stackedBars(label, labels, [{ name: names.y, values }], names.x);
}

/** One role's lines on the cumulative chart, drawn in the role's colour. */
export interface RoleLine {
  /** The role's place in the page's role order: its colour, as in the bars by day. */
  index: number;
  /** Dollars spent so far at each label; null after now. */
  spent: (number | null)[];
  /** From now to the reset at the role's pace; null where there is none. */
  forecast: (number | null)[] | null;
  /** The role's cap when it is for this chart's period. */
  cap: number | null;
  /** The legend's names of its lines. */
  names: { spent: string; forecast: string; cap: string };
}

/**
 * The cumulative spend of each role, its forecast to the reset (dashed) and its own cap
 * (dotted), every line in the role's colour; `labels` are the x axis (days or hours).
 */
export function cumulative(
  label: string,
  labels: string[],
  lines: RoleLine[],
  xName = "",
): HTMLElement {
  return mount(label, (el) => {
    const x = labels.map((_, i) => i);
    const series: uPlot.Series[] = [labelSeries(xName, labels)];
    const data: (number | null)[][] = [x];
    const value = (_u: uPlot, raw: number | null) => dollars(raw);
    // Spent solid, the forecast dashed, the cap dotted: one colour per role.
    const add = (look: uPlot.Series, values: (number | null)[]) => {
      series.push({ width: 2, points: { show: false }, value, ...look });
      data.push(values);
    };
    for (const line of lines) {
      const stroke = colour(line.index);
      add({ label: line.names.spent, stroke }, line.spent);
      if (line.forecast !== null) {
        add({ label: line.names.forecast, stroke, dash: [6, 4] }, line.forecast);
      }
      if (line.cap !== null) {
        add(
          { label: line.names.cap, stroke, dash: [2, 3], width: 1.5 },
          labels.map(() => line.cap),
        );
      }
    }
    return new uPlot(
      {
        width: width(el),
        height: 240,
        scales: {
          x: { time: false },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: axes(labels),
        cursor: HOVER,
        legend: { live: true },
        series,
      },
      data as uPlot.AlignedData,
      el,
    );
  });
}
