/**
 * The Spend page's tables: each inside a disclosure (a month of sessions is hundreds of
 * rows, on a phone each a block of lines), sortable by any column from its head, and,
 * for a long breakdown, its top rows with the rest as one "Other" row until the person
 * asks for all. The page builds the rows of each view (the money column's digits
 * depend on which rows it must add up); this file draws and sorts them.
 *
 * @module
 */
import { h, replace } from "./dom.ts";
import { t } from "./i18n.ts";

/** One row: what its cells show, what they sort by, and a title for those that have one. */
export interface TableRow {
  cells: string[];
  keys: (number | string)[];
  titles?: (string | undefined)[];
}

/** The rows of one view, and the rows under them that never move (Other, Total). */
export interface TableView {
  rows: TableRow[];
  foot: TableRow[];
}

/** Options for {@linkcode spendTable}. */
export interface SpendTableOptions {
  /** How many rows the whole table has; when the first view shows fewer, a button shows all. */
  count: number;
  /** How many rows the first view shows. @default count */
  top?: number;
  /** Whether the disclosure starts open. @default true */
  open?: boolean;
  /** A class the table takes besides `spend` (`days`: a phone keeps it a grid). */
  kind?: string;
}

/**
 * A table under a `<details>` whose summary counts its rows; `view(all)` gives the rows
 * of the first view (`false`) or of every row (`true`).
 */
export function spendTable(
  head: string[],
  view: (all: boolean) => TableView,
  options: SpendTableOptions,
): HTMLElement {
  const top = options.top ?? options.count;
  let all = top >= options.count;
  let sortColumn: number | null = null;
  let direction: 1 | -1 = 1;
  const body = h("tbody");
  const foot = h("tfoot");
  const heads = head.map((name, i) =>
    h(
      "th",
      { scope: "col", "aria-sort": "none" },
      h(
        "button",
        {
          type: "button",
          class: "sort",
          title: t("sort_by", { column: name }),
          onclick: () => {
            direction = sortColumn === i ? (direction === 1 ? -1 : 1) : i === 0 ? 1 : -1;
            sortColumn = i;
            draw();
          },
        },
        name,
        h("span", { class: "arrow", "aria-hidden": "true" }),
      ),
    )
  );
  const more = h("button", {
    type: "button",
    class: "more",
    onclick: () => {
      all = !all;
      draw();
    },
  });
  const draw = () => {
    const shown = view(all);
    const rows = [...shown.rows];
    if (sortColumn !== null) {
      const c = sortColumn;
      rows.sort((a, b) => direction * compare(a.keys[c]!, b.keys[c]!));
    }
    heads.forEach((th, i) => {
      const sorted = i === sortColumn;
      th.setAttribute(
        "aria-sort",
        sorted ? (direction === 1 ? "ascending" : "descending") : "none",
      );
      th.querySelector(".arrow")!.textContent = sorted ? (direction === 1 ? " ▲" : " ▼") : "";
    });
    replace(body, rows.map((r) => line(head, r)));
    replace(foot, shown.foot.map((r) => line(head, r)));
    more.textContent = all ? t("show_top", { n: top }) : t("show_all", { n: options.count });
  };
  draw();
  return h(
    "details",
    { class: "table-details", open: options.open ?? true },
    h(
      "summary",
      {},
      options.count === 1 ? t("table_row_one") : t("table_rows", { n: options.count }),
    ),
    h(
      "div",
      { class: "table-wrap", tabindex: 0, role: "region", "aria-label": head.join(", ") },
      h(
        "table",
        { class: options.kind ? `spend ${options.kind}` : "spend" },
        h("thead", {}, h("tr", {}, heads)),
        body,
        foot,
      ),
    ),
    top < options.count ? more : null,
  );
}

function line(head: string[], row: TableRow): HTMLElement {
  return h(
    "tr",
    {},
    // The labels name each figure on a phone, where a row is a block of lines.
    row.cells.map((c, i) =>
      i === 0
        ? h("th", { scope: "row", title: row.titles?.[i] }, c)
        : h("td", { "data-label": head[i], title: row.titles?.[i] }, c)
    ),
  );
}

function compare(a: number | string, b: number | string): number {
  return typeof a === "number" && typeof b === "number"
    ? a - b
    : String(a).localeCompare(String(b));
}
