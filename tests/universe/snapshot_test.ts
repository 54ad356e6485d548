/**
 * The stored snapshot on workerd: the bytes document 3's rules give (order, online,
 * visibility, `stats`), gzip or plain by `Accept-Encoding`, `ETag` and 304, a write in
 * `/api/taus/` at once and in the snapshot after the alarm's next build (never two
 * builds within the max-age), and a stale snapshot rebuilt after a read.
 */
import assert from "node:assert/strict";
import http from "node:http";
import {
  buildSnapshot,
  directoryStub,
  fileUniverse,
  type RunningUniverse,
  startUniverse,
  type StartUniverseOptions,
} from "./_harness.ts";
import { until } from "../_poll.ts";

const T = { sanitizeOps: false, sanitizeResources: false };

async function withUniverse(
  fn: (u: RunningUniverse) => Promise<void>,
  options: StartUniverseOptions = {},
): Promise<void> {
  const u = await startUniverse(options);
  try {
    await fn(u);
  } finally {
    await u.stop();
  }
}

// Both tests with `UNIVERSE` set take turns on one universe: the other joins nothing and
// reads only the name the snapshot gives, so the counting one finds it empty either way.
const named = fileUniverse({ universe: "universe.test", rebuildSeconds: 3_600 });

/** Runs `fn` on the universe with `UNIVERSE` set. */
async function onNamed(fn: (u: RunningUniverse) => Promise<void>): Promise<void> {
  await fn(await named());
}

/** Applies a request in the directory directly (the web layer's checks are tested elsewhere). */
async function apply(
  u: RunningUniverse,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const stub = await directoryStub(u);
  const res = await stub.fetch(
    `https://directory.internal/apply?host=${encodeURIComponent(u.host)}`,
    { method: "POST", body: JSON.stringify({ sign_key: "AAAA", name: "", ...body }) },
  );
  const answer = await res.json() as Record<string, unknown>;
  assert.equal(res.status, 200, JSON.stringify(answer));
  return answer;
}

/** A GET whose body is not decoded on the way. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: http.IncomingHttpHeaders; body: Uint8Array<ArrayBuffer> }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Uint8Array[] = [];
      res.on("data", (c: Uint8Array) => chunks.push(c));
      res.on("end", () => {
        const body = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
        let at = 0;
        for (const c of chunks) {
          body.set(c, at);
          at += c.byteLength;
        }
        resolve({ headers: res.headers, body });
      });
      res.on("error", reject);
    }).on("error", reject);
  });
}

async function plain(u: RunningUniverse, headers: Record<string, string> = {}) {
  const res = await fetch(`${u.url}/api/universe`, {
    headers: { "accept-encoding": "identity", ...headers },
  });
  return { res, text: await res.text() };
}

const T0 = 1_800_000_000;

/** A JSON answer's body, loosely typed for assertions. */
// deno-lint-ignore no-explicit-any
async function jsonOf(res: Response): Promise<any> {
  return await res.json();
}

Deno.test({
  name: "the stored snapshot has the bytes document 3's rules give: order, online, links, stats",
  ...T,
  fn: () =>
    withUniverse(async (u) => {
      await buildSnapshot(u); // the alarm's next slot is now an hour away: builds are ours
      // Joined out of address order; two share a joined_at (then the address decides).
      const join = (address: string, ts: number, name: string, owner = "") =>
        apply(u, { kind: "join", address, ts, name, owner, about: `about ${name}`, now: ts });
      await join("zeta.example", T0 + 10, "Zeta");
      await join("alpha.example", T0 + 20, "Alpha", "Ann");
      await join("mid.example", T0 + 5, "Mid");
      await join("beta.example", T0 + 20, "Beta");
      await join("gone.example", T0 + 30, "Gone");
      const names: Record<string, string> = {};
      for (const n of ["Zeta", "Alpha", "Mid", "Beta", "Gone"]) {
        names[`${n.toLowerCase()}.example`] = n;
      }
      const report = (address: string, ts: number, links: unknown[], subs: unknown[] = []) =>
        apply(u, { kind: "report", address, ts, links, subs, name: names[address], now: ts });
      // alpha–zeta mutual (5 and 3: 3, after alpha first said 9); alpha→mid one-sided;
      // mid–beta mutual with 0; zeta–gone mutual until gone leaves; a repeated peer keeps
      // its last entry, a link to itself and to an unlisted peer are ignored.
      await report("alpha.example", T0 + 100, [{ peer: "zeta.example", messages: 9 }]);
      await report("zeta.example", T0 + 100, [
        { peer: "alpha.example", messages: 3 },
        { peer: "gone.example", messages: 4 },
      ]);
      await report("gone.example", T0 + 100, [{ peer: "zeta.example", messages: 8 }]);
      await report("alpha.example", T0 + 200, [
        { peer: "zeta.example", messages: 1 },
        { peer: "zeta.example", messages: 5 },
        { peer: "mid.example", messages: 7 },
        { peer: "alpha.example", messages: 2 },
        { peer: "ghost.example", messages: 6 },
      ], [{ name: "zed", about: "last" }, { name: "chef", about: "x" }, {
        name: "chef",
        about: "cooks",
      }]);
      await report("mid.example", T0 + 300, [{ peer: "beta.example", messages: 0 }]);
      await report("beta.example", T0 + 7_000, [{ peer: "mid.example", messages: 2 }]);
      const before = await buildSnapshot(u, T0 + 7_250);
      assert.equal(JSON.parse((await plain(u)).text).stats.messages, 3 + 4 + 0);
      await apply(u, { kind: "leave", address: "gone.example", ts: T0 + 7_100, now: T0 + 7_100 });

      const now = T0 + 7_350; // online: last_seen at T0 + 150 or later
      const built = await buildSnapshot(u, now);
      const tau = (address: string, name: string, joined: number, seen: number, extra = {}) => ({
        address,
        name,
        owner: "",
        about: `about ${name}`,
        joined_at: joined,
        last_seen: seen,
        online: now - seen <= 7_200,
        subs: [],
        ...extra,
      });
      const expected = {
        universe: u.host,
        generated_at: now,
        stats: { taus: 4, online: 3, messages: 3 },
        taus: [
          tau("mid.example", "Mid", T0 + 5, T0 + 300),
          tau("zeta.example", "Zeta", T0 + 10, T0 + 100),
          tau("alpha.example", "Alpha", T0 + 20, T0 + 200, {
            owner: "Ann",
            subs: [{ name: "chef", about: "cooks" }, { name: "zed", about: "last" }],
          }),
          tau("beta.example", "Beta", T0 + 20, T0 + 7_000),
        ],
        links: [
          { a: "alpha.example", b: "zeta.example", messages: 3 },
          { a: "beta.example", b: "mid.example", messages: 0 },
        ],
      };
      const text = JSON.stringify(expected);
      const { res, text: got } = await plain(u);
      assert.equal(got, text);
      assert.equal(res.headers.get("content-encoding"), null);
      assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
      assert.equal(res.headers.get("cache-control"), "public, max-age=60");
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      assert.equal(res.headers.get("vary"), "Accept-Encoding");
      // What is stored names the configured UNIVERSE (empty here); each reader gets its host.
      const stored = JSON.stringify({ ...expected, universe: "" });
      assert.deepEqual(
        { taus: built.taus, links: built.links, bytes: built.bytes },
        { taus: 4, links: 2, bytes: new TextEncoder().encode(stored).byteLength },
      );
      assert.notEqual(built.etag, before.etag);
      // The message sum kept by the write path is the one a full count gives.
      const meta = await jsonOf(
        await (await directoryStub(u)).fetch("https://directory.internal/meta"),
      );
      assert.deepEqual([meta.schema_version, meta.messages], [3, 3]);
    }, { rebuildSeconds: 3_600 }),
});

Deno.test({
  name:
    "GET /api/universe with UNIVERSE set: gzip as stored when accepted, plain otherwise; HEAD; ETag and 304",
  ...T,
  fn: () =>
    onNamed(async (u) => {
      await buildSnapshot(u); // the alarm's next slot is now an hour away: builds are ours
      const now = Math.floor(Date.now() / 1000);
      for (let i = 0; i < 50; i++) {
        await apply(u, {
          kind: "join",
          address: `agent-${i}.example`,
          ts: now - 60,
          name: `Agent ${i}`,
          now,
        });
      }
      const built = await buildSnapshot(u);
      const { res: p, text } = await plain(u);
      const etag = p.headers.get("etag")!;
      assert.equal(etag, `W/"${built.etag}"`);
      assert.equal(JSON.parse(text).stats.taus, 50);

      // Raw bytes through node:http, which leaves the body as it came.
      const raw = await rawGet(`${u.url}/api/universe`, { "accept-encoding": "gzip, br" });
      assert.equal(raw.headers["content-encoding"], "gzip");
      assert.equal(raw.headers["content-length"], String(built.stored));
      assert.equal(raw.body.byteLength, built.stored);
      const unzipped = await new Response(
        new Blob([raw.body]).stream().pipeThrough(new DecompressionStream("gzip")),
      ).text();
      assert.equal(unzipped, text);
      const refused = await rawGet(`${u.url}/api/universe`, { "accept-encoding": "gzip;q=0" });
      assert.equal(refused.headers["content-encoding"], undefined);
      assert.equal(new TextDecoder().decode(refused.body), text);
      assert.ok(built.stored < built.bytes, `${built.stored} < ${built.bytes}`);

      const head = await fetch(`${u.url}/api/universe`, { method: "HEAD" });
      assert.deepEqual([head.status, await head.text()], [200, ""]);
      assert.equal(head.headers.get("etag"), etag);

      for (const inm of [etag, etag.slice(2), `"nope", ${etag}`, "*"]) {
        const r = await fetch(`${u.url}/api/universe`, { headers: { "if-none-match": inm } });
        assert.deepEqual([r.status, await r.text()], [304, ""], inm);
        assert.equal(r.headers.get("etag"), etag);
        assert.equal(r.headers.get("cache-control"), "public, max-age=60");
      }
      const other = await fetch(`${u.url}/api/universe`, {
        headers: { "if-none-match": 'W/"other"' },
      });
      assert.equal(other.status, 200);
      await other.body?.cancel();

      // A write and a build give a new ETag: the old one is no longer 304.
      await apply(u, {
        kind: "join",
        address: "late.example",
        ts: now - 30,
        name: "Late",
        now,
      });
      await buildSnapshot(u);
      const again = await fetch(`${u.url}/api/universe`, { headers: { "if-none-match": etag } });
      assert.equal(again.status, 200);
      assert.notEqual(again.headers.get("etag"), etag);
      assert.equal((await jsonOf(again)).stats.taus, 51);
    }),
});

Deno.test({
  name:
    "a write shows in /api/taus at once and in the snapshot after the alarm's build, one build per max-age",
  ...T,
  fn: () =>
    withUniverse(async (u) => {
      const meta = async () =>
        await jsonOf(await (await directoryStub(u)).fetch("https://directory.internal/meta"));
      const now = () => Math.floor(Date.now() / 1000);
      const first = JSON.parse((await plain(u)).text); // an empty universe: built on first read
      assert.equal(first.stats.taus, 0);
      const builtAt = (await meta()).last_build_ms;
      for (let i = 0; i < 5; i++) {
        await apply(u, {
          kind: "join",
          address: `w${i}.example`,
          ts: now() - 10,
          name: `W${i}`,
          now: now(),
        });
      }
      const tau = await fetch(`${u.url}/api/taus/w4.example`);
      assert.equal((await jsonOf(tau)).name, "W4");
      // Not in the stored snapshot yet: it is rebuilt off the request path.
      assert.equal(JSON.parse((await plain(u)).text).stats.taus, 0);
      await until(
        "the rebuilt snapshot to count five",
        async () => JSON.parse((await plain(u)).text).stats.taus === 5,
        { intervalMs: 200 },
      );
      const second = (await meta()).last_build_ms;
      // Five writes, one build, at least the max-age (5 s here) after the one before.
      assert.ok(second - builtAt >= 5_000, `${second - builtAt} ms between builds`);

      // No write: a read of an old snapshot asks for a build, served at the next slot.
      await new Promise((r) => setTimeout(r, 5_100));
      const stale = JSON.parse((await plain(u)).text).generated_at;
      const fresh = await until("a fresh snapshot", async () => {
        const now = JSON.parse((await plain(u)).text).generated_at;
        return now !== stale && now;
      }, { intervalMs: 200 });
      assert.ok(fresh > stale, `${fresh} > ${stale}`);
      // (5 s, not 2: on a loaded machine the five writes took over 2 s, and the alarm had
      // rebuilt before the read that must still see none of them.)
    }, { rebuildSeconds: 5 }),
});

/** The directory builds now, named by nobody's request (as its alarm does). */
async function buildUnasked(u: RunningUniverse): Promise<void> {
  const stub = await directoryStub(u);
  const res = await stub.fetch("https://directory.internal/build", { method: "POST" });
  assert.equal(res.status, 200, await res.text());
}

/** `GET /api/universe` as a request under `host` (its URL, so its `Host`, names it). */
async function under(u: RunningUniverse, host: string, headers: Record<string, string> = {}) {
  const res = await u.mf.dispatchFetch(`http://${host}/api/universe`, {
    headers: { "accept-encoding": "identity", ...headers },
  });
  return { status: res.status, etag: res.headers.get("etag"), text: await res.text() };
}

Deno.test({
  name:
    "U3: with an empty UNIVERSE each reader's snapshot names its own host; a request under another Host changes nothing for the others",
  ...T,
  fn: () =>
    withUniverse(async (u) => {
      const now = Math.floor(Date.now() / 1000);
      for (let i = 0; i < 30; i++) {
        await apply(u, {
          kind: "join",
          address: `a${i}.example`,
          ts: now - 60,
          name: `A${i}`,
          now,
        });
      }
      await buildUnasked(u);
      const mine = JSON.parse((await plain(u)).text);
      assert.equal(mine.universe, u.host);
      assert.equal(mine.stats.taus, 30);

      // A stranger's request under another Host sees that host (the universe's host for
      // that request, document 3) ...
      const evil = await under(u, "evil.example");
      assert.equal(evil.status, 200);
      const theirs = JSON.parse(evil.text);
      assert.equal(theirs.universe, "evil.example");
      assert.deepEqual({ ...theirs, universe: u.host }, mine);
      // ... and nothing more: the next builds still name no one, every reader their own.
      await under(u, "evil.example");
      await buildUnasked(u);
      assert.equal(JSON.parse((await plain(u)).text).universe, u.host);
      assert.equal(JSON.parse((await under(u, "other.example")).text).universe, "other.example");

      // Gzip under a host the stored head does not name: a valid file (the CRC checks
      // out), its Content-Length exact, the same JSON as the plain answer.
      const { text } = await plain(u);
      const raw = await rawGet(`${u.url}/api/universe`, { "accept-encoding": "gzip" });
      assert.equal(raw.headers["content-encoding"], "gzip");
      assert.equal(raw.headers["content-length"], String(raw.body.byteLength));
      const unzipped = await new Response(
        new Blob([raw.body]).stream().pipeThrough(new DecompressionStream("gzip")),
      ).text();
      assert.equal(unzipped, text);

      // Each host has its own ETag; a 304 for one's is not another's.
      const etag = (await plain(u)).res.headers.get("etag")!;
      assert.notEqual(etag, evil.etag);
      const again = await fetch(`${u.url}/api/universe`, { headers: { "if-none-match": etag } });
      assert.deepEqual([again.status, await again.text()], [304, ""]);
      const cross = await under(u, "evil.example", { "if-none-match": etag });
      assert.equal(cross.status, 200);
      const head = await fetch(`${u.url}/api/universe`, { method: "HEAD" });
      assert.deepEqual([head.status, head.headers.get("etag"), await head.text()], [200, etag, ""]);
    }, { rebuildSeconds: 3_600 }),
});

Deno.test({
  name: "U3: with UNIVERSE set the snapshot names it, whatever the request's Host",
  ...T,
  fn: () =>
    onNamed(async (u) => {
      await buildUnasked(u);
      for (const host of ["evil.example", "127.0.0.1", "UNIVERSE.TEST"]) {
        assert.equal(JSON.parse((await under(u, host)).text).universe, "universe.test", host);
      }
      await buildUnasked(u);
      assert.equal(JSON.parse((await plain(u)).text).universe, "universe.test");
    }),
});
