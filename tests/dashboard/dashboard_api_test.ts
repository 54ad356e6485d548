/**
 * A local process that holds no control token gets nothing from the dashboard: every
 * route under `/dashboard/api/`, read or write, answers 401 `unauthorized` and nothing
 * else, whatever it sends in place of the session token (nothing, a guess, the cookies a
 * browser used to carry, a bearer token, a query parameter). It cannot get a sign-in code
 * either. Every answer under `/dashboard`, a refusal as much as a page, carries the same
 * CSP, framing and `nosniff` headers. A real hub on a loopback port, with every part of the
 * dashboard mounted.
 */
import assert from "node:assert/strict";
import {
  dashboard,
  dashboardChat,
  dashboardJobs,
  dashboardMcp,
  dashboardMemory,
  dashboardNetwork,
  dashboardSettings,
} from "@agent/hub";
import { startDashboardHub } from "../_hub_in_process.ts";

/** Throws unless `res` carries the dashboard's security headers. */
function assertGuarded(res: Response, what: string, cache = "no-store"): void {
  assert.deepEqual(
    [
      res.headers.get("content-security-policy")?.includes("frame-ancestors 'none'"),
      res.headers.get("content-security-policy")?.startsWith("default-src 'none'"),
      res.headers.get("x-frame-options"),
      res.headers.get("x-content-type-options"),
      res.headers.get("referrer-policy"),
      res.headers.get("cache-control"),
    ],
    [true, true, "DENY", "nosniff", "no-referrer", cache],
    `${what}: ${res.status}`,
  );
}

/**
 * Every route of the dashboard's API with a method it answers, read from the dashboard's
 * own route table (its parts built over sources never called), so a route added later is
 * walked too; and one that is not there.
 */
function everyRoute(): [string, string][] {
  const unused = {} as never;
  const door = dashboard({
    lang: "en",
    now: Date.now,
    status: () => ({}),
    recentEvents: () => Promise.resolve([]),
    chat: dashboardChat({ desk: unused, sessions: unused, searchFile: "/nowhere" }),
    network: dashboardNetwork({ node: () => undefined, lang: "en" }),
    settings: dashboardSettings({ paths: unused, env: {}, lang: "en" }),
    jobs: dashboardJobs({ scope: unused }),
    mcp: dashboardMcp({ paths: unused, env: {}, lang: "en" }),
    memory: dashboardMemory({ store: () => undefined, lang: "en" }),
  });
  const routes: [string, string][] = door.routes()
    // The login is the one route without a session (a guessed code: below).
    .filter((r) => r.pattern.startsWith("/api/") && r.pattern !== "/api/login")
    .map((r) => [r.methods.find((m) => m !== "HEAD") ?? "GET", r.pattern.slice("/api/".length)]);
  routes.push(["GET", "no-such-route"], ["DELETE", "overview"]);
  return routes;
}

Deno.test({
  name:
    "dashboard API: a process without the control token gets 401 and nothing else from every route; every refusal carries the page's headers",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using hub = await startDashboardHub({ dotenv: "VENDOR_A_API_KEY=sk-secret-value\n" });
    // A signed-in browser exists: its session must not be reachable by anything below.
    const login = await fetch(`${hub.base}/dashboard/api/login`, {
      method: "POST",
      headers: { origin: hub.base, "content-type": "application/json" },
      body: JSON.stringify({ code: await hub.code() }),
    });
    const { token } = await login.json() as { token: string };
    assert.equal(login.status, 200);
    const stand_ins: Record<string, string>[] = [
      {},
      { "x-agent-session": "guessed-token-0123456789abcdefghijklmnopqrstu" },
      { cookie: `agent_dashboard_${hub.port}=${token.slice(0, -1)}x; agent_dashboard=x` },
      { authorization: `Bearer ${token.slice(1)}` },
      { "x-csrf-token": "anything", origin: hub.base },
    ];
    const routes = everyRoute();
    // The table holds what the page uses: the session, the chat, the parts' routes.
    for (
      const name of ["session", "chat/send", "approvals/decide", "settings/secret", "jobs/run"]
    ) {
      assert.ok(routes.some(([, path]) => path === name), name);
    }
    assert.ok(routes.length >= 30, String(routes.length));
    for (const [method, path] of routes) {
      for (const headers of stand_ins) {
        const res = await fetch(`${hub.base}/dashboard/api/${path}`, {
          method,
          headers: { ...headers, "content-type": "application/json" },
          ...(method === "POST"
            ? { body: JSON.stringify({ text: "hi", name: "X", value: "y" }) }
            : {}),
        });
        assert.equal(res.headers.get("set-cookie"), null);
        assertGuarded(res, `${method} ${path}`);
        assert.deepEqual(
          [method, path, res.status, await res.text()],
          [method, path, 401, '{"error":"unauthorized"}'],
          JSON.stringify(headers),
        );
      }
    }
    // The session as a query parameter names nothing either.
    const query = await fetch(`${hub.base}/dashboard/api/session?session=${token}&token=${token}`);
    assert.deepEqual([query.status, await query.json()], [401, { error: "unauthorized" }]);
    // No code without the control token, and a guessed code is refused.
    for (const headers of [{}, { authorization: "Bearer not-the-token" }, { origin: hub.base }]) {
      const res = await fetch(`${hub.base}/dashboard/code`, { method: "POST", headers });
      assert.deepEqual([res.status, await res.json()], [401, { error: "unauthorized" }]);
    }
    const guess = await fetch(`${hub.base}/dashboard/api/login`, {
      method: "POST",
      headers: { origin: hub.base, "content-type": "application/json" },
      body: JSON.stringify({ code: "A".repeat(43) }),
    });
    assert.deepEqual([guess.status, await guess.json()], [401, { error: "code_invalid" }]);
    // Nothing was written meanwhile.
    assert.match(
      await Deno.readTextFile(`${hub.home}/.env`),
      /^VENDOR_A_API_KEY=sk-secret-value$/m,
    );
    assert.ok(!(await Deno.readTextFile(`${hub.home}/.env`)).includes("X=y"));
    // Every other refusal under /dashboard carries the same headers: no code without the
    // token, a foreign origin, a route that is not there, a wrong method, a path outside
    // the API (a foreign Host: hub/control/handler_test.ts).
    const auth = { "x-agent-session": token };
    for (
      const [method, path, headers, status] of [
        ["POST", "/dashboard/code", {}, 401],
        ["GET", "/dashboard/code", { authorization: "Bearer x" }, 405],
        ["GET", "/dashboard/api/overview", { ...auth, origin: "http://127.0.0.1:1" }, 403],
        ["GET", "/dashboard/api/overview", { ...auth, "sec-fetch-site": "same-site" }, 403],
        ["POST", "/dashboard/api/logout", { ...auth, origin: hub.base }, 403],
        ["GET", "/dashboard/api/no-such-route", auth, 404],
        ["POST", "/dashboard/api/overview", { ...auth, origin: hub.base }, 403],
        ["DELETE", "/dashboard/api/overview", auth, 405],
        ["GET", "/dashboard/nothing-here", {}, 404],
        ["POST", "/dashboard/", {}, 405],
        ["GET", "/dashboard/", {}, 200],
        ["GET", "/dashboard/assets/app.css", {}, 200],
      ] as const
    ) {
      const res = await fetch(`${hub.base}${path}`, { method, headers });
      assert.equal(res.status, status, `${method} ${path}`);
      // The assets are checked for change on each load; everything else is not kept.
      assertGuarded(res, `${method} ${path}`, path.includes("/assets/") ? "no-cache" : "no-store");
      await res.body?.cancel();
    }
    // The browser's session still works, with its token in the header.
    const still = await fetch(`${hub.base}/dashboard/api/overview`, {
      headers: { "x-agent-session": token },
    });
    assert.equal(still.status, 200);
    await still.body?.cancel();
  },
});
