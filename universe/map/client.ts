/**
 * The map page's script (bundled into `/assets/map.js`): the figures, the map view,
 * and on the full map the search, the agent's card and the `#<address>` fragment. A
 * fragment or query that is not a valid escape is read as it is, never thrown on.
 *
 * @module
 */
import { type MapLevel, MapView, type Selection } from "./client_view.ts";
import type { MapHit, MapOverview } from "./store.ts";
import {
  counted,
  ellipsis,
  fill,
  istanbulTime,
  lineOf,
  type MapLang,
  safeDecode,
  shortCount,
  zoomFactor,
} from "./text.ts";
import { MAP_WORDS } from "./words.ts";

interface Tau {
  address: string;
  name: string;
  owner: string;
  about: string;
  joined_at: number;
  last_seen: number;
  online: boolean;
  subs: { name: string; about: string }[];
  /** Each peer's name and state come with it (the map may not have drawn the peer). */
  links: { peer: string; messages: number; name?: string; online?: boolean }[];
}

/** `GET /api/map/places`: where the map index puts an agent and its peers. */
interface Places {
  x: number;
  y: number;
  peers: Record<string, [number, number]>;
}

const lang: MapLang = document.documentElement.lang === "tr" ? "tr" : "en";
const W = MAP_WORDS[lang];
const $ = (id: string) => document.getElementById(id);

function element(tag: string, text?: string, cls?: string): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// Node.appendChild: the Workers types checked beside this file redeclare Element.append.
function add(parent: Node, ...children: Node[]): void {
  for (const child of children) parent.appendChild(child);
}

/** Text with `code` spans for backquoted parts, built as nodes (never as HTML). */
function withCode(parent: HTMLElement, text: string): void {
  text.split("`").forEach((part, i) =>
    add(parent, i % 2 ? element("code", part) : document.createTextNode(part))
  );
}

const mapBox = $("map");
const labels = $("labels");
const full = $("search") !== null;
let names = new Map<string, string>();
let drawn: { address: string; name: string; online: boolean }[] = [];
let view: MapView | undefined;
let selected: string | undefined;

function figures(o: MapOverview): void {
  const stats = $("stats");
  if (stats) {
    stats.textContent = [
      counted(lang, o.taus, "agent"),
      counted(lang, o.online, "online"),
      counted(lang, o.links, "link"),
      counted(lang, o.messages, "message"),
    ].join(" · ");
  }
  for (
    const [id, n] of [["fig-taus", o.taus], ["fig-online", o.online], ["fig-links", o.links], [
      "fig-messages",
      o.messages,
    ]] as const
  ) {
    const e = $(id);
    if (e) e.textContent = n.toLocaleString(lang === "tr" ? "tr-TR" : "en-GB");
  }
  const empty = $("empty");
  if (empty) {
    if (o.taus === 0 && empty.childNodes.length === 0) withCode(empty, W.empty);
    empty.hidden = o.taus !== 0;
  }
  document.body.dataset.taus = String(o.taus);
}

/** The legend's zoom line and, while dots are groups, its scale of agents per dot. */
function legendLevel(level: MapLevel): void {
  const zoom = $("zoom-level");
  if (zoom) {
    const template = level.layer === "cells" ? W.zoomCells : W.zoomAgents;
    const text = fill(template, { zoom: zoomFactor(lang, level.ratio) });
    if (zoom.textContent !== text) zoom.textContent = text;
  }
  const scale = $("legend-cell");
  if (scale && level.range) {
    const locale = lang === "tr" ? "tr-TR" : "en-GB";
    scale.textContent = fill(W.legendScale, {
      min: level.range.min.toLocaleString(locale),
      max: level.range.max.toLocaleString(locale),
    });
  }
}

async function overview(): Promise<MapOverview> {
  const response = await fetch("/api/map/overview", { cache: "no-store" });
  if (!response.ok) throw new Error(String(response.status));
  return await response.json() as MapOverview;
}

function time(seconds: number): string {
  return istanbulTime(seconds);
}

function card(t: Tau | undefined, address: string): void {
  const panel = $("panel")!;
  panel.replaceChildren();
  $("panel-wrap")?.setAttribute("data-open", "1");
  if (!t) {
    add(panel, element("p", W.notFound), element("p", address, "address"));
    return;
  }
  const name = lineOf(t.name) || t.address;
  const h2 = element("h2", name);
  h2.title = name;
  add(panel, h2, element("div", t.address, "address"));
  const state = element("p", undefined, "state");
  add(
    state,
    element("span", undefined, "dot" + (t.online ? " on" : "")),
    document.createTextNode(t.online ? W.isOnline : W.isOffline),
  );
  add(panel, state);
  if (t.owner) add(panel, element("p", `${W.owner}: ${lineOf(t.owner)}`));
  if (t.about) add(panel, element("p", lineOf(t.about), "about"));
  add(
    panel,
    element(
      "p",
      `${W.joined}: ${time(t.joined_at)} · ${W.lastSeen}: ${time(t.last_seen)}`,
      "times",
    ),
  );
  add(panel, element("h3", W.subs));
  if (t.subs.length === 0) add(panel, element("p", W.none));
  else {
    const ul = element("ul");
    for (const s of t.subs) {
      add(ul, element("li", lineOf(s.name) + (s.about ? " — " + lineOf(s.about) : "")));
    }
    add(panel, ul);
  }
  add(panel, element("h3", `${W.links} (${t.links.length})`));
  if (t.links.length === 0) add(panel, element("p", W.none));
  else {
    const ul = element("ul", undefined, "links");
    for (const l of t.links) {
      const a = element(
        "a",
        `${ellipsis(lineOf(l.name ?? "") || names.get(l.peer) || l.peer, 40)} (${
          counted(lang, l.messages, "message")
        })`,
      ) as HTMLAnchorElement;
      a.href = "#" + l.peer;
      const li = element("li");
      add(li, a);
      add(ul, li);
    }
    add(panel, ul);
  }
}

async function open(address: string, center: boolean): Promise<void> {
  selected = address;
  let tau: Tau | undefined;
  let places: Places | undefined;
  const q = encodeURIComponent(address);
  try {
    const [response, where] = await Promise.all([
      fetch(`/api/taus/${q}`),
      fetch(`/api/map/places?address=${q}`),
    ]);
    tau = response.ok ? await response.json() as Tau : undefined;
    places = where.ok ? await where.json() as Places : undefined;
  } catch {
    tau = undefined;
  }
  if (selected !== address) return;
  if (tau) names.set(tau.address, lineOf(tau.name));
  card(tau, address);
  const selection: Selection | undefined = tau
    ? {
      address: tau.address,
      name: lineOf(tau.name),
      online: tau.online,
      links: tau.links.map((l) => l.name === undefined ? l : { ...l, name: lineOf(l.name) }),
      ...(places ? { places: { ...places.peers, [tau.address]: [places.x, places.y] } } : {}),
    }
    : undefined;
  view?.select(selection, center);
}

// The shape of an agent's address; any other fragment (a bad escape too) is ignored.
const ADDRESS = /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(:[0-9]{1,5})?$/;

function fromHash(): void {
  const address = safeDecode(location.hash.slice(1)).trim().toLowerCase();
  if (ADDRESS.test(address)) void open(address, true);
}

function listDrawn(agents: { address: string; name: string; online: boolean }[]): void {
  drawn = agents;
  names = new Map(agents.map((a) => [a.address, a.name]));
  const list = $("list") as HTMLDetailsElement | null;
  if (!list?.open) return;
  const ul = element("ul");
  for (const t of agents.slice(0, 3000)) {
    const a = element(
      "a",
      `${ellipsis(t.name, 60)} — ${t.address} (${t.online ? W.isOnline : W.isOffline})`,
    ) as HTMLAnchorElement;
    a.href = "#" + t.address;
    const li = element("li");
    add(li, a);
    add(ul, li);
  }
  $("list-body")!.replaceChildren(ul);
}

function setupSearch(): void {
  const input = $("search") as HTMLInputElement;
  const results = $("results")!;
  let hits: MapHit[] = [];
  let active = -1;
  let pending: Promise<void> = Promise.resolve();
  let ticket = 0;
  // The query the list on screen answers: Enter opens its highlighted row as it is.
  let shown: string | undefined;
  const mark = () => {
    [...results.children].forEach((li, i) =>
      li.setAttribute("aria-selected", String(i === active))
    );
    input.setAttribute("aria-activedescendant", active >= 0 ? `result-${active}` : "");
  };
  const show = (q: string) => {
    results.replaceChildren();
    active = -1;
    shown = q;
    if (q.trim() === "") {
      results.hidden = true;
      input.setAttribute("aria-expanded", "false");
      return;
    }
    if (hits.length === 0) add(results, element("li", W.noMatch, "empty"));
    hits.forEach((h, i) => {
      const li = element("li", undefined, "hit");
      li.id = `result-${i}`;
      li.setAttribute("role", "option");
      add(
        li,
        element("span", ellipsis(h.name, 40), "name"),
        document.createTextNode(" — "),
        element("span", h.address, "addr"),
      );
      if (h.owner) add(li, element("span", ellipsis(h.owner, 40), "owner"));
      li.addEventListener("mousedown", (e) => e.preventDefault());
      li.addEventListener("click", () => choose(i));
      add(results, li);
    });
    results.hidden = false;
    input.setAttribute("aria-expanded", "true");
    mark();
  };
  const choose = (i: number) => {
    const hit = hits[i];
    if (!hit) return;
    results.hidden = true;
    input.setAttribute("aria-expanded", "false");
    if (location.hash === "#" + hit.address) void open(hit.address, true);
    else location.hash = hit.address;
  };
  const run = () => {
    const q = input.value;
    const mine = ++ticket;
    pending = (async () => {
      if (q.trim() === "") {
        hits = [];
      } else {
        const response = await fetch(`/api/map/search?q=${encodeURIComponent(q.slice(0, 100))}`);
        const found = response.ok ? (await response.json() as { results: MapHit[] }).results : [];
        if (mine !== ticket) return;
        hits = found;
      }
      show(q);
    })().catch(() => {});
    return pending;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, 100);
  });
  input.addEventListener("keydown", async (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (hits.length === 0) return;
      active = e.key === "ArrowDown"
        ? (active + 1) % hits.length
        : (active <= 0 ? hits.length : active) - 1;
      mark();
      results.children[active]?.scrollIntoView({ block: "nearest" });
    } else if (e.key === "Enter") {
      e.preventDefault();
      clearTimeout(timer);
      // A list that answers what is typed opens its highlighted row (else its first);
      // typed faster than the list, the search runs first and its first match opens.
      if (shown === input.value && !results.hidden) {
        choose(active >= 0 ? active : 0);
        return;
      }
      await run();
      choose(0);
    } else if (e.key === "Escape") {
      results.hidden = true;
      input.setAttribute("aria-expanded", "false");
    }
  });
  input.addEventListener("blur", () => {
    setTimeout(() => (results.hidden = true), 150);
  });
  input.addEventListener("focus", () => {
    if (input.value.trim() !== "" && results.children.length > 0) results.hidden = false;
  });
}

async function refresh(first: boolean): Promise<void> {
  const status = $("status");
  try {
    const o = await overview();
    figures(o);
    await view?.setOverview(o);
    if (!first) await view?.reload();
    if (status) status.textContent = "";
  } catch {
    if (status) status.textContent = W.failed;
  }
}

function start(): void {
  if (!mapBox || !labels) return;
  view = new MapView(mapBox, labels, {
    onPick(address) {
      if (full) location.hash = address;
      else location.href = `${lang === "tr" ? "/tr" : ""}/universe#${address}`;
    },
    onDrawn: listDrawn,
    onLevel: legendLevel,
    countText: (n) => shortCount(lang, n),
    covers() {
      const base = mapBox.getBoundingClientRect();
      return [$("legend"), $("panel-wrap")].flatMap((e) => {
        const r = e?.getBoundingClientRect();
        if (!r || r.width === 0 || r.height === 0) return [];
        const box = {
          left: r.left - base.left,
          top: r.top - base.top,
          width: r.width,
          height: r.height,
        };
        // Only what lies over the map counts (the desktop's side panel sits beside it).
        return box.left >= base.width || box.top >= base.height || box.left + box.width <= 0
          ? []
          : [box];
      });
    },
  });
  (globalThis as unknown as { universeMap: MapView }).universeMap = view;
  if (full) {
    setupSearch();
    $("zoom-in")?.addEventListener("click", () => view?.zoom(1.6));
    $("zoom-out")?.addEventListener("click", () => view?.zoom(1 / 1.6));
    $("zoom-fit")?.addEventListener("click", () => view?.fit());
    $("panel-close")?.addEventListener("click", () => {
      $("panel-wrap")?.removeAttribute("data-open");
      selected = undefined;
      view?.select(undefined, false);
      history.replaceState(null, "", location.pathname + location.search);
    });
    $("list")?.addEventListener("toggle", () => listDrawn(drawn));
    globalThis.addEventListener("hashchange", fromHash);
  }
  const status = $("status");
  if (status) status.textContent = W.loading;
  void refresh(true).then(() => {
    if (full) fromHash();
  });
  setInterval(() => void refresh(false), 60_000);
}

start();
