import assert from "node:assert/strict";
import { HttpError } from "@agent/net";
import { brainPortHandler, type BrainPortSources } from "./brain_port.ts";

const SECRET = "Cannot open /agent/.env: token=hunter2";

function sources(overrides: Partial<BrainPortSources> = {}): BrainPortSources & {
  logged: string[];
} {
  const logged: string[] = [];
  return {
    version: "0.1.0",
    hubStatus: () => Promise.resolve({ ok: true }),
    routes: () => ({
      "/messenger/webhook": (request) =>
        request.headers.has("x-telegram-bot-api-secret-token")
          ? Promise.resolve(Response.json({ ok: true }))
          : Promise.reject(new HttpError(401, "unauthorized")),
    }),
    log: (line) => logged.push(line),
    logged,
    ...overrides,
  };
}

Deno.test("brainPortHandler() answers /health and hands a POST to its channel route", async () => {
  const handle = brainPortHandler(sources());
  const health = await handle(new Request("http://127.0.0.1:8080/health"));
  assert.deepEqual(await health.json(), { ok: true, version: "0.1.0", hub: { ok: true } });
  const taken = await handle(
    new Request("http://127.0.0.1:8080/messenger/webhook", {
      method: "POST",
      headers: { "x-telegram-bot-api-secret-token": "s" },
      body: "{}",
    }),
  );
  assert.deepEqual([taken.status, await taken.json()], [200, { ok: true }]);
});

Deno.test("brainPortHandler() turns a route's HttpError into its code, a wrong method into 405 and anything else into 404", async () => {
  const handle = brainPortHandler(sources());
  const refused = await handle(
    new Request("http://127.0.0.1:8080/messenger/webhook", { method: "POST", body: "{}" }),
  );
  assert.deepEqual([refused.status, await refused.json()], [401, { error: "unauthorized" }]);
  const nope = await handle(new Request("http://127.0.0.1:8080/nope"));
  assert.deepEqual([nope.status, await nope.json()], [404, { error: "not_found" }]);
  for (
    const [request, allow] of [
      [new Request("http://127.0.0.1:8080/health", { method: "POST", body: "x" }), "GET"],
      [new Request("http://127.0.0.1:8080/messenger/webhook"), "POST"],
    ] as const
  ) {
    const res = await handle(request);
    assert.deepEqual(
      [res.status, res.headers.get("allow"), await res.json()],
      [405, allow, { error: "method_not_allowed" }],
      request.url,
    );
  }
});

Deno.test("brainPortHandler() answers an internal failure 500 internal, its text in the log only", async () => {
  const s = sources({
    hubStatus: () => Promise.reject(new Error(SECRET)),
    routes: () => ({ "/messenger/webhook": () => Promise.reject(new TypeError(SECRET)) }),
  });
  const handle = brainPortHandler(s);
  for (
    const request of [
      new Request("http://127.0.0.1:8080/health"),
      new Request("http://127.0.0.1:8080/messenger/webhook", { method: "POST", body: "{}" }),
    ]
  ) {
    const res = await handle(request);
    const text = await res.text();
    assert.deepEqual([res.status, JSON.parse(text)], [500, { error: "internal" }], request.url);
    assert.ok(!text.includes("hunter2"), text);
  }
  assert.deepEqual(s.logged, [
    `brain port: internal: ${SECRET}`,
    `brain port: internal: ${SECRET}`,
  ]);
});

Deno.test("brainPortHandler() serves the dashboard only to the hub token, the code route included", async () => {
  const seen: string[] = [];
  const door = {
    routes: () => [],
    handle: (_request: Request, url: URL) => {
      seen.push(url.pathname);
      return Promise.resolve(
        Response.json(url.pathname.endsWith("/code") ? { code: "c0de" } : { ok: true }),
      );
    },
  };
  const handle = brainPortHandler(sources({ dashboard: () => door, spineToken: "hub-token" }));
  const bearer = { authorization: "Bearer hub-token" };
  for (const headers of [{}, { authorization: "Bearer wrong" }]) {
    const res = await handle(
      new Request("http://127.0.0.1:8080/hub/dashboard/api/session", { headers }),
    );
    assert.deepEqual([res.status, await res.json()], [401, { error: "unauthorized" }]);
  }
  for (const headers of [{}, { authorization: "Bearer wrong" }]) {
    const res = await handle(
      new Request("http://127.0.0.1:8080/hub/dashboard/code", { method: "POST", headers }),
    );
    assert.deepEqual([res.status, await res.json()], [401, { error: "unauthorized" }]);
  }
  assert.deepEqual(seen, [], "nothing reached the dashboard without the token");
  const code = await handle(
    new Request("http://127.0.0.1:8080/hub/dashboard/code", { method: "POST", headers: bearer }),
  );
  assert.deepEqual(await code.json(), { code: "c0de" });
  const page = await handle(
    new Request("http://127.0.0.1:8080/hub/dashboard/api/overview", { headers: bearer }),
  );
  assert.equal(page.status, 200);
  await page.body?.cancel();
  assert.deepEqual(seen, ["/hub/dashboard/code", "/hub/dashboard/api/overview"]);

  // Before the hub serves it, and without a token configured.
  const starting = brainPortHandler(
    sources({ dashboard: () => undefined, spineToken: "hub-token", startingWaitMs: 300 }),
  );
  const early = await starting(
    new Request("http://127.0.0.1:8080/hub/dashboard/", { headers: bearer }),
  );
  assert.deepEqual([early.status, await early.json()], [503, { error: "starting" }]);
  // A request that arrives while the hub starts waits for it instead.
  let up: typeof door | undefined;
  setTimeout(() => up = door, 150);
  const waking = brainPortHandler(
    sources({ dashboard: () => up, spineToken: "hub-token", startingWaitMs: 5_000 }),
  );
  const waited = await waking(
    new Request("http://127.0.0.1:8080/hub/dashboard/api/overview", { headers: bearer }),
  );
  assert.equal(waited.status, 200);
  await waited.body?.cancel();
  const none = brainPortHandler(sources({ dashboard: () => door }));
  const refused = await none(
    new Request("http://127.0.0.1:8080/hub/dashboard/", { headers: bearer }),
  );
  assert.equal(refused.status, 401);
  await refused.body?.cancel();
});
