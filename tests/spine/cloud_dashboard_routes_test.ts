/**
 * `/hub/dashboard` on workerd with a stand-in brain that records what reaches it: the
 * spine forwards the dashboard's headers and body (the session header among them), never
 * the browser's `Authorization` or a cookie, and passes no cookie back; it vouches with its own hub token, names the origin it was reached at
 * (whatever the browser claimed), passes the answer back as it is, and asks for the
 * hub token on `POST /hub/dashboard/code`. Local mode has no dashboard here, and
 * without a brain it is 503 `brain_unavailable`.
 */
import assert from "node:assert/strict";
import { spineTest, TOKEN } from "./_setup.ts";
import { freePort } from "../_port.ts";

/** A stand-in brain: records each request's method, path, headers and body. */
function recordingBrain() {
  const seen: { method: string; path: string; headers: Headers; body: string }[] = [];
  const port = freePort();
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: request.headers,
      body: await request.text(),
    });
    return Response.json({ from: "brain" }, {
      status: 201,
      headers: { "set-cookie": "agent_dashboard=abc; Path=/hub/dashboard", "x-kept": "1" },
    });
  });
  return { url: `http://127.0.0.1:${port}`, seen, stop: () => server.shutdown() };
}

const brain = recordingBrain();
const reached = () => brain.seen.map((s) => `${s.method} ${s.path}`);

spineTest(
  "dashboard: forwarded with the hub token and the spine's own origin, answered without cookies",
  {
    mode: "cloud",
    vars: { BRAIN_URL: brain.url },
  },
  async (spine) => {
    brain.seen.length = 0;
    const res = await fetch(`${spine.url}/hub/dashboard/api/chat/send?x=1`, {
      method: "POST",
      headers: {
        authorization: "Bearer from-the-browser",
        cookie: "agent_dashboard=s1",
        "x-agent-session": "s1",
        origin: "https://page.example",
        "x-agent-dashboard-origin": "https://claimed.example",
        "x-csrf-token": "c1",
        "x-agent-lang": "tr",
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
        "x-other": "dropped",
      },
      body: JSON.stringify({ text: "hi" }),
    });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { from: "brain" });
    assert.equal(res.headers.get("set-cookie"), null);
    assert.equal(res.headers.get("x-kept"), "1");
    const [seen] = brain.seen;
    assert.ok(seen);
    assert.equal(seen.method, "POST");
    assert.equal(seen.path, "/hub/dashboard/api/chat/send?x=1");
    assert.equal(seen.body, '{"text":"hi"}');
    assert.equal(seen.headers.get("authorization"), `Bearer ${TOKEN}`);
    assert.equal(seen.headers.get("x-agent-dashboard-origin"), new URL(spine.url).origin);
    assert.equal(seen.headers.get("cookie"), null);
    assert.equal(seen.headers.get("x-agent-session"), "s1");
    assert.equal(seen.headers.get("origin"), "https://page.example");
    assert.equal(seen.headers.get("x-csrf-token"), "c1");
    assert.equal(seen.headers.get("x-agent-lang"), "tr");
    assert.equal(seen.headers.get("sec-fetch-site"), "same-origin");
    assert.equal(seen.headers.get("x-other"), null);

    // The code route needs the hub token before anything reaches the brain.
    brain.seen.length = 0;
    for (const authorization of [undefined, "Bearer wrong"]) {
      const refused = await fetch(`${spine.url}/hub/dashboard/code`, {
        method: "POST",
        headers: authorization ? { authorization } : {},
      });
      assert.equal(refused.headers.get("x-frame-options"), "DENY");
      assert.deepEqual([refused.status, await refused.json()], [401, { error: "unauthorized" }]);
    }
    assert.deepEqual(reached(), []);
    const code = await fetch(`${spine.url}/hub/dashboard/code`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(code.status, 201);
    await code.body?.cancel();
    assert.deepEqual(reached(), ["POST /hub/dashboard/code"]);
    assert.ok(!spine.logs.join("\n").includes(TOKEN));
  },
);

spineTest(
  "dashboard: local mode is cloud_mode_off (with the dashboard's headers) and reaches no brain",
  {
    vars: { BRAIN_URL: brain.url },
  },
  async (spine) => {
    brain.seen.length = 0;
    for (const path of ["/hub/dashboard", "/hub/dashboard/", "/hub/dashboard/api/overview"]) {
      const res = await fetch(`${spine.url}${path}`);
      assert.equal(res.headers.get("x-frame-options"), "DENY", path);
      assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.deepEqual([res.status, await res.json()], [404, { error: "cloud_mode_off" }], path);
    }
    assert.deepEqual(reached(), []);
  },
);

spineTest("dashboard: without a brain it is 503 brain_unavailable", {
  mode: "cloud",
  vars: { BRAIN_URL: `http://127.0.0.1:${freePort()}` },
}, async (spine) => {
  const res = await fetch(`${spine.url}/hub/dashboard/`);
  assert.deepEqual([res.status, await res.json()], [503, { error: "brain_unavailable" }]);
});

spineTest("dashboard: a request wakes the brain's container; one that cannot start is 503", {
  mode: "cloud",
  brainBinding: true,
}, async (spine) => {
  const res = await fetch(`${spine.url}/hub/dashboard/api/overview`);
  assert.deepEqual([res.status, await res.json()], [503, { error: "brain_unavailable" }]);
  assert.ok(spine.logs.some((line) => line.includes("brain_unavailable")), spine.logs.join("\n"));
});

Deno.test("dashboard: the stand-in brain stops", async () => {
  await brain.stop();
});
