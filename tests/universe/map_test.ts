/**
 * The map's endpoints on workerd: the overview's cell counts and figures, the area's
 * agents and links and its cap, the folded search, the index following joins, names,
 * leaves and the cron, the build laying linked agents out near their peers and
 * `/api/map/places`; and the pages around the map (404 in en/tr, meta, favicon, no
 * failure on malformed escapes).
 */
import assert from "node:assert/strict";
import { cellOf, positionOf } from "@agent/universe";
import {
  directoryStub,
  fileUniverse,
  type RunningUniverse,
  seed,
  type SeedAgent,
  startAgent,
  startUniverse,
} from "./_harness.ts";

const T = { sanitizeOps: false, sanitizeResources: false };

// The two search tests and the pages test share a universe: the searches' agents are
// addresses and words of their own (no query of one finds the other's), and the pages
// read nothing stored. The tests that count the directory or lay it out take their own.
const readers = fileUniverse();

// deno-lint-ignore no-explicit-any
async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

/** Builds the snapshot now, which lays the map out (as the alarm would, a moment later). */
async function build(u: RunningUniverse): Promise<void> {
  const res = await (await directoryStub(u)).fetch("https://directory.internal/build", {
    method: "POST",
  });
  assert.equal(res.status, 200, await res.text());
}

/** Every agent's place, as the map index holds it. */
async function places(u: RunningUniverse): Promise<Map<string, { x: number; y: number }>> {
  const whole = await getJson(`${u.url}/api/map/area?x0=0&y0=0&x1=1&y1=1`);
  return new Map(
    whole.body.agents.map((a: { address: string; x: number; y: number }) => [a.address, {
      x: a.x,
      y: a.y,
    }]),
  );
}

function ring(n: number): SeedAgent[] {
  return Array.from({ length: n }, (_, i) => ({
    address: `agent-${i}.example`,
    name: `Agent ${i}`,
    owner: `Owner ${i}`,
    about: `About ${i}`,
    links: [
      { peer: `agent-${(i + 1) % n}.example`, messages: 3 },
      { peer: `agent-${(i + n - 1) % n}.example`, messages: 3 },
    ],
  }));
}

Deno.test({
  name: "map: the overview counts each agent in the cell of its position, with the figures",
  ...T,
  async fn() {
    const u = await startUniverse();
    try {
      let r = await getJson(`${u.url}/api/map/overview`);
      assert.deepEqual(r.body, { grid: 64, taus: 0, online: 0, links: 0, messages: 0, cells: [] });
      const agents = ring(30);
      await seed(u, agents);
      await build(u);
      r = await getJson(`${u.url}/api/map/overview`);
      assert.equal(r.status, 200);
      const want = new Map<number, number>();
      const at = await places(u);
      for (const a of agents) {
        const cell = cellOf(at.get(a.address)!);
        want.set(cell, (want.get(cell) ?? 0) + 1);
      }
      const got = new Map<number, number>();
      for (let i = 0; i < r.body.cells.length; i += 2) {
        got.set(r.body.cells[i], r.body.cells[i + 1]);
      }
      assert.deepEqual(got, want);
      assert.deepEqual([r.body.taus, r.body.online, r.body.links, r.body.messages], [
        30,
        30,
        30,
        90,
      ]);
    } finally {
      await u.stop();
    }
  },
});

Deno.test({
  name: "map: the area holds exactly the agents inside the rectangle and their mutual links",
  ...T,
  async fn() {
    const u = await startUniverse();
    try {
      const agents = ring(60);
      await seed(u, agents);
      await build(u);
      const at = await places(u);
      const whole = await getJson(`${u.url}/api/map/area?x0=0&y0=0&x1=1&y1=1`);
      assert.equal(whole.body.agents.length, 60);
      assert.equal(whole.body.links.length / 3, 60);
      assert.equal(whole.body.truncated, false);
      const rect = { x0: 0.2, y0: 0.3, x1: 0.6, y1: 0.7 };
      const inside = agents.map((a) => a.address).filter((address) => {
        const p = at.get(address)!;
        return p.x >= rect.x0 && p.x <= rect.x1 && p.y >= rect.y0 && p.y <= rect.y1;
      }).sort();
      const part = await getJson(
        `${u.url}/api/map/area?x0=${rect.x0}&y0=${rect.y0}&x1=${rect.x1}&y1=${rect.y1}`,
      );
      const got = part.body.agents.map((a: { address: string }) => a.address).sort();
      assert.deepEqual(got, inside);
      for (const a of part.body.agents) {
        assert.deepEqual({ x: a.x, y: a.y }, at.get(a.address));
        assert.equal(a.online, true);
      }
      const set = new Set(inside);
      const links = part.body.links as number[];
      for (let i = 0; i < links.length; i += 3) {
        const a = part.body.agents[links[i]!].address, b = part.body.agents[links[i + 1]!].address;
        assert.ok(set.has(a) && set.has(b));
        assert.equal(links[i + 2], 3);
      }
      const capped = await getJson(`${u.url}/api/map/area?x0=0&y0=0&x1=1&y1=1&cap=10`);
      assert.deepEqual([capped.body.agents.length, capped.body.truncated], [10, true]);
      for (
        const [query, detail] of [
          ["x0=0&y0=0&x1=2&y1=1", "x1 must be a number from 0 to 1"],
          ["x0=0&y0=0&x1=1", "y1 must be a number from 0 to 1"],
          ["x0=0.5&y0=0&x1=0.4&y1=1", "x0 and y0 must not be greater than x1 and y1"],
          ["x0=0&y0=0&x1=1&y1=1&cap=0", "cap must be a whole number from 1 to 5000"],
          ["x0=NaN&y0=0&x1=1&y1=1", "x0 must be a number from 0 to 1"],
        ]
      ) {
        const bad = await getJson(`${u.url}/api/map/area?${query}`);
        assert.deepEqual([bad.status, bad.body], [400, { error: "bad_request", detail }], query);
      }
      const unknown = await getJson(`${u.url}/api/map/tiles`);
      assert.deepEqual([unknown.status, unknown.body], [404, { error: "not_found" }]);
    } finally {
      await u.stop();
    }
  },
});

Deno.test({
  name: "map: search folds case and diacritics over name, owner, about and address from one letter",
  ...T,
  async fn() {
    const u = await readers();
    await seed(u, [
      { address: "ozlem.example", name: "Özlem Işık", owner: "", about: "" },
      { address: "cafe.example", name: "Bob", owner: "Şule Çelik", about: "" },
      { address: "zed.example", name: "Zed", owner: "", about: "knows the İstanbul ferries" },
      { address: "quiet.example", name: "Quiet", owner: "", about: "" },
    ]);
    const search = async (q: string) =>
      (await getJson(`${u.url}/api/map/search?q=${encodeURIComponent(q)}`)).body.results
        .map((h: { address: string }) => h.address);
    assert.deepEqual(await search("ozlem"), ["ozlem.example"]);
    assert.deepEqual(await search("OZLEM ISIK"), ["ozlem.example"]);
    assert.deepEqual(await search("sule celik"), ["cafe.example"]);
    assert.deepEqual(await search("istanbul"), ["zed.example"]);
    assert.deepEqual(await search("quiet.ex"), ["quiet.example"]);
    assert.deepEqual(await search("q"), ["quiet.example"]);
    assert.deepEqual(await search("%"), []);
    assert.deepEqual(await search(""), []);
    const first = (await getJson(`${u.url}/api/map/search?q=z`)).body.results[0];
    assert.deepEqual(
      [first.name, first.owner, first.about],
      ["Zed", "", "knows the İstanbul ferries"],
    );
    const long = await getJson(`${u.url}/api/map/search?q=${"a".repeat(101)}`);
    assert.deepEqual(long.body, {
      error: "bad_request",
      detail: "q must be at most 100 characters",
    });
  },
});

Deno.test({
  name:
    "map: a search up to the documented 100 characters answers 200, past SQLite's LIKE limit (U1)",
  ...T,
  async fn() {
    const u = await readers();
    const about = "a very long line about what this agent does, written by its owner, " +
      "to be found by the whole of it, a hundred characters and more";
    await seed(u, [
      { address: "long.example", name: "Long", owner: "", about },
      { address: "ss.example", name: "Straße", owner: "", about: "ß".repeat(60) },
    ]);
    const search = async (q: string) => {
      const res = await fetch(`${u.url}/api/map/search?q=${encodeURIComponent(q)}`);
      // deno-lint-ignore no-explicit-any
      const body = await res.json() as any;
      return [res.status, body.results?.map((h: { address: string }) => h.address) ?? body];
    };
    for (const n of [47, 48, 49, 50, 51, 64, 99, 100]) {
      assert.deepEqual(
        await search(about.slice(0, n)),
        [200, ["long.example"]],
        `${n} characters`,
      );
      assert.deepEqual(await search("z".repeat(n)), [200, []], `${n} z`);
    }
    // Folding makes a query longer: 60 ß fold to 120 characters.
    assert.deepEqual(await search("ß".repeat(60)), [200, ["ss.example"]]);
    assert.deepEqual(await search("SS".repeat(50)), [200, ["ss.example"]]);
    // `%` and `_` are plain characters, not patterns.
    assert.deepEqual(await search("%".repeat(100)), [200, []]);
    assert.deepEqual(await search("_"), [200, []]);
    assert.deepEqual(await search("x".repeat(101)), [400, {
      error: "bad_request",
      detail: "q must be at most 100 characters",
    }]);
  },
});

Deno.test({
  name: "map: the index follows a signed join, a new name, a leave and the cron",
  ...T,
  async fn() {
    const u = await startUniverse();
    const a = await startAgent("Ada\nLovelace\u0007");
    try {
      assert.equal((await a.post(u, { owner: "Owner\tOne" })).status, 200);
      let hits = (await getJson(`${u.url}/api/map/search?q=ada lovelace`)).body.results;
      // Control characters become spaces: the words stay apart.
      assert.deepEqual(hits.map((h: { name: string }) => h.name), ["Ada Lovelace"]);
      assert.equal(hits[0].owner, "Owner One");
      let o = (await getJson(`${u.url}/api/map/overview`)).body;
      assert.deepEqual([o.taus, o.cells], [1, [cellOf(positionOf(a.address)), 1]]);
      assert.equal((await a.post(u, { kind: "leave" })).status, 200);
      o = (await getJson(`${u.url}/api/map/overview`)).body;
      assert.deepEqual([o.taus, o.cells], [0, []]);
      hits = (await getJson(`${u.url}/api/map/search?q=ada`)).body.results;
      assert.deepEqual(hits, []);
      await seed(u, ring(3));
      assert.equal((await getJson(`${u.url}/api/map/overview`)).body.taus, 3);
      await u.cron(Date.now() + 31 * 86_400_000);
      o = (await getJson(`${u.url}/api/map/overview`)).body;
      assert.deepEqual([o.taus, o.cells], [0, []]);
    } finally {
      await a.stop();
      await u.stop();
    }
  },
});

Deno.test({
  name: "pages: unknown paths get an en/tr 404 page (JSON under /api/), meta, favicon, bad escapes",
  ...T,
  async fn() {
    const u = await readers();
    let res = await fetch(`${u.url}/nowhere`, { headers: { "accept-language": "en" } });
    let text = await res.text();
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(text, /<html lang="en">[\s\S]*404 · Nothing here/);
    res = await fetch(`${u.url}/tr/nowhere`);
    text = await res.text();
    assert.deepEqual([res.status, /<html lang="tr">[\s\S]*Burada bir şey yok/.test(text)], [
      404,
      true,
    ]);
    res = await fetch(`${u.url}/nowhere`, { headers: { "accept-language": "tr-TR" } });
    assert.match(await res.text(), /<html lang="tr">/);
    res = await fetch(`${u.url}/api/nowhere`);
    assert.deepEqual([res.status, await res.json()], [404, { error: "not_found" }]);
    // A malformed escape is an unknown agent, not a failure.
    res = await fetch(`${u.url}/api/taus/%E0%A4%A`);
    assert.deepEqual([res.status, await res.json()], [404, { error: "not_found" }]);
    res = await fetch(`${u.url}/universe?q=%E0%A4%A`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
    for (const path of ["/", "/tr/", "/universe", "/how-it-works"]) {
      res = await fetch(`${u.url}${path}`, { headers: { "accept-language": "en" } });
      text = await res.text();
      for (
        const meta of [
          /<meta name="description" content="[^"]{40,}">/,
          /<meta property="og:title" content="[^"]+">/,
          /<meta property="og:description" content="[^"]{40,}">/,
          new RegExp(`<meta property="og:url" content="${u.url}${path}">`),
          /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml">/,
        ]
      ) assert.match(text, meta, path);
    }
    for (const path of ["/favicon.svg", "/favicon.ico"]) {
      res = await fetch(`${u.url}${path}`);
      assert.equal(res.headers.get("content-type"), "image/svg+xml");
      assert.match(await res.text(), /^<svg /);
    }
    res = await fetch(`${u.url}/tr/`);
    text = await res.text();
    assert.ok(!text.includes("alışverişlerindeki"));
    assert.match(text, /agent net universe join/);
    res = await fetch(`${u.url}/tr/how-it-works`);
    assert.ok(!(await res.text()).includes("alışverişlerindeki"));
  },
});

Deno.test({
  name:
    "map: the build lays linked agents out near their peers, the rest at their hashed places; /api/map/places",
  ...T,
  async fn() {
    const u = await startUniverse({ rebuildSeconds: 3_600 });
    try {
      const agents = ring(60);
      agents.push({ address: "alone.example", name: "Alone", owner: "", about: "" });
      await seed(u, agents);
      const median = (at: Map<string, { x: number; y: number }>) => {
        const lengths = agents.slice(0, 60).map((a, i) => {
          const p = at.get(a.address)!, q = at.get(agents[(i + 1) % 60]!.address)!;
          return Math.hypot(p.x - q.x, p.y - q.y);
        }).sort((a, b) => a - b);
        return lengths[30]!;
      };
      const hashed = new Map(agents.map((a) => [a.address, positionOf(a.address)]));
      await build(u);
      const at = await places(u);
      assert.ok(median(hashed) > 0.25, `hashed: ${median(hashed)}`);
      // 60 agents over the whole disc lie about 0.12 apart: a link is one step, not a chord.
      assert.ok(median(at) < 0.15 && median(at) < median(hashed) / 2, `laid out: ${median(at)}`);
      assert.deepEqual(at.get("alone.example"), positionOf("alone.example"));
      // The cells follow the moved agents.
      const o = (await getJson(`${u.url}/api/map/overview`)).body;
      const cells = new Map<number, number>();
      for (const p of at.values()) cells.set(cellOf(p), (cells.get(cellOf(p)) ?? 0) + 1);
      const got = new Map<number, number>();
      for (let i = 0; i < o.cells.length; i += 2) got.set(o.cells[i], o.cells[i + 1]);
      assert.deepEqual(got, cells);
      // The same links, the same places: a second build moves no one.
      await build(u);
      assert.deepEqual(await places(u), at);
      // An agent's place and its peers', for the page to draw a chosen agent.
      const mine = await getJson(`${u.url}/api/map/places?address=agent-5.example`);
      assert.equal(mine.status, 200);
      assert.deepEqual({ x: mine.body.x, y: mine.body.y }, at.get("agent-5.example"));
      assert.deepEqual(Object.keys(mine.body.peers).sort(), ["agent-4.example", "agent-6.example"]);
      const p4 = at.get("agent-4.example")!;
      assert.deepEqual(mine.body.peers["agent-4.example"], [p4.x, p4.y]);
      const none = await getJson(`${u.url}/api/map/places?address=nobody.example`);
      assert.deepEqual([none.status, none.body], [404, { error: "not_found" }]);
      const bad = await getJson(`${u.url}/api/map/places`);
      assert.deepEqual([bad.status, bad.body], [400, {
        error: "bad_request",
        detail: "address must be an agent's address",
      }]);
    } finally {
      await u.stop();
    }
  },
});
