import assert from "node:assert/strict";
import type { NetNode } from "./node.ts";
import { reportLinks, UniverseClient } from "./universe.ts";

/** A node with `contacts` accepted contacts, whose fetch goes to `answer` and is logged. */
function fakeNode(
  contacts: string[],
  answer: (path: string, init?: RequestInit) => Response,
  links = true,
): { node: NetNode; calls: string[] } {
  const calls: string[] = [];
  const node = {
    allowInsecure: false,
    config: { net: { universe_links: links } },
    state: {
      profile: () => Promise.resolve({}),
      counts: () => Promise.resolve({ peers: { "c1.example": { in: 2, out: 3 } } }),
      contacts: () =>
        Promise.resolve([
          ...contacts.map((address) => ({ address, state: "accepted" })),
          { address: "pending.example", state: "pending_out" },
        ]),
    },
    fetch: (url: string | URL, init?: RequestInit) => {
      const path = new URL(url).pathname;
      calls.push(`${init?.method ?? "GET"} ${path}`);
      return Promise.resolve(answer(path, init));
    },
  } as unknown as NetNode;
  return { node, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const contacts = Array.from({ length: 1_500 }, (_, i) => `c${i}.example`);

Deno.test("reportLinks() asks POST /api/listed 1,000 at a time when /api/info advertises it", async () => {
  const asked: string[][] = [];
  const { node, calls } = fakeNode(contacts, (path, init) => {
    if (path === "/api/info") {
      return json({ universe: "u.example", listed: { path: "/api/listed", max_addresses: 1000 } });
    }
    if (path === "/api/listed") {
      const addresses = JSON.parse(String(init?.body)).addresses as string[];
      asked.push(addresses);
      return json({ listed: addresses.filter((a) => a === "c1.example" || a === "c1400.example") });
    }
    return json({ error: "not_found" }, 404);
  });
  const client = new UniverseClient(node, "u.example");
  const links = await reportLinks(node, (a) => client.listedAmong(a));
  assert.deepEqual(links, [
    { peer: "c1.example", messages: 5 },
    { peer: "c1400.example", messages: 0 },
  ]);
  assert.deepEqual(calls, ["GET /api/info", "POST /api/listed", "POST /api/listed"]);
  assert.deepEqual(asked.map((a) => a.length), [1000, 500]);
  assert.ok(!asked.flat().includes("pending.example"));
});

Deno.test("reportLinks() reads the snapshot when the universe does not advertise /api/listed", async () => {
  for (const info of [json({ error: "not_found" }, 404), json({ universe: "u.example" })]) {
    const { node, calls } = fakeNode(contacts.slice(0, 3), (path) => {
      if (path === "/api/info") return info.clone();
      if (path === "/api/universe") {
        return json({ universe: "u.example", taus: [{ address: "c2.example" }], links: [] });
      }
      return json({ error: "not_found" }, 404);
    });
    const client = new UniverseClient(node, "u.example");
    assert.deepEqual(await reportLinks(node, (a) => client.listedAmong(a)), [
      { peer: "c2.example", messages: 0 },
    ]);
    assert.deepEqual(calls, ["GET /api/info", "GET /api/universe"]);
  }
});

Deno.test("reportLinks() asks nothing when links are off or there is no accepted contact", async () => {
  for (const [list, on] of [[contacts, false], [[], true]] as const) {
    const { node, calls } = fakeNode([...list], () => json({}, 500), on);
    const client = new UniverseClient(node, "u.example");
    assert.deepEqual(await reportLinks(node, (a) => client.listedAmong(a)), []);
    assert.deepEqual(calls, []);
  }
});

Deno.test("UniverseClient.listedAmong() turns a refused request into a UniverseError", async () => {
  const { node } = fakeNode(
    contacts,
    (path) =>
      path === "/api/info"
        ? json({ listed: { path: "/api/listed", max_addresses: 1000 } })
        : json({ error: "bad_request", detail: "addresses[0] is not an address" }, 400),
  );
  const client = new UniverseClient(node, "u.example");
  await assert.rejects(client.listedAmong(["x.example"]), {
    name: "UniverseError",
    message: "bad_request: addresses[0] is not an address",
  });
});
