/**
 * The pages' stylesheet and icon, served by the Worker itself from `/assets/` (no
 * outside resource, no inline script or style, as the CSP requires). The map's script
 * is `_map_js.ts`, bundled from `map/` by `deno task kit:build`.
 *
 * @module
 */
import { MAP_COLOURS as C } from "./map/words.ts";

/** `/favicon.svg` (also answered at `/favicon.ico`): a small galaxy of linked dots. */
export const FAVICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0d1117"/><path d="M9 21L16 9L24 19L9 21M16 9L16 25" stroke="${C.link}" stroke-width="1.6" fill="none"/><circle cx="9" cy="21" r="3" fill="${C.online}"/><circle cx="16" cy="9" r="3.2" fill="${C.selected}"/><circle cx="24" cy="19" r="3" fill="${C.online}"/><circle cx="16" cy="25" r="2.4" fill="${C.offline}"/></svg>`;

/** `/assets/site.css`. */
export const SITE_CSS = `
:root { color-scheme: dark; --bg: #0d1117; --fg: #e6edf3; --muted: #8b949e; --accent: #58a6ff;
  --panel: #161b22; --line: #30363d; --header: 3.2rem; }
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
a { color: var(--accent); }
header.site { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; align-items: baseline;
  padding: .6rem 1rem; border-bottom: 1px solid var(--line); min-height: var(--header); }
header.site .brand { font-weight: 700; font-size: 1.1rem; color: var(--fg); text-decoration: none; }
header.site nav { display: flex; gap: 1rem; flex-wrap: wrap; }
header.site .lang { margin-left: auto; }
main.page, section.page { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
main.page h1 { font-size: 2rem; line-height: 1.2; }
.cta { display: inline-block; margin-top: 1rem; padding: .6rem 1rem; border-radius: .5rem;
  background: var(--accent); color: #0d1117; font-weight: 600; text-decoration: none; }
code { background: var(--panel); padding: .1rem .3rem; border-radius: .25rem; }
pre.join { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem;
  padding: .8rem 1rem; font-size: 1.05rem; overflow-x: auto; }
pre.join code { padding: 0; }
.hidden { display: none; }

/* The landing page: words and figures beside the live map. */
main.landing { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.2fr); gap: 1rem 2rem;
  max-width: 80rem; margin: 0 auto; padding: 1.5rem 1rem; }
main.landing h1 { font-size: 2.4rem; line-height: 1.15; margin: .5rem 0; }
main.landing .lede { font-size: 1.15rem; color: #c9d1d9; }
main.landing .note { color: var(--muted); font-size: .95rem; }
main.landing section.page { grid-column: 1 / -1; padding-top: 0; }
.figures { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: .5rem; margin: 1.25rem 0; }
.figures div { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .6rem; }
.figures dd { margin: 0; font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.figures dt { color: var(--muted); font-size: .85rem; }
section.preview .canvas-wrap { height: 100%; min-height: 26rem; border: 1px solid var(--line); border-radius: .75rem; }

/* The map. */
main.map { display: grid; grid-template-columns: minmax(0, 1fr) 22rem; grid-template-rows: auto minmax(0, 1fr) auto;
  height: calc(100vh - var(--header)); height: calc(100dvh - var(--header)); }
.toolbar { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: center;
  padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
.searchbox { position: relative; flex: 1 1 16rem; min-width: 10rem; }
.searchbox input { width: 100%; padding: .45rem .6rem; border-radius: .4rem; font-size: 1rem;
  border: 1px solid var(--line); background: var(--panel); color: var(--fg); }
.results { position: absolute; z-index: 20; left: 0; right: 0; top: calc(100% + .25rem); list-style: none;
  margin: 0; padding: .25rem 0; max-height: min(22rem, 50vh); overflow: auto; background: var(--panel);
  border: 1px solid var(--line); border-radius: .4rem; box-shadow: 0 8px 24px #000a; }
.results[hidden] { display: none; }
.results li { padding: .35rem .7rem; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.results li .addr, .results li .owner { color: var(--muted); font-size: .85rem; }
.results li .owner { margin-left: .5rem; }
.results li[aria-selected="true"], .results li.hit:hover { background: #1f6feb44; }
.results li.empty { color: var(--muted); cursor: default; }
.toolbar .stats { color: var(--muted); font-size: .9rem; }
.toolbar button { padding: .35rem .7rem; border-radius: .4rem; border: 1px solid var(--line);
  background: var(--panel); color: var(--fg); cursor: pointer; font-size: 1rem; }
.canvas-wrap { position: relative; overflow: hidden; min-height: 0; }
.map-canvas { position: absolute; inset: 0; }
.labels { position: absolute; inset: 0; pointer-events: none; overflow: hidden; }
.label { position: absolute; left: 0; top: 0; height: 16px; padding: 0 4px; font: 12px/16px system-ui, sans-serif;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; color: #c9d1d9; text-shadow: 0 0 3px #0d1117, 0 0 2px #0d1117; }
.label.chosen { color: ${C.selected}; }
/* A group's count, zoomed out: quieter than a name. */
.label.count { color: #a8b3bf; font-variant-numeric: tabular-nums; }
/* Not linked to the chosen agent: dimmed like its dot. */
.label.faded { opacity: .4; }
.empty, .status { position: absolute; left: 50%; top: 40%; transform: translate(-50%, -50%); margin: 0;
  max-width: 30rem; width: calc(100% - 2rem); text-align: center; font-size: 1.1rem; color: #c9d1d9; }
.status:empty { display: none; }
.empty[hidden] { display: none; }
.legend { position: absolute; left: .6rem; bottom: .6rem; margin: 0; padding: .4rem .6rem; list-style: none;
  background: #161b22e0; border: 1px solid var(--line); border-radius: .4rem; font-size: .78rem; color: #c9d1d9; }
.legend li { display: flex; align-items: center; gap: .4rem; line-height: 1.5; }
.legend .key { display: inline-block; width: .7rem; height: .7rem; border-radius: 50%; }
.legend .online { background: ${C.online}; }
.legend .offline { background: ${C.offline}; }
.legend .link { height: 3px; border-radius: 2px; background: ${C.link}; }
.legend .selected { background: ${C.selected}; }
/* Areas are drawn blue to purple as they fill: the key shows the whole range. */
.legend .cell { width: 1.4rem; background: linear-gradient(90deg, ${C.cellLow}, ${C.cellHigh}); border-radius: 2px; }
/* Each key only where it can be seen: cells on a large universe, a chosen agent on the map page. */
.legend .link-hover { width: .7rem; height: 3px; border-radius: 2px; background: ${C.link}; }
/* Many links drawn: they show for the agent pointed at, and the key says so. */
.legend li.k-link-hover, body[data-links-on-hover="true"] .legend li.k-link { display: none; }
body[data-links-on-hover="true"] .legend li.k-link-hover { display: flex; }
.legend li.k-cell, .legend li.k-selected, .legend li.k-zoom { display: none; }
body[data-layer="cells"] .legend li.k-cell, main.map .legend li.k-selected { display: flex; }
/* The zoom level only where zooming changes what a dot is: a universe too large to draw whole. */
body[data-layer="cells"] .legend li.k-zoom, body[data-layer="area"] .legend li.k-zoom { display: flex;
  color: var(--fg); font-weight: 600; }
aside.panel { position: relative; border-left: 1px solid var(--line); background: var(--panel); padding: 1rem; overflow: auto; }
aside.panel .close { display: none; }
aside.panel h2 { margin: 0 1.5rem .25rem 0; font-size: 1.2rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
aside.panel h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
aside.panel p { margin: .4rem 0; overflow-wrap: anywhere; }
aside.panel .address { color: var(--muted); word-break: break-all; font-size: .9rem; }
aside.panel .dot { display: inline-block; width: .6rem; height: .6rem; border-radius: 50%;
  margin-right: .4rem; background: ${C.offline}; }
aside.panel .dot.on { background: ${C.online}; }
aside.panel ul { padding-left: 1.1rem; margin: .25rem 0; }
aside.panel li { overflow-wrap: anywhere; }
details.list { grid-column: 1 / -1; border-top: 1px solid var(--line); padding: .4rem 1rem; max-height: 40vh; overflow: auto; }
details.list li { margin: .2rem 0; }

@media (max-width: 900px) {
  main.landing { grid-template-columns: minmax(0, 1fr); }
  section.preview .canvas-wrap { min-height: 20rem; height: 20rem; }
  .figures { grid-template-columns: repeat(2, minmax(0, 1fr)); }
}
/* A phone: the search on top, the map below it, the chosen agent's card a sheet over
   the map's lower part; nothing needs scrolling. */
@media (max-width: 760px) {
  :root { --header: 5.4rem; }
  header.site { padding: .5rem .75rem; }
  main.map { grid-template-columns: minmax(0, 1fr); grid-template-rows: auto minmax(0, 1fr) auto; position: relative; }
  .toolbar { padding: .4rem .6rem; gap: .3rem .4rem; }
  .searchbox { flex: 1 1 8rem; }
  .toolbar button { padding: .35rem .6rem; }
  .toolbar .stats { flex: 1 1 100%; font-size: .78rem; }
  .legend { display: flex; flex-wrap: wrap; gap: 0 .6rem; left: .4rem; right: .4rem; top: .4rem; bottom: auto;
    font-size: .68rem; padding: .15rem .45rem; }
  aside.panel { position: absolute; left: 0; right: 0; bottom: 0; z-index: 10; max-height: 46%;
    border-left: 0; border-top: 1px solid var(--line); border-radius: .75rem .75rem 0 0;
    box-shadow: 0 -8px 24px #000a; padding: .75rem 1rem; display: none; }
  aside.panel[data-open] { display: block; }
  aside.panel .close { display: block; position: absolute; right: .5rem; top: .4rem; width: 2.2rem; height: 2.2rem;
    border: 0; background: transparent; color: var(--fg); font-size: 1.5rem; cursor: pointer; }
  details.list { display: none; }
}
/* An empty universe: its sentence alone, no legend for nothing, no card panel or list. */
body[data-taus="0"] .legend, body[data-taus="0"] aside.panel, body[data-taus="0"] details.list { display: none; }
body[data-taus="0"] main.map { grid-template-columns: minmax(0, 1fr); }
`;
