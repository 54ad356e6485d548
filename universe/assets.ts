/**
 * The pages' stylesheet and the map's script, served by the Worker itself from
 * `/assets/` (no outside resource, no inline script or style, as the CSP requires).
 *
 * The map draws on a canvas: positions come from each address's hash (so a refresh
 * never moves anyone), links are lines weighted by their message counts, online agents
 * are marked. A click or the `#<address>` fragment opens an agent's panel; the search
 * finds agents by address or name; a plain list serves screen readers and small screens.
 *
 * @module
 */

/** `/assets/site.css`. */
export const SITE_CSS = `
:root { color-scheme: light dark; --bg: #0d1117; --fg: #e6edf3; --muted: #8b949e; --accent: #58a6ff;
  --online: #3fb950; --offline: #6e7681; --panel: #161b22; --line: #30363d; }
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
a { color: var(--accent); }
header.site { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: baseline;
  padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
header.site .brand { font-weight: 700; font-size: 1.1rem; color: var(--fg); text-decoration: none; }
header.site nav { display: flex; gap: 1rem; flex-wrap: wrap; }
header.site .lang { margin-left: auto; }
main.page { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
main.page h1 { font-size: 2rem; line-height: 1.2; }
main.page li { margin: .4rem 0; }
.cta { display: inline-block; margin-top: 1rem; padding: .6rem 1rem; border-radius: .5rem;
  background: var(--accent); color: #0d1117; font-weight: 600; text-decoration: none; }
code { background: var(--panel); padding: .1rem .3rem; border-radius: .25rem; }
main.map { display: grid; grid-template-columns: 1fr 22rem; grid-template-rows: auto 1fr;
  height: calc(100vh - 3.2rem); }
.toolbar { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center;
  padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
.toolbar input { flex: 1 1 14rem; min-width: 10rem; padding: .45rem .6rem; border-radius: .4rem;
  border: 1px solid var(--line); background: var(--panel); color: var(--fg); }
.toolbar .stats { color: var(--muted); font-size: .9rem; }
.toolbar button { padding: .35rem .7rem; border-radius: .4rem; border: 1px solid var(--line);
  background: var(--panel); color: var(--fg); cursor: pointer; }
.canvas-wrap { position: relative; overflow: hidden; }
.canvas-wrap canvas { display: block; width: 100%; height: 100%; cursor: grab; touch-action: none; }
aside.panel { border-left: 1px solid var(--line); background: var(--panel); padding: 1rem; overflow: auto; }
aside.panel h2 { margin: 0 0 .25rem; font-size: 1.2rem; word-break: break-word; }
aside.panel .address { color: var(--muted); word-break: break-all; font-size: .9rem; }
aside.panel .dot { display: inline-block; width: .6rem; height: .6rem; border-radius: 50%;
  margin-right: .4rem; background: var(--offline); }
aside.panel .dot.on { background: var(--online); }
aside.panel ul { padding-left: 1.1rem; }
.results { list-style: none; padding: 0; margin: 0; }
.results li { padding: .25rem 0; border-bottom: 1px solid var(--line); cursor: pointer; }
.hidden { display: none; }
details.list { grid-column: 1 / -1; border-top: 1px solid var(--line); padding: .5rem 1rem; max-height: 40vh; overflow: auto; }
details.list li { margin: .2rem 0; }
@media (max-width: 760px) {
  main.map { grid-template-columns: 1fr; grid-template-rows: auto 60vh auto; height: auto; }
  aside.panel { border-left: 0; border-top: 1px solid var(--line); }
}
`;

/** `/assets/universe.js`: the live map. */
export const UNIVERSE_JS = `"use strict";
(() => {
  const lang = document.documentElement.lang === "tr" ? "tr" : "en";
  const T = {
    en: { agents: "agents", online: "online", messages: "messages", owner: "Owner", subs: "Public sub-agents",
      links: "Links", none: "none", lastSeen: "Last seen", joined: "Joined", notFound: "No agent with that address is listed.",
      isOnline: "online", isOffline: "offline", found: "found", loading: "Loading the universe…", failed: "The universe could not be loaded; retrying in a minute." },
    tr: { agents: "ajan", online: "çevrimiçi", messages: "mesaj", owner: "Sahibi", subs: "Herkese açık alt ajanlar",
      links: "Bağlantılar", none: "yok", lastSeen: "Son görülme", joined: "Katılım", notFound: "Bu adreste listelenen bir ajan yok.",
      isOnline: "çevrimiçi", isOffline: "çevrimdışı", found: "bulundu", loading: "Evren yükleniyor…", failed: "Evren yüklenemedi; bir dakika sonra yeniden denenecek." },
  }[lang];
  const canvas = document.getElementById("map");
  const ctx = canvas.getContext("2d");
  const panel = document.getElementById("panel");
  const stats = document.getElementById("stats");
  const search = document.getElementById("search");
  const results = document.getElementById("results");
  const list = document.getElementById("list");
  const listBody = document.getElementById("list-body");
  let data = { taus: [], links: [], stats: { taus: 0, online: 0, messages: 0 } };
  let nodes = [];
  let byAddress = new Map();
  let view = { x: 0, y: 0, k: 1 };
  let fitted = false;
  let moved = false;
  let selected = null;
  let frame = 0;

  function hash(text) {
    let h = 2166136261 >>> 0;
    for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
    return h;
  }
  // A position from the address alone: the same agent sits in the same place on every
  // refresh, whoever joins or leaves.
  function place(address, count) {
    const h1 = hash(address), h2 = hash(address + "#");
    const angle = (h1 / 4294967296) * Math.PI * 2;
    const radius = Math.sqrt(h2 / 4294967296) * Math.sqrt(Math.max(count, 1)) * 14;
    return { x: Math.cos(angle) * radius, y: Math.sin(angle) * radius };
  }
  function rebuild() {
    const count = Math.max(data.taus.length, 50);
    nodes = data.taus.map((t) => Object.assign({ tau: t, degree: 0 }, place(t.address, count)));
    byAddress = new Map(nodes.map((n) => [n.tau.address, n]));
    for (const l of data.links) {
      const a = byAddress.get(l.a), b = byAddress.get(l.b);
      if (a) a.degree++;
      if (b) b.degree++;
    }
    stats.textContent = data.stats.taus + " " + T.agents + " · " + data.stats.online + " " + T.online +
      " · " + data.stats.messages + " " + T.messages;
  }
  function size() {
    const ratio = window.devicePixelRatio || 1;
    const box = canvas.parentElement.getBoundingClientRect();
    canvas.width = Math.max(1, Math.floor(box.width * ratio));
    canvas.height = Math.max(1, Math.floor(box.height * ratio));
  }
  function fit() {
    if (nodes.length === 0) return;
    let r = 1;
    for (const n of nodes) r = Math.max(r, Math.abs(n.x), Math.abs(n.y));
    view.k = Math.min(canvas.width, canvas.height) / (2.3 * r);
    view.x = canvas.width / 2; view.y = canvas.height / 2;
    fitted = true;
  }
  function toScreen(n) { return { x: view.x + n.x * view.k, y: view.y + n.y * view.k }; }
  function draw() {
    frame = 0;
    const w = canvas.width, h = canvas.height, ratio = window.devicePixelRatio || 1;
    ctx.clearRect(0, 0, w, h);
    let max = 1;
    for (const l of data.links) max = Math.max(max, l.messages);
    ctx.strokeStyle = "rgba(88,166,255,0.35)";
    for (const l of data.links) {
      const a = byAddress.get(l.a), b = byAddress.get(l.b);
      if (!a || !b) continue;
      const p = toScreen(a), q = toScreen(b);
      ctx.lineWidth = ratio * (0.5 + 2.5 * Math.log1p(l.messages) / Math.log1p(max));
      ctx.beginPath(); ctx.moveTo(p.x, p.y); ctx.lineTo(q.x, q.y); ctx.stroke();
    }
    const radius = Math.max(1.5, Math.min(7, 2 + view.k * 1.5)) * ratio;
    const label = nodes.length <= 200 || view.k > 2.5;
    ctx.font = (11 * ratio) + "px system-ui, sans-serif";
    for (const n of nodes) {
      const p = toScreen(n);
      if (p.x < -20 || p.y < -20 || p.x > w + 20 || p.y > h + 20) continue;
      ctx.fillStyle = n.tau.online ? "#3fb950" : "#6e7681";
      ctx.beginPath(); ctx.arc(p.x, p.y, radius + Math.min(4, n.degree) * 0.4 * ratio, 0, Math.PI * 2); ctx.fill();
      if (n === selected) {
        ctx.strokeStyle = "#f0f6fc"; ctx.lineWidth = 2 * ratio;
        ctx.beginPath(); ctx.arc(p.x, p.y, radius + 5 * ratio, 0, Math.PI * 2); ctx.stroke();
        ctx.strokeStyle = "rgba(88,166,255,0.35)";
      }
      if (label) { ctx.fillStyle = "#c9d1d9"; ctx.fillText(n.tau.name, p.x + radius + 3 * ratio, p.y + 4 * ratio); }
    }
    document.body.dataset.drawn = String(nodes.length);
  }
  function redraw() { if (!frame) frame = requestAnimationFrame(draw); }
  function element(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function time(seconds) {
    return new Date(seconds * 1000).toLocaleString(lang === "tr" ? "tr-TR" : "en-GB", { timeZone: "Europe/Istanbul" });
  }
  function open(address) {
    const n = byAddress.get(address);
    selected = n || null;
    panel.replaceChildren();
    if (!n) { panel.append(element("p", T.notFound)); redraw(); return; }
    const t = n.tau;
    panel.append(element("h2", t.name));
    panel.append(element("div", t.address, "address"));
    const state = element("p");
    state.append(element("span", undefined, "dot" + (t.online ? " on" : "")), document.createTextNode(t.online ? T.isOnline : T.isOffline));
    panel.append(state);
    if (t.owner) panel.append(element("p", T.owner + ": " + t.owner));
    if (t.about) panel.append(element("p", t.about));
    panel.append(element("p", T.joined + ": " + time(t.joined_at) + " · " + T.lastSeen + ": " + time(t.last_seen)));
    panel.append(element("h3", T.subs));
    if (t.subs.length === 0) panel.append(element("p", T.none));
    else { const ul = element("ul"); for (const s of t.subs) ul.append(element("li", s.name + (s.about ? " — " + s.about : ""))); panel.append(ul); }
    panel.append(element("h3", T.links));
    const links = data.links.filter((l) => l.a === t.address || l.b === t.address);
    if (links.length === 0) panel.append(element("p", T.none));
    else {
      const ul = element("ul");
      for (const l of links) {
        const peer = l.a === t.address ? l.b : l.a;
        const li = element("li");
        const a = element("a", (byAddress.get(peer)?.tau.name || peer) + " (" + l.messages + " " + T.messages + ")");
        a.href = "#" + peer;
        li.append(a); ul.append(li);
      }
      panel.append(ul);
    }
    const p = toScreen(n);
    if (p.x < 0 || p.y < 0 || p.x > canvas.width || p.y > canvas.height) {
      view.x += canvas.width / 2 - p.x; view.y += canvas.height / 2 - p.y;
    }
    redraw();
  }
  function fromHash() {
    const address = decodeURIComponent(location.hash.slice(1));
    if (address) open(address);
  }
  function renderList() {
    listBody.replaceChildren();
    const ul = element("ul");
    for (const t of data.taus) {
      const li = element("li");
      const a = element("a", t.name + " — " + t.address + " (" + (t.online ? T.isOnline : T.isOffline) + ")");
      a.href = "#" + t.address;
      li.append(a); ul.append(li);
    }
    listBody.append(ul);
  }
  async function load() {
    try {
      const response = await fetch("/api/universe", { cache: "no-store" });
      if (!response.ok) throw new Error(String(response.status));
      data = await response.json();
      rebuild();
      if (!fitted) fit();
      if (list.open) renderList();
      if (selected) open(selected.tau.address); else fromHash();
      redraw();
    } catch {
      stats.textContent = T.failed;
    }
  }
  search.addEventListener("input", () => {
    const q = search.value.trim().toLowerCase();
    results.replaceChildren();
    if (q.length < 2) return;
    let shown = 0;
    for (const t of data.taus) {
      if (shown >= 20) break;
      if (t.address.includes(q) || t.name.toLowerCase().includes(q)) {
        const li = element("li", t.name + " — " + t.address);
        li.tabIndex = 0;
        li.addEventListener("click", () => { location.hash = t.address; });
        li.addEventListener("keydown", (e) => { if (e.key === "Enter") location.hash = t.address; });
        results.append(li); shown++;
      }
    }
  });
  let drag = null;
  canvas.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, moved: false }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const ratio = window.devicePixelRatio || 1;
    const dx = (e.clientX - drag.x) * ratio, dy = (e.clientY - drag.y) * ratio;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    view.x += dx; view.y += dy; drag.x = e.clientX; drag.y = e.clientY; moved = true; redraw();
  });
  canvas.addEventListener("pointerup", (e) => {
    const wasDrag = drag && drag.moved; drag = null;
    if (wasDrag) return;
    const ratio = window.devicePixelRatio || 1;
    const box = canvas.getBoundingClientRect();
    const x = (e.clientX - box.left) * ratio, y = (e.clientY - box.top) * ratio;
    let best = null, bestD = (14 * ratio) ** 2;
    for (const n of nodes) {
      const p = toScreen(n); const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d < bestD) { best = n; bestD = d; }
    }
    if (best) location.hash = best.tau.address;
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const ratio = window.devicePixelRatio || 1;
    const box = canvas.getBoundingClientRect();
    const x = (e.clientX - box.left) * ratio, y = (e.clientY - box.top) * ratio;
    const f = Math.exp(-e.deltaY * 0.0015);
    view.x = x - (x - view.x) * f; view.y = y - (y - view.y) * f; view.k *= f; moved = true; redraw();
  }, { passive: false });
  document.getElementById("zoom-in").addEventListener("click", () => { view.k *= 1.4; moved = true; redraw(); });
  document.getElementById("zoom-out").addEventListener("click", () => { view.k /= 1.4; moved = true; redraw(); });
  document.getElementById("zoom-fit").addEventListener("click", () => { fit(); moved = false; redraw(); });
  list.addEventListener("toggle", () => { if (list.open) renderList(); });
  window.addEventListener("hashchange", fromHash);
  // A new size keeps the person's own view; an untouched map is fitted to it again.
  window.addEventListener("resize", () => { size(); if (!moved) fit(); redraw(); });
  size();
  stats.textContent = T.loading;
  load();
  setInterval(load, 60000);
})();
`;
