/** The spine's hub API on workerd: auth, health, card, updates, ack, errors, modes. */
import assert from "node:assert/strict";
import { generateIdentity } from "@agent/net";
import { envelopeFor, hub, postInbox } from "./_fixtures.ts";
import { sharedSpineTest, spineTest, TOKEN } from "./_setup.ts";

async function raw(url: string, init: RequestInit = {}) {
  const r = await fetch(url, init);
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : {} };
}

sharedSpineTest(
  "hub: a missing or wrong bearer token gets 401 unauthorized; the scheme is case-insensitive",
  {},
  async (spine) => {
    for (const path of ["/hub/health", "/hub/updates", "/hub/ws", "/hub/nowhere", "/hub/state/x"]) {
      assert.deepEqual((await raw(`${spine.url}${path}`)).body, { error: "unauthorized" }, path);
      for (
        const header of [
          `Bearer ${TOKEN}x`,
          `Bearer ${TOKEN.slice(1)}`,
          `Basic ${TOKEN}`,
          TOKEN,
          "Bearer",
        ]
      ) {
        const r = await raw(`${spine.url}${path}`, { headers: { authorization: header } });
        assert.deepEqual([r.status, r.body], [401, { error: "unauthorized" }], `${path} ${header}`);
      }
    }
    for (const scheme of ["bearer", "BEARER", "BeArEr"]) {
      const r = await raw(`${spine.url}/hub/health`, {
        headers: { authorization: `${scheme} ${TOKEN}` },
      });
      assert.deepEqual(r.status, 200, scheme);
    }
  },
);

spineTest("hub: without HUB_TOKEN every hub route answers 503 not_configured, upgrades included", {
  hubToken: undefined,
}, async (spine) => {
  for (const path of ["/hub/health", "/hub/ws", "/hub/card"]) {
    const r = await raw(`${spine.url}${path}`, {
      headers: {
        authorization: "Bearer anything",
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
      },
    });
    assert.deepEqual([r.status, r.body], [503, { error: "not_configured" }], path);
  }
});

spineTest(
  "hub: health reports address, mode, card, depth and version",
  {},
  async (spine, peers) => {
    const before = await hub(spine.url, TOKEN, "/hub/health");
    assert.deepEqual(before.body, {
      ok: true,
      address: spine.address,
      mode: "local",
      card: false,
      mailbox: 0,
      version: "0.1.0",
    });
    const peer = await peers();
    await postInbox(spine.url, await envelopeFor(peer, spine.address));
    await postInbox(spine.url, await envelopeFor(peer, spine.address));
    const me = await generateIdentity();
    await hub(spine.url, TOKEN, "/hub/card", {
      method: "PUT",
      body: JSON.stringify({ name: "Me", sign_key: me.signKey, box_key: me.boxKey }),
    });
    const after = await hub(spine.url, TOKEN, "/hub/health");
    assert.deepEqual(after.body, {
      ok: true,
      address: spine.address,
      mode: "local",
      card: true,
      mailbox: 2,
      version: "0.1.0",
    });
  },
);

spineTest(
  "hub: PUT /hub/card publishes the full card; GET serves it with CORS and cache headers",
  {},
  async (spine) => {
    const none = await raw(`${spine.url}/.well-known/agent.json`);
    assert.deepEqual([none.status, none.body], [404, { error: "no_card" }]);
    const me = await generateIdentity();
    const put = await hub(spine.url, TOKEN, "/hub/card", {
      method: "PUT",
      body: JSON.stringify({
        name: "Zeynep 🌙",
        sign_key: me.signKey,
        box_key: me.boxKey,
        extra: 1,
      }),
    });
    const card = {
      v: 1,
      address: spine.address,
      name: "Zeynep 🌙",
      sign_key: me.signKey,
      box_key: me.boxKey,
      inbox: `http://${spine.address}/net/inbox`,
      software: "agent-spine/0.1.0",
    };
    assert.deepEqual([put.status, put.body], [200, card]);
    const got = await raw(`${spine.url}/.well-known/agent.json`);
    assert.deepEqual([got.status, got.body], [200, card]);
    assert.deepEqual(got.headers.get("access-control-allow-origin"), "*");
    assert.deepEqual(got.headers.get("cache-control"), "public, max-age=300");
  },
);

spineTest(
  "hub: the card's inbox uses https unless the address is loopback and insecure peers are allowed",
  { address: "agent.example", allowInsecurePeers: true },
  async (spine) => {
    const me = await generateIdentity();
    const put = await hub(spine.url, TOKEN, "/hub/card", {
      method: "PUT",
      body: JSON.stringify({ name: "A", sign_key: me.signKey, box_key: me.boxKey }),
    });
    assert.deepEqual(put.body.inbox, "https://agent.example/net/inbox");
    assert.deepEqual(await (await fetch(`${spine.url}/`)).text(), "agent spine agent.example");
  },
);

sharedSpineTest("hub: PUT /hub/card rejects bad input with 400 bad_request", {}, async (spine) => {
  const me = await generateIdentity();
  const good = { name: "A", sign_key: me.signKey, box_key: me.boxKey };
  const bad: unknown[] = [
    { ...good, name: "" },
    { ...good, name: "x".repeat(81) },
    // Characters are code points: 81 moons are too many even though 80 fit.
    { ...good, name: "🌙".repeat(81) },
    { ...good, name: 5 },
    { ...good, sign_key: me.signKey.slice(2) },
    { ...good, box_key: "!!!" },
    { name: "A" },
    [],
  ];
  for (const body of bad) {
    const r = await hub(spine.url, TOKEN, "/hub/card", {
      method: "PUT",
      body: JSON.stringify(body),
    });
    assert.deepEqual([r.status, r.body.error], [400, "bad_request"], JSON.stringify(body));
    assert.ok(typeof r.body.detail === "string");
  }
  const notJson = await hub(spine.url, TOKEN, "/hub/card", { method: "PUT", body: "{" });
  assert.deepEqual(notJson.status, 400);
  for (const name of ["x".repeat(80), "🌙".repeat(80)]) {
    const ok = await hub(spine.url, TOKEN, "/hub/card", {
      method: "PUT",
      body: JSON.stringify({ ...good, name }),
    });
    assert.deepEqual([ok.status, ok.body.name], [200, name]);
  }
});

sharedSpineTest(
  "hub: /hub/updates validates its query strictly and never clamps",
  {},
  async (spine) => {
    const bad = [
      "after=-1",
      "after=1.5",
      "after=abc",
      "after=",
      "after=1e3",
      "after=99999999999999999",
      "timeout=26",
      "timeout=-1",
      "timeout=2.5",
      "limit=0",
      "limit=101",
      "limit=50&limit=50",
      "limit=+5",
    ];
    for (const query of bad) {
      const r = await hub(spine.url, TOKEN, `/hub/updates?${query}`);
      assert.deepEqual([r.status, r.body.error], [400, "bad_request"], query);
    }
    for (
      const query of [
        "",
        "after=0&timeout=0&limit=1",
        "limit=100",
        "after=12345&limit=1",
        "timeout=0",
      ]
    ) {
      const r = await hub(spine.url, TOKEN, `/hub/updates?${query}`);
      assert.deepEqual([r.status, r.body], [200, { updates: [] }], query);
    }
  },
);

spineTest(
  "hub: updates are ordered by seq, honour after and limit; ack deletes and seqs are never reused",
  { rateLimits: false },
  async (spine, peers) => {
    const peer = await peers();
    const sent = [];
    for (let i = 0; i < 5; i++) {
      const wire = await envelopeFor(peer, spine.address);
      sent.push(wire);
      assert.deepEqual((await postInbox(spine.url, wire)).status, 202);
    }
    type U = { seq: number; envelope: { payload: string; sig: string } };
    const all = (await hub(spine.url, TOKEN, "/hub/updates")).body.updates as U[];
    assert.deepEqual(all.map((u) => u.seq), [1, 2, 3, 4, 5]);
    assert.deepEqual(all.map((u) => u.envelope.payload), sent.map((w) => w.payload));
    const page = (await hub(spine.url, TOKEN, "/hub/updates?after=2&limit=2")).body.updates as U[];
    assert.deepEqual(page.map((u) => u.seq), [3, 4]);

    const ack = async (seqs: unknown) =>
      await hub(spine.url, TOKEN, "/hub/ack", { method: "POST", body: JSON.stringify({ seqs }) });
    assert.deepEqual((await ack([1, 1, 2, 99])).body, { deleted: 2 });
    assert.deepEqual((await ack([1, 2])).body, { deleted: 0 });
    assert.deepEqual((await ack([3, 4, 5])).body, { deleted: 3 });
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/health")).body.mailbox, 0);
    // Everything acknowledged: the next envelope still gets a new seq.
    assert.deepEqual(
      (await postInbox(spine.url, await envelopeFor(peer, spine.address))).status,
      202,
    );
    const next = (await hub(spine.url, TOKEN, "/hub/updates")).body.updates as U[];
    assert.deepEqual(next.map((u) => u.seq), [6]);
  },
);

sharedSpineTest(
  "hub: /hub/ack takes at most 1 000 seqs of non-negative integers",
  {},
  async (spine) => {
    const ack = async (body: unknown) =>
      await hub(spine.url, TOKEN, "/hub/ack", { method: "POST", body: JSON.stringify(body) });
    assert.deepEqual((await ack({ seqs: Array.from({ length: 1_000 }, (_, i) => i) })).body, {
      deleted: 0,
    });
    assert.deepEqual((await ack({ seqs: Array.from({ length: 1_001 }, (_, i) => i) })).status, 400);
    for (const body of [{}, { seqs: "1" }, { seqs: [1.5] }, { seqs: [-1] }, { seqs: ["1"] }, [1]]) {
      const r = await ack(body);
      assert.deepEqual([r.status, r.body.error], [400, "bad_request"], JSON.stringify(body));
    }
  },
);

sharedSpineTest(
  "hub: wrong methods get 405 with Allow; unknown paths 404 not_found",
  {},
  async (spine) => {
    const cases: [string, string, string][] = [
      ["/", "POST", "GET"],
      ["/.well-known/agent.json", "PUT", "GET"],
      ["/net/inbox", "GET", "POST"],
      ["/hub/health", "POST", "GET"],
      ["/hub/card", "GET", "PUT"],
      ["/hub/updates", "POST", "GET"],
      ["/hub/ack", "GET", "POST"],
      ["/hub/ws", "POST", "GET"],
    ];
    for (const [path, method, allow] of cases) {
      const r = await raw(`${spine.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.deepEqual([r.status, r.body, r.headers.get("allow")], [405, {
        error: "method_not_allowed",
      }, allow], `${method} ${path}`);
    }
    assert.deepEqual((await raw(`${spine.url}/nowhere`)).body, { error: "not_found" });
    assert.deepEqual((await raw(`${spine.url}/nowhere`)).status, 404);
    const hubMissing = await hub(spine.url, TOKEN, "/hub/nowhere");
    assert.deepEqual([hubMissing.status, hubMissing.body], [404, { error: "not_found" }]);
  },
);

sharedSpineTest("hub: GET / answers plain text with the address", {}, async (spine) => {
  const r = await fetch(`${spine.url}/`);
  assert.deepEqual(r.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.deepEqual(await r.text(), `agent spine ${spine.address}`);
});

// The 426 for a plain GET /hub/ws, with its Upgrade header: upgrade_header_test.ts.

const CLOUD_PATHS: [string, string][] = [
  ["GET", "/hub/state/net.contacts"],
  ["PUT", "/hub/state/net.contacts"],
  ["DELETE", "/hub/state/x"],
  ["GET", "/hub/files"],
  ["GET", "/hub/files/agent.toml"],
  ["PUT", "/hub/files/persona/net.md"],
  ["POST", "/hub/sessions"],
  ["GET", "/hub/sessions?limit=5"],
  ["PATCH", "/hub/sessions/abc/meta"],
  ["GET", "/hub/brain"],
];

sharedSpineTest(
  "hub: cloud-only routes answer 404 cloud_mode_off in local mode without touching a store",
  {},
  async (spine) => {
    for (const [method, path] of CLOUD_PATHS) {
      const r = await hub(spine.url, TOKEN, path, {
        method,
        ...(method === "GET" || method === "DELETE" ? {} : { body: "{}" }),
      });
      assert.deepEqual([r.status, r.body], [404, { error: "cloud_mode_off" }], `${method} ${path}`);
    }
  },
);

spineTest(
  "hub: in cloud mode without a DB binding the state and session routes answer 503 not_configured",
  { mode: "cloud", relationalStore: false },
  async (spine) => {
    const health = await hub(spine.url, TOKEN, "/hub/health");
    assert.deepEqual(health.body.mode, "cloud");
    for (
      const [method, path] of CLOUD_PATHS.filter(([, p]) =>
        p.startsWith("/hub/state") || p.startsWith("/hub/sessions")
      )
    ) {
      const r = await hub(spine.url, TOKEN, path, {
        method,
        ...(method === "GET" || method === "DELETE" ? {} : { body: "{}" }),
      });
      assert.deepEqual([r.status, r.body], [503, { error: "not_configured" }], `${method} ${path}`);
    }
  },
);

// On the shared spine: it stores its own card first and reads only that one back.
sharedSpineTest(
  "hub: PUT /hub/card stores and serves keys without padding, and refuses small-order keys",
  {},
  async (spine) => {
    const me = await generateIdentity();
    const put = await hub(spine.url, TOKEN, "/hub/card", {
      method: "PUT",
      body: JSON.stringify({ name: "A", sign_key: `${me.signKey}=`, box_key: `${me.boxKey}=` }),
    });
    assert.deepEqual([put.status, put.body.sign_key, put.body.box_key], [
      200,
      me.signKey,
      me.boxKey,
    ]);
    const served = await raw(`${spine.url}/.well-known/agent.json`);
    assert.deepEqual([served.body.sign_key, served.body.box_key], [me.signKey, me.boxKey]);

    const zero = "A".repeat(43);
    // The Ed25519 identity point: it verifies one signature for every message.
    const identityPoint = `AQ${"A".repeat(41)}`;
    const order8 = "JuiVj8KyJ7BFw_SJ8u-Y8NXfrAXTxjM5sTgCiG1T_AU";
    const cases: [Record<string, string>, string][] = [
      [{ sign_key: zero }, "sign_key"],
      [{ sign_key: identityPoint }, "sign_key"],
      [{ sign_key: order8 }, "sign_key"],
      [{ box_key: zero }, "box_key"],
      [{ box_key: `${zero}=` }, "box_key"],
      [{ box_key: identityPoint }, "box_key"],
    ];
    for (const [keys, field] of cases) {
      const r = await hub(spine.url, TOKEN, "/hub/card", {
        method: "PUT",
        body: JSON.stringify({ name: "A", sign_key: me.signKey, box_key: me.boxKey, ...keys }),
      });
      assert.deepEqual([r.status, r.body.error], [400, "bad_request"], JSON.stringify(keys));
      assert.match(String(r.body.detail), new RegExp(`'${field}' is a small-order`));
    }
    // The refused cards left the stored one alone.
    const still = await raw(`${spine.url}/.well-known/agent.json`);
    assert.deepEqual(still.body.sign_key, me.signKey);
  },
);
