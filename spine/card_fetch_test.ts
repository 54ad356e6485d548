import assert from "node:assert/strict";
import type { KVNamespace } from "@cloudflare/workers-types/index.ts";
import { b64uEncode } from "@agent/net";
import { CardMemo, fetchSenderCard, senderCardKey } from "./card_fetch.ts";

const KEY = new Uint8Array(32).fill(7);

/** A card server on loopback; `respond` decides the answer per request. */
function cardServer(respond: (address: string) => Response | Promise<Response>) {
  let hits = 0;
  let address = "";
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (): Response | Promise<Response> => {
      hits++;
      return respond(address);
    },
  );
  address = `127.0.0.1:${server.addr.port}`;
  return {
    address,
    get hits() {
      return hits;
    },
    stop: () => server.shutdown(),
  };
}

function card(address: string, extra: Record<string, unknown> = {}) {
  return {
    v: 1,
    address,
    name: "Peer",
    sign_key: b64uEncode(KEY),
    box_key: b64uEncode(KEY),
    inbox: `http://${address}/net/inbox`,
    software: "agent-spine/0.1.0",
    ...extra,
  };
}

/** The KV methods the fetcher uses, with switches to make them fail. */
function kv(options: { failGet?: boolean; failPut?: boolean } = {}) {
  const data = new Map<string, string>();
  const puts: { key: string; ttl: number | undefined }[] = [];
  const store = {
    data,
    puts,
    get(key: string, type: string) {
      if (options.failGet) return Promise.reject(new Error("kv down"));
      const value = data.get(key);
      return Promise.resolve(
        value === undefined ? null : type === "json" ? JSON.parse(value) : value,
      );
    },
    put(key: string, value: string, opts?: { expirationTtl?: number }) {
      if (options.failPut) return Promise.reject(new Error("kv down"));
      data.set(key, value);
      puts.push({ key, ttl: opts?.expirationTtl });
      return Promise.resolve();
    },
  };
  return store as typeof store & KVNamespace;
}

Deno.test("senderCardKey() needs v 1, the same address and a 32-byte sign_key", () => {
  assert.deepEqual(senderCardKey(card("a.example"), "a.example"), KEY);
  assert.deepEqual(senderCardKey(card("a.example", { v: 2 }), "a.example"), undefined);
  assert.deepEqual(senderCardKey(card("b.example"), "a.example"), undefined);
  assert.deepEqual(
    senderCardKey(card("a.example", { sign_key: b64uEncode(KEY.slice(1)) }), "a.example"),
    undefined,
  );
  assert.deepEqual(senderCardKey(card("a.example", { sign_key: "%%" }), "a.example"), undefined);
  assert.deepEqual(senderCardKey(null, "a.example"), undefined);
  // A small-order key (here the identity point) would verify forged signatures.
  const identityPoint = b64uEncode(Uint8Array.from({ length: 32 }, (_, i) => i === 0 ? 1 : 0));
  assert.deepEqual(
    senderCardKey(card("a.example", { sign_key: identityPoint }), "a.example"),
    undefined,
  );
  // Nothing else on the card matters to the inbox.
  assert.deepEqual(
    senderCardKey({ v: 1, address: "a.example", sign_key: b64uEncode(KEY) }, "a.example"),
    KEY,
  );
});

Deno.test("fetchSenderCard() fetches over http for loopback when allowed, then caches for an hour", async () => {
  const server = cardServer((address) => Response.json(card(address)));
  try {
    const cache = kv();
    const first = await fetchSenderCard(server.address, { allowInsecure: true, cache });
    assert.deepEqual(first?.signKey, KEY);
    assert.deepEqual(cache.puts, [{ key: `peer:${server.address}`, ttl: 3_600 }]);
    const second = await fetchSenderCard(server.address, { allowInsecure: true, cache });
    assert.deepEqual(second?.signKey, KEY);
    assert.deepEqual(server.hits, 1);
  } finally {
    await server.stop();
  }
});

Deno.test("fetchSenderCard() treats a failing cache read as a miss and ignores a failing write", async () => {
  const server = cardServer((address) => Response.json(card(address)));
  try {
    const cache = kv({ failGet: true, failPut: true });
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(
        (await fetchSenderCard(server.address, { allowInsecure: true, cache }))?.signKey,
        KEY,
      );
    }
    assert.deepEqual(server.hits, 2);
  } finally {
    await server.stop();
  }
});

Deno.test("fetchSenderCard() never uses http without ALLOW_INSECURE_PEERS", async () => {
  const server = cardServer((address) => Response.json(card(address)));
  try {
    assert.deepEqual(await fetchSenderCard(server.address, { allowInsecure: false }), undefined);
    assert.deepEqual(server.hits, 0);
  } finally {
    await server.stop();
  }
});

Deno.test("fetchSenderCard() counts a redirect, an error status, a large or bad card as unavailable", async () => {
  const answers: ((address: string) => Response)[] = [
    () => new Response(null, { status: 301, headers: { location: "http://127.0.0.1:1/" } }),
    () => new Response(null, { status: 307, headers: { location: "/again" } }),
    () => Response.json({ error: "no_card" }, { status: 404 }),
    (a) => Response.json(card(a), { status: 201 }),
    (a) => Response.json(card(a, { padding: "x".repeat(8_200) })),
    (a) =>
      new Response(
        ReadableStream.from([
          new TextEncoder().encode(JSON.stringify(card(a)).slice(0, -1)),
          new Uint8Array(9_000).fill(32),
        ]),
      ),
    () => new Response("not json"),
    (a) => Response.json(card(a, { v: "1" })),
  ];
  for (const [i, answer] of answers.entries()) {
    const server = cardServer(answer);
    try {
      const cache = kv();
      assert.deepEqual(
        await fetchSenderCard(server.address, { allowInsecure: true, cache }),
        undefined,
        `case ${i}`,
      );
      assert.deepEqual(cache.puts.length, 0);
    } finally {
      await server.stop();
    }
  }
});

Deno.test("fetchSenderCard() gives up after the timeout", async () => {
  const server = cardServer(async (address) => {
    await new Promise((r) => setTimeout(r, 2_000));
    return Response.json(card(address));
  });
  try {
    const started = performance.now();
    assert.deepEqual(
      await fetchSenderCard(server.address, { allowInsecure: true, timeoutMs: 100 }),
      undefined,
    );
    // Well before the card would come; room for a loaded machine.
    assert.ok(performance.now() - started < 1_500);
  } finally {
    await new Promise((r) => setTimeout(r, 450));
    await server.stop();
  }
});

Deno.test("CardMemo keeps a key for a minute and drops the oldest when full", () => {
  const memo = new CardMemo(2);
  memo.set("a", KEY, 0);
  assert.deepEqual(memo.get("a", 59_999), KEY);
  assert.deepEqual(memo.get("a", 60_000), undefined);
  memo.set("a", KEY, 0);
  memo.set("b", KEY, 0);
  memo.set("c", KEY, 0);
  assert.deepEqual([memo.get("a", 1), memo.get("b", 1), memo.get("c", 1)], [undefined, KEY, KEY]);
});
