/**
 * Our extension on workerd: `GET /api/info` advertises `POST /api/listed`, which answers
 * which of up to 1,000 addresses the universe lists, with the spec's error shape for
 * what it refuses.
 */
import assert from "node:assert/strict";
import { directoryStub, fileUniverse, seed } from "./_harness.ts";

const T = { sanitizeOps: false, sanitizeResources: false };

// One universe for both: the refusals read nothing stored, and the listing asks only for
// addresses it seeded itself.
const universe = fileUniverse();

async function post(url: string, body: BodyInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}/api/listed`, { method: "POST", body });
  return { status: res.status, body: await res.json() };
}

Deno.test({
  name: "POST /api/listed answers the listed addresses in the order asked; GET /api/info says so",
  ...T,
  fn: async () => {
    const u = await universe();
    await seed(
      u,
      Array.from({ length: 1_200 }, (_, i) => ({ address: `a${i}.example`, name: `A${i}` })),
    );
    const info = await fetch(`${u.url}/api/info`);
    assert.deepEqual(await info.json(), {
      universe: u.host,
      version: "0.1.0",
      listed: { path: "/api/listed", max_addresses: 1_000 },
    });
    assert.equal(info.headers.get("access-control-allow-origin"), "*");

    const asked = ["a7.example", "nobody.example", "a3.example", "a7.example", "a1199.example"];
    const res = await fetch(`${u.url}/api/listed`, {
      method: "POST",
      body: JSON.stringify({ addresses: asked }),
    });
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.deepEqual(await res.json(), {
      listed: ["a7.example", "a3.example", "a1199.example"],
    });

    // 1,000 at once: every one listed, in the order asked.
    const thousand = Array.from({ length: 1_000 }, (_, i) => `a${999 - i}.example`);
    assert.deepEqual(await post(u.url, JSON.stringify({ addresses: thousand })), {
      status: 200,
      body: { listed: thousand },
    });
    assert.deepEqual(await post(u.url, JSON.stringify({ addresses: [] })), {
      status: 200,
      body: { listed: [] },
    });
    // A leave takes an address off at once (the stored snapshot follows within the minute).
    const stub = await directoryStub(u);
    const now = Math.floor(Date.now() / 1000);
    const left = await stub.fetch(
      "https://directory.internal/apply",
      {
        method: "POST",
        body: JSON.stringify({
          kind: "leave",
          address: "a3.example",
          ts: now,
          name: "",
          sign_key: "AAAA",
          now,
        }),
      },
    );
    assert.equal(left.status, 200);
    await left.body?.cancel();
    assert.deepEqual(
      await post(u.url, JSON.stringify({ addresses: ["a3.example", "a4.example"] })),
      { status: 200, body: { listed: ["a4.example"] } },
    );
  },
});

Deno.test({
  name: "POST /api/listed refuses more than 1,000 addresses, a body over its limit, bad shapes",
  ...T,
  fn: async () => {
    const u = await universe();
    const many = Array.from({ length: 1_001 }, (_, i) => `a${i}.example`);
    assert.deepEqual(await post(u.url, JSON.stringify({ addresses: many })), {
      status: 400,
      body: { error: "bad_request", detail: "at most 1000 addresses, not 1001" },
    });
    assert.deepEqual(await post(u.url, "x".repeat(300_001)), {
      status: 413,
      body: { error: "too_large" },
    });
    assert.deepEqual(await post(u.url, "{"), {
      status: 400,
      body: { error: "bad_request", detail: "the body is not JSON" },
    });
    for (const body of [{}, { addresses: "a.example" }, null]) {
      assert.deepEqual(await post(u.url, JSON.stringify(body)), {
        status: 400,
        body: { error: "bad_request", detail: "the body needs addresses: a list of addresses" },
      });
    }
    assert.deepEqual(
      await post(u.url, JSON.stringify({ addresses: ["a.example", 7, "b.example"] })),
      { status: 400, body: { error: "bad_request", detail: "addresses[1] is not an address" } },
    );
    assert.deepEqual(
      await post(u.url, JSON.stringify({ addresses: ["not an address"] })),
      { status: 400, body: { error: "bad_request", detail: "addresses[0] is not an address" } },
    );
    const get = await fetch(`${u.url}/api/listed`);
    assert.deepEqual([get.status, get.headers.get("allow")], [405, "POST"]);
    await get.body?.cancel();
  },
});
