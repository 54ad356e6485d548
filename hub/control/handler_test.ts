import assert from "node:assert/strict";
import { controlHandler, type ControlSources } from "./handler.ts";

/** A JSON body as a record: checked beside spine/, whose worker types make json() unknown. */
async function json(res: Response): Promise<Record<string, unknown>> {
  return await res.json() as Record<string, unknown>;
}

const TOKEN = "t0ken-for-tests";

/** A request carrying the control API's bearer token. */
function authed(url: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${TOKEN}`);
  return new Request(url, { ...init, headers });
}

function sources(overrides: Partial<ControlSources> = {}): ControlSources {
  return {
    pid: 42,
    version: "0.1.0",
    startedAt: Date.UTC(2026, 0, 1),
    home: "/h",
    dataDir: "/h/data",
    port: 8790,
    token: TOKEN,
    now: () => Date.UTC(2026, 0, 1, 0, 1, 5),
    heartbeatAt: () => Date.UTC(2026, 0, 1, 0, 1, 3),
    spend: () => ({ brain: { provider: "fake", spent_usd: 0.5 } }),
    net: () => ({ configured: false, state: "idle" }),
    ...overrides,
  };
}

Deno.test("controlHandler() GET /status carries spend.roles, net and uptime", async () => {
  const res = await controlHandler(sources())(authed("http://127.0.0.1:8790/status"));
  assert.deepEqual(res.status, 200);
  const body = await json(res);
  // A spend object without its period has no forecast.
  assert.deepEqual(body.spend, {
    roles: { brain: { provider: "fake", spent_usd: 0.5 } },
    forecast: {},
  });
  assert.deepEqual(body.net, { configured: false, state: "idle" });
  assert.deepEqual(body.uptime_seconds, 65);
  assert.deepEqual(body.pid, 42);
  assert.deepEqual(body.heartbeat_at, "2026-01-01T00:01:03.000Z");
});

Deno.test("controlHandler() GET /spend wraps the report in roles", async () => {
  const res = await controlHandler(sources())(authed("http://localhost:8790/spend"));
  assert.deepEqual(await res.json(), { roles: { brain: { provider: "fake", spent_usd: 0.5 } } });
});

Deno.test("controlHandler() keeps /status useful when the ledger cannot be read", async () => {
  const logged: string[] = [];
  const handle = controlHandler(sources({
    spend: () => {
      throw new Error("database is locked");
    },
    log: (line) => logged.push(line),
  }));
  const status = await json(await handle(authed("http://127.0.0.1:8790/status")));
  // The code, not the ledger's own words: those go to the hub's log.
  assert.deepEqual(status.spend, { roles: {}, error: "ledger_unreadable" });
  const spend = await handle(authed("http://127.0.0.1:8790/spend"));
  assert.deepEqual(spend.status, 500);
  assert.deepEqual(await spend.json(), { error: "ledger_unreadable" });
  assert.deepEqual(logged, [
    "control api: ledger_unreadable: database is locked",
    "control api: ledger_unreadable: database is locked",
  ]);
});

Deno.test("controlHandler() answers an internal failure 500 internal, its text in the log only", async () => {
  const logged: string[] = [];
  const secret = "token=hunter2 at /home/ada/.agent/data";
  const handle = controlHandler(sources({
    net: () => {
      throw new Error(secret);
    },
    events: () => Promise.reject(new RangeError(secret)),
    routes: () => ({
      "/messenger/webhook": () => Promise.reject(new Error(secret)),
    }),
    log: (line) => logged.push(line),
  }));
  for (
    const request of [
      authed("http://127.0.0.1:8790/status"),
      authed("http://127.0.0.1:8790/net"),
      authed("http://127.0.0.1:8790/net/events?after=0"),
      authed("http://127.0.0.1:8790/messenger/webhook", { method: "POST", body: "{}" }),
    ]
  ) {
    const res = await handle(request);
    const text = await res.text();
    assert.deepEqual([res.status, JSON.parse(text)], [500, { error: "internal" }], request.url);
    assert.ok(!text.includes("hunter2"), text);
  }
  assert.deepEqual(logged.length, 4);
  assert.ok(logged.every((line) => line.startsWith("control api: internal: ")), logged.join("\n"));
  assert.ok(logged.every((line) => line.includes(secret)));
});

Deno.test("controlHandler() refuses non-loopback hosts and foreign origins", async () => {
  const handle = controlHandler(sources());
  const rebound = await handle(
    authed("http://127.0.0.1:8790/status", { headers: { host: "evil.example:8790" } }),
  );
  assert.deepEqual(rebound.status, 403);
  const page = await handle(
    authed("http://127.0.0.1:8790/status", { headers: { origin: "https://evil.example" } }),
  );
  assert.deepEqual(page.status, 403);
  await page.body?.cancel();
  await rebound.body?.cancel();
});

Deno.test("controlHandler() answers 404 and 405 with error bodies", async () => {
  const handle = controlHandler(sources());
  const missing = await handle(authed("http://127.0.0.1:8790/nope"));
  assert.deepEqual([missing.status, await missing.json()], [404, { error: "not_found" }]);
  const post = await handle(authed("http://127.0.0.1:8790/status", { method: "POST" }));
  assert.deepEqual(post.status, 405);
  assert.deepEqual(post.headers.get("allow"), "GET, HEAD");
  assert.ok((await json(post)).error === "method_not_allowed");
});

Deno.test("controlHandler() GET /net/events passes 'after' to the event source", async () => {
  const seen: number[] = [];
  const handle = controlHandler(sources({
    events: (after) => {
      seen.push(after);
      return Promise.resolve([{ ts: 5, type: "net.contact_request" }]);
    },
  }));
  const res = await handle(authed("http://127.0.0.1:8790/net/events?after=4"));
  assert.deepEqual(await res.json(), { events: [{ ts: 5, type: "net.contact_request" }] });
  assert.deepEqual(seen, [4]);
  const bad = await handle(authed("http://127.0.0.1:8790/net/events?after=x"));
  assert.deepEqual(bad.status, 400);
  await bad.body?.cancel();
});

Deno.test("controlHandler() GET /spend?by= takes every --by value, job and purpose too", async () => {
  const asked: string[] = [];
  const handle = controlHandler(sources({
    spendBy: (options) => {
      asked.push(options.by);
      return { by: options.by } as unknown as ReturnType<NonNullable<ControlSources["spendBy"]>>;
    },
  }));
  for (const by of ["channel", "contact", "session", "purpose", "day", "job"]) {
    const res = await handle(authed(`http://127.0.0.1:8790/spend?by=${by}`));
    assert.equal(res.status, 200, by);
    assert.deepEqual(await res.json(), { by });
  }
  assert.deepEqual(asked, ["channel", "contact", "session", "purpose", "day", "job"]);
  // A wrong value is told with the whole list, as the CLI's --by says it.
  const bad = await handle(authed("http://127.0.0.1:8790/spend?by=week"));
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), {
    error: "bad_request",
    detail: "by: one of channel, contact, session, purpose, day, job",
  });
});

Deno.test("controlHandler() answers under /dashboard with the page's headers, a refusal too", async () => {
  const refusals = [
    // No dashboard mounted: its path is still answered with them.
    [controlHandler(sources()), new Request("http://127.0.0.1:8790/dashboard/"), 404],
    // A foreign Host is refused before the dashboard is asked.
    [
      controlHandler(sources()),
      new Request("http://127.0.0.1:8790/dashboard/api/session", {
        headers: { host: "evil.example:8790" },
      }),
      403,
    ],
  ] as const;
  for (const [handle, request, status] of refusals) {
    const res = await handle(request);
    assert.equal(res.status, status);
    assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
    assert.equal(res.headers.get("x-frame-options"), "DENY");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    await res.body?.cancel();
  }
  // Outside /dashboard the control API's answers stay as they were.
  const health = await controlHandler(sources())(new Request("http://127.0.0.1:8790/nope"));
  assert.equal(health.status, 404);
  assert.equal(health.headers.get("x-frame-options"), null);
});

Deno.test("controlHandler() GET /approvals lists the desk's, POST /approvals/decide decides one with the token only", async () => {
  const decided: string[] = [];
  const request = { id: "a1", tool: "write_note", message: "Save x.", conversation: "email:t" };
  const handle = controlHandler(sources({
    approvals: {
      open: () => decided.length === 0 ? [request as never] : [],
      decide: (id, decision, by) => {
        if (id !== "a1" || decided.length > 0) return false;
        decided.push(`${decision} by ${by}`);
        return true;
      },
    },
  }));
  const url = "http://127.0.0.1:8790/approvals";
  assert.deepEqual((await json(await handle(authed(url)))).approvals, [request]);
  const post = (body: unknown, auth = true) => {
    const init = { method: "POST", body: JSON.stringify(body) };
    return handle(auth ? authed(`${url}/decide`, init) : new Request(`${url}/decide`, init));
  };
  assert.equal((await post({ id: "a1", decision: "once" }, false)).status, 401);
  assert.equal((await post({ id: "a1", decision: "always" })).status, 400);
  assert.equal((await post({ id: "a1", decision: "once", by: "messenger" })).status, 400);
  assert.deepEqual(decided, []);
  assert.deepEqual(await json(await post({ id: "a1", decision: "once" })), { decided: true });
  assert.deepEqual(await json(await post({ id: "a1", decision: "deny" })), { decided: false });
  assert.deepEqual(decided, ["once by tui"]);
  assert.deepEqual((await json(await handle(authed(url)))).approvals, []);
});
