/**
 * The universe on workerd: one test per row of the POST checks (in order), the order
 * itself, the snapshot rules, leave, the cron with an injected clock, `GET /api/taus/`.
 */
import assert from "node:assert/strict";
import { b64uEncode } from "@agent/net";
import { signRaw } from "../spine/_fixtures.ts";
import {
  fileUniverse,
  type RunningUniverse,
  snapshot,
  startAgent,
  startUniverse,
  type UniverseAgent,
} from "./_harness.ts";

const T = { sanitizeOps: false, sanitizeResources: false };

type Body = (u: RunningUniverse, agents: (n?: string) => Promise<UniverseAgent>) => Promise<void>;

/** Runs `fn` on a universe of its own: for a test that counts what the directory holds. */
async function withUniverse(fn: Body): Promise<void> {
  const u = await startUniverse();
  try {
    await withAgents(u, fn);
  } finally {
    await u.stop();
  }
}

// The POST checks' universe: each check's agents are new addresses, with replay, rate
// and joined rows of their own, and no check counts the directory (fileUniverse).
const checks = fileUniverse();

/** Runs `fn` on the universe the POST checks share. */
async function onShared(fn: Body): Promise<void> {
  await withAgents(await checks(), fn);
}

async function withAgents(u: RunningUniverse, fn: Body): Promise<void> {
  const started: UniverseAgent[] = [];
  try {
    await fn(u, async (name = "Agent") => {
      const a = await startAgent(name);
      started.push(a);
      return a;
    });
  } finally {
    for (const a of started) await a.stop();
  }
}

async function raw(
  url: string,
  body: BodyInit,
  path = "join",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/api/${path}`, { method: "POST", body });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

Deno.test({
  name: "POST check 1: a body over 65,536 bytes is 413 too_large",
  ...T,
  fn: () =>
    onShared(async (u) => {
      const r = await raw(u.url, "x".repeat(65_537));
      assert.deepEqual(r, { status: 413, body: { error: "too_large" } });
    }),
});

Deno.test({
  name: "POST check 2: a malformed body or payload is 400 bad_request with the detail",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      assert.deepEqual(await raw(u.url, "not json"), {
        status: 400,
        body: { error: "bad_request", detail: "the body is not JSON" },
      });
      const a = await agents();
      const cases: [Record<string, unknown>, string][] = [
        [{ kind: "dance" }, "payload 'kind' must be join, report or leave"],
        [{ owner: "x".repeat(61) }, "payload 'owner' has more than 60 characters"],
        [
          { kind: "report", links: [{ peer: "Bad_Host", messages: 1 }] },
          "payload 'links[0].peer' must be a valid address",
        ],
        [
          { kind: "report", links: [], subs: [{ name: "X", about: "" }] },
          "payload 'subs[0].name' must match ^[a-z][a-z0-9-]{1,30}$",
        ],
      ];
      for (const [fields, detail] of cases) {
        const r = await a.post(u, fields, "join");
        assert.deepEqual(r, { status: 400, body: { error: "bad_request", detail } });
      }
    }),
});

Deno.test({
  name: "POST check 3: another universe's host is 400 wrong_universe (compared ignoring case)",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      const a = await agents();
      assert.deepEqual(await a.post(u, { universe: "other.example" }), {
        status: 400,
        body: { error: "wrong_universe" },
      });
      assert.equal((await a.post(u, { universe: u.host.toUpperCase() })).status, 200);
    }),
});

Deno.test({
  name: "POST check 4: a ts more than 300 s away, or not above the last accepted, is 400 stale",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      const a = await agents();
      const now = Math.floor(Date.now() / 1000);
      assert.deepEqual(await a.post(u, { ts: now - 400 }), {
        status: 400,
        body: { error: "stale" },
      });
      assert.deepEqual(await a.post(u, { ts: now + 400 }), {
        status: 400,
        body: { error: "stale" },
      });
      const ts = a.nextTs();
      assert.equal((await a.post(u, { ts })).status, 200);
      assert.deepEqual(await a.post(u, { ts }), { status: 400, body: { error: "stale" } });
      assert.deepEqual(await a.post(u, { ts: ts - 1 }), { status: 400, body: { error: "stale" } });
    }),
});

Deno.test({
  name: "POST check 5: a path that does not match the kind is 400 bad_request",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      const a = await agents();
      const r = await a.post(u, { kind: "join" }, "leave");
      assert.deepEqual(r, {
        status: 400,
        body: {
          error: "bad_request",
          detail: "the path is /api/leave but the payload's kind is join",
        },
      });
    }),
});

Deno.test({
  name:
    "POST check 6: an unavailable card (missing, redirect, too large, wrong address, no name) is 502",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      const a = await agents();
      for (const mode of ["missing", "redirect", "large", "wrong_address", "not_json"] as const) {
        a.mode = mode;
        assert.deepEqual(
          await a.post(u, {}),
          { status: 502, body: { error: "card_unavailable" } },
          mode,
        );
      }
    }),
});

Deno.test({
  name: "POST check 7: a signature by another key is 403 bad_signature",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      const a = await agents();
      const b = await agents();
      const payload = {
        v: 1,
        kind: "join",
        universe: u.host,
        address: a.address,
        ts: a.nextTs(),
        owner: "",
        about: "",
      };
      // Signed under the universe prefix, but with b's key.
      const bytes = new TextEncoder().encode(JSON.stringify(payload));
      const prefix = new TextEncoder().encode("agent-universe/1\n");
      const message = new Uint8Array([...prefix, ...bytes]);
      const sig = new Uint8Array(
        await crypto.subtle.sign("Ed25519", b.identity.signPrivateKey, message),
      );
      const r = await raw(
        u.url,
        JSON.stringify({ payload: b64uEncode(bytes), sig: b64uEncode(sig) }),
      );
      assert.deepEqual(r, { status: 403, body: { error: "bad_signature" } });
      // An envelope signature (the network's prefix) is not valid here either.
      const envelopeSigned = await signRaw(bytes, a.identity);
      assert.equal((await raw(u.url, JSON.stringify(envelopeSigned))).status, 403);
    }),
});

Deno.test({
  name: "POST check 8: report or leave of an address that is not joined is 404 not_joined",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      const a = await agents();
      assert.deepEqual(await a.post(u, { kind: "report", links: [] }), {
        status: 404,
        body: { error: "not_joined" },
      });
      assert.deepEqual(await a.post(u, { kind: "leave" }), {
        status: 404,
        body: { error: "not_joined" },
      });
    }),
});

Deno.test({
  name: "POST check 9: the 31st accepted request of an address within an hour is 429 rate_limited",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      const a = await agents();
      for (let i = 0; i < 30; i++) {
        assert.equal((await a.post(u, {})).status, 200, `request ${i + 1}`);
      }
      assert.deepEqual(await a.post(u, {}), { status: 429, body: { error: "rate_limited" } });
      // The cron an hour later prunes the rows: the address may post again.
      await u.cron(Date.now() + 3_601_000);
      assert.equal((await a.post(u, {})).status, 200);
    }),
});

Deno.test({
  name: "POST checks run in order: a request failing two gets the earlier one's error",
  ...T,
  fn: () =>
    onShared(async (u, agents) => {
      const a = await agents();
      const old = Math.floor(Date.now() / 1000) - 1000;
      // wrong universe and stale: wrong_universe (3 before 4)
      assert.equal(
        (await a.post(u, { universe: "x.example", ts: old })).body.error,
        "wrong_universe",
      );
      // stale and wrong path: stale (4 before 5)
      assert.equal((await a.post(u, { ts: old }, "leave")).body.error, "stale");
      // wrong path and no card: bad_request (5 before 6)
      a.mode = "missing";
      assert.equal((await a.post(u, {}, "report")).body.error, "bad_request");
      // no card and not joined: card_unavailable (6 before 8)
      assert.equal((await a.post(u, { kind: "leave" })).body.error, "card_unavailable");
      a.mode = "ok";
      // a replayed ts with a bad signature: bad_signature (the web layer's 7 before the
      // directory's replay check)
      const ts = a.nextTs();
      assert.equal((await a.post(u, { ts })).status, 200);
      const bytes = new TextEncoder().encode(
        JSON.stringify({
          v: 1,
          kind: "join",
          universe: u.host,
          address: a.address,
          ts,
          owner: "",
          about: "",
        }),
      );
      const r = await raw(
        u.url,
        JSON.stringify({ payload: b64uEncode(bytes), sig: b64uEncode(new Uint8Array(64)) }),
      );
      assert.equal(r.body.error, "bad_signature");
    }),
});

Deno.test({
  name:
    "snapshot: order by joined_at, online within 2 h, mutual links only with the smaller count, stats",
  ...T,
  fn: () =>
    withUniverse(async (u, agents) => {
      const [a, b, c] = [await agents("Ada"), await agents("Bo"), await agents("Cy")];
      for (const x of [a, b, c]) assert.equal((await x.post(u, { owner: "o" })).status, 200);
      // a–b mutual (5 and 3 → 3); a→c one-sided; b–c mutual with 0 messages; a repeated
      // peer keeps its last entry; a link to itself and to an unlisted peer are ignored.
      assert.deepEqual(
        (await a.post(u, {
          kind: "report",
          links: [
            { peer: b.address, messages: 9 },
            { peer: b.address, messages: 5 },
            { peer: c.address, messages: 7 },
            { peer: a.address, messages: 1 },
            { peer: "ghost.example", messages: 4 },
          ],
        })).body,
        { ok: true, visible_links: 0 },
      );
      assert.deepEqual(
        (await b.post(u, {
          kind: "report",
          links: [{ peer: a.address, messages: 3 }, { peer: c.address, messages: 0 }],
          subs: [{ name: "zed", about: "last" }, { name: "chef", about: "x" }, {
            name: "chef",
            about: "cooks",
          }],
        })).body,
        { ok: true, visible_links: 1 },
      );
      assert.equal(
        (await c.post(u, { kind: "report", links: [{ peer: b.address, messages: 2 }] })).body
          .visible_links,
        1,
      );
      const s = await snapshot(u);
      assert.deepEqual(s.taus.map((t: { name: string }) => t.name), ["Ada", "Bo", "Cy"]);
      assert.deepEqual(s.taus[1].subs, [{ name: "chef", about: "cooks" }, {
        name: "zed",
        about: "last",
      }]);
      assert.deepEqual(s.taus[0].subs, []);
      assert.ok(s.taus.every((t: { online: boolean }) => t.online));
      const sorted = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);
      const expected = [
        { pair: sorted(a.address, b.address), messages: 3 },
        { pair: sorted(b.address, c.address), messages: 0 },
      ].map((l) => ({ a: l.pair[0], b: l.pair[1], messages: l.messages }))
        .sort((x, y) => (x.a + x.b < y.a + y.b ? -1 : 1));
      assert.deepEqual(s.links, expected);
      assert.deepEqual(s.stats, { taus: 3, online: 3, messages: 3 });
      assert.equal(s.universe, u.host);

      const res = await fetch(`${u.url}/api/universe`);
      assert.equal(res.headers.get("cache-control"), "public, max-age=60");
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      await res.body?.cancel();

      const tau = await (await fetch(`${u.url}/api/taus/${b.address}`)).json() as {
        name: string;
        links: { peer: string; messages: number; name: string; online: boolean }[];
      };
      assert.equal(tau.name, "Bo");
      assert.deepEqual(tau.links.map((l: { messages: number }) => l.messages).sort(), [0, 3]);
      // Each peer's name and state come with the link: a map that has not drawn the peer
      // names it and shows it online (issue 39 U01; was its address, drawn offline).
      assert.deepEqual(
        tau.links.map(({ peer, name, online }) => ({ peer, name, online }))
          .sort((x, y) => x.name < y.name ? -1 : 1),
        [
          { peer: a.address, name: "Ada", online: true },
          { peer: c.address, name: "Cy", online: true },
        ],
      );
      const missing = await fetch(`${u.url}/api/taus/nobody.example`);
      assert.deepEqual([missing.status, await missing.json()], [404, { error: "not_found" }]);

      // leave: b's own links go; a's and c's reports to b stay but are no longer mutual.
      assert.deepEqual((await b.post(u, { kind: "leave" })).body, { ok: true });
      const after = await snapshot(u);
      assert.deepEqual(after.taus.map((t: { name: string }) => t.name), ["Ada", "Cy"]);
      assert.deepEqual(after.links, []);
      assert.deepEqual(after.stats, { taus: 2, online: 2, messages: 0 });
    }),
});

Deno.test({
  name: "owner, about and names are kept without control or bidi characters",
  ...T,
  fn: () =>
    withUniverse(async (u, agents) => {
      const a = await agents("Ev\u202eil\u0007");
      await a.post(u, { owner: "Ada\u0000 L.", about: "<script>alert(1)</script>\u2066x" });
      const [tau] = (await snapshot(u)).taus;
      assert.deepEqual([tau.name, tau.owner, tau.about], [
        "Evil",
        "Ada L.",
        "<script>alert(1)</script>x",
      ]);
    }),
});

Deno.test({
  name:
    "names, owner, about and sub-agents are kept without U+061C, zero-width or blank characters (U2)",
  ...T,
  fn: () =>
    withUniverse(async (u, agents) => {
      const a = await agents("Ad\u061Ca\u200B Love\u2060lace\uFEFF\u200D");
      const blank = await agents("\u200B\u061C\u3164\u2060");
      await a.post(u, { owner: "O\u200Cwner\u180E", about: "a\u061Cb\u00AD\u3164c" });
      await blank.post(u, {});
      await a.post(u, {
        kind: "report",
        links: [],
        subs: [{ name: "chef", about: "co\u200Boks" }],
      });
      const taus = (await snapshot(u)).taus;
      assert.deepEqual(
        taus.map((t: { name: string; owner: string; about: string; subs: unknown }) => [
          t.name,
          t.owner,
          t.about,
          t.subs,
        ]),
        [
          ["Ada Lovelace", "Owner", "ab c", [{ name: "chef", about: "cooks" }]],
          // Nothing left of the card's name: the address stands in, as document 3 says.
          [blank.address, "", "", []],
        ],
      );
      const tau = await (await fetch(`${u.url}/api/taus/${a.address}`)).json() as { name: string };
      assert.equal(tau.name, "Ada Lovelace");
      const hits = await (await fetch(`${u.url}/api/map/search?q=ada%20lovelace`)).json() as {
        results: { name: string }[];
      };
      assert.deepEqual(hits.results.map((h: { name: string }) => h.name), ["Ada Lovelace"]);
    }),
});

Deno.test({
  name:
    "cron: agents unseen for 30 days go with their links; rate rows older than an hour are pruned",
  ...T,
  fn: () =>
    withUniverse(async (u, agents) => {
      const [a, b] = [await agents("A"), await agents("B")];
      await a.post(u, {});
      await b.post(u, {});
      await a.post(u, { kind: "report", links: [{ peer: b.address, messages: 1 }] });
      await b.post(u, { kind: "report", links: [{ peer: a.address, messages: 1 }] });
      await u.cron(Date.now() + 29 * 86_400_000);
      assert.equal((await snapshot(u)).taus.length, 2);
      await u.cron(Date.now() + 31 * 86_400_000);
      const s = await snapshot(u);
      assert.deepEqual([s.taus.length, s.links.length], [0, 0]);
    }),
});
