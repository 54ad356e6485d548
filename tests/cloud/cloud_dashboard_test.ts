/**
 * The web dashboard in cloud mode, through a cloud spine on workerd whose brain is an
 * `agent cloud run` process: the hub token traded once for a one-time code and the code
 * once for a signed session token (no cookie) the spine passes on in `X-Agent-Session`;
 * every route refused without the token (a cookie holding it counts for nothing), from
 * another origin, under another name or without the CSRF token; the Overview and Spend data answering through the spine; the
 * desk's event stream delivering a chat answer through the spine as it is written; the
 * session outliving a restart of the brain; and `agent dashboard --cloud --no-open`
 * printing the address.
 */
import assert from "node:assert/strict";
import { agent } from "../cli/_run.ts";
import { CLOUD_TOKEN } from "./_cloud.ts";
import { type CloudDashboard, startCloudDashboard } from "./_dashboard.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };
const REPLY = "Hello from the cloud dashboard.";

// Both tests take turns on one spine and brain (a start of the two is ~2.5 CPU-seconds):
// the second asks for a code of its own, which the first's sign-out does not touch. They
// stop after the last test, with the checks that the token was never written.
let running: Promise<CloudDashboard> | undefined;
const cloudDashboard = () => running ??= startCloudDashboard([REPLY]);
Deno.test.afterAll(async () => {
  if (running !== undefined) await (await running)[Symbol.asyncDispose]();
});

/** An event stream read as text, as far as asked. */
function streamText(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return {
    /** Reads until `seen` holds, or fails after `ms`. */
    async until(seen: (text: string) => boolean, ms = 20_000): Promise<string> {
      const timer = setTimeout(() => reader.cancel("timeout").catch(() => {}), ms);
      try {
        while (!seen(text)) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
      } finally {
        clearTimeout(timer);
      }
      assert.ok(seen(text), `the stream never said it:\n${text.slice(-2000)}`);
      return text;
    },
    close: () => reader.cancel().catch(() => {}),
  };
}

Deno.test({
  name:
    "cloud dashboard: the hub token becomes a one-time code, the code a session token in a header; every check holds through the spine",
  ...SLOW,
  async fn() {
    const cd = await cloudDashboard();
    const base = `${cd.spine.url}/hub/dashboard`;
    const origin = new URL(cd.spine.url).origin;
    const login = (code: unknown, headers: Record<string, string> = { origin }) =>
      fetch(`${base}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ code }),
      });

    // A code needs the hub token, at the spine and at the brain's port alike.
    for (const authorization of [undefined, "Bearer wrong-token"]) {
      const res = await fetch(`${base}/code`, {
        method: "POST",
        headers: authorization ? { authorization } : {},
      });
      assert.deepEqual([res.status, await res.json()], [401, { error: "unauthorized" }]);
    }
    const direct = await fetch(`http://127.0.0.1:${cd.brainPort}/hub/dashboard/code`, {
      method: "POST",
    });
    assert.deepEqual([direct.status, await direct.json()], [401, { error: "unauthorized" }]);

    // The page itself: the shell under /hub/dashboard, its assets there, a strict CSP.
    const page = await fetch(`${base}/`);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(html, /data-base="\/hub\/dashboard"/);
    assert.match(html, /src="\/hub\/dashboard\/assets\/app\.js"/);
    assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    const js = await fetch(`${base}/assets/app.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get("content-type") ?? "", /javascript/);
    await js.body?.cancel();

    // Without the session token every data route and stream refuses.
    for (const path of ["api/session", "api/overview", "api/spend?period=month", "api/events"]) {
      const res = await fetch(`${base}/${path}`);
      assert.equal(res.status, 401, path);
      await res.body?.cancel();
    }

    // Missing, wrong-origin and good codes; a code works once.
    const missing = await login(undefined);
    assert.deepEqual([missing.status, await missing.json()], [401, { error: "code_invalid" }]);
    const code = await cd.code();
    const foreign = await login(code, { origin: "https://evil.example" });
    assert.equal(foreign.status, 403);
    await foreign.body?.cancel();
    const noOrigin = await login(code, {});
    assert.equal(noOrigin.status, 403);
    await noOrigin.body?.cancel();
    const good = await login(code);
    const session = await good.json() as { token: string; csrf: string; lang: string };
    assert.equal(good.status, 200, JSON.stringify(session));
    assert.equal(good.headers.get("set-cookie"), null);
    assert.match(session.token, /^[\w-]{43}\.[0-9a-z]+\.[\w-]{43}$/);
    const reused = await login(code);
    assert.deepEqual([reused.status, await reused.json()], [401, { error: "code_invalid" }]);
    const auth = { "x-agent-session": session.token };
    // The token as a cookie (what a browser would send to any port) is no session.
    for (const cookie of [`agent_dashboard=${session.token}`, `x-agent-session=${session.token}`]) {
      const res = await fetch(`${base}/api/session`, { headers: { cookie } });
      assert.deepEqual([res.status, await res.json()], [401, { error: "unauthorized" }]);
    }

    // With the token: the session, the Overview's and the Spend page's data.
    const read = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/api/${path}`, { headers: { ...auth, ...headers } });
    const again = await (await read("session")).json() as { csrf: string };
    assert.equal(again.csrf, session.csrf);
    const overview = await (await read("overview")).json() as {
      status: { pid: number; spend: unknown };
      events: unknown[];
    };
    assert.equal(typeof overview.status.pid, "number");
    assert.ok(overview.status.spend !== undefined);
    assert.ok(Array.isArray(overview.events));
    const spend = await read("spend?period=month");
    assert.equal(spend.status, 200);
    const report = await spend.json() as { period: string };
    assert.equal(report.period, "month");

    // Another origin can neither read nor act, even with the token.
    const crossRead = await read("overview", { origin: "https://evil.example" });
    assert.equal(crossRead.status, 403);
    await crossRead.body?.cancel();
    const crossSite = await read("overview", { "sec-fetch-site": "cross-site" });
    assert.equal(crossSite.status, 403);
    await crossSite.body?.cancel();
    const send = (headers: Record<string, string>, text = "Hi from the browser") =>
      fetch(`${base}/api/chat/send`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", ...headers },
        body: JSON.stringify({ text }),
      });
    for (
      const headers of [
        { origin: "https://evil.example", "x-csrf-token": session.csrf },
        { origin, "x-csrf-token": session.csrf, "sec-fetch-site": "same-site" },
        { "x-csrf-token": session.csrf },
      ]
    ) {
      const res = await send(headers);
      assert.deepEqual([res.status, await res.json()], [403, { error: "forbidden" }]);
    }
    const noCsrf = await send({ origin });
    assert.deepEqual([noCsrf.status, await noCsrf.json()], [403, { error: "csrf" }]);
    // The spine names the origin it was reached at; a browser cannot claim another.
    const claimed = await read("overview", {
      origin: "https://evil.example",
      "x-agent-dashboard-origin": "https://evil.example",
    });
    assert.equal(claimed.status, 403);
    await claimed.body?.cancel();
    // At the brain's port, even with the token, only the spine's own origin is answered.
    const otherName = await fetch(`http://127.0.0.1:${cd.brainPort}/hub/dashboard/api/session`, {
      headers: {
        ...auth,
        authorization: `Bearer ${CLOUD_TOKEN}`,
        "x-agent-dashboard-origin": "https://other.example",
      },
    });
    assert.equal(otherName.status, 403);
    await otherName.body?.cancel();

    // The desk's event stream passes through the spine unbuffered: the answer to a line
    // sent from the page arrives on it while the stream stays open.
    const stream = await read("desk", { accept: "text/event-stream" });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get("content-type") ?? "", /^text\/event-stream/);
    const desk = streamText(stream);
    try {
      // The stream's opening line arrives before anything else happens: not held back.
      await desk.until((t) => t.includes(": connected"), 10_000);
      const sent = await send({ origin, "x-csrf-token": session.csrf });
      const { session: chat } = await sent.json() as { session: string };
      assert.equal(sent.status, 200);
      assert.match(chat, /^web-/);
      const text = await desk.until((t) => t.includes(`"reply":"${REPLY}"`));
      assert.match(text, new RegExp(`"conversation":"web:${chat}"`));
      assert.match(text, /"type":"TEXT_MESSAGE_CONTENT"/);
    } finally {
      await desk.close();
    }
    // Its spend shows on the Spend page's data, through the spine.
    const after = await (await read("spend?period=day")).json() as {
      session: { session_id?: string; calls?: number }[];
      total: { calls: number };
    };
    assert.ok(after.total.calls >= 1, JSON.stringify(after.total));
    assert.ok(
      after.session.some((row) => row.session_id?.startsWith("web-")),
      JSON.stringify(after.session),
    );

    // The owner-event stream opens through the spine too.
    const events = await read("events");
    assert.equal(events.status, 200);
    assert.match(events.headers.get("content-type") ?? "", /^text\/event-stream/);
    await events.body?.cancel();

    // The container sleeps and starts again: the session is still good.
    await cd.restartBrain();
    const resumed = await read("session");
    assert.equal(resumed.status, 200);
    assert.equal((await resumed.json() as { csrf: string }).csrf, session.csrf);

    // Signing out ends the session.
    const out = await fetch(`${base}/api/logout`, {
      method: "POST",
      headers: { ...auth, origin, "x-csrf-token": session.csrf },
    });
    assert.deepEqual([out.status, await out.json()], [200, { ok: true }]);
    const gone = await read("overview");
    assert.equal(gone.status, 401);
    await gone.body?.cancel();
  },
});

Deno.test({
  name: "agent dashboard --cloud --no-open: prints the spine's dashboard address with a fresh code",
  ...SLOW,
  async fn() {
    const cd = await cloudDashboard();
    const run = await agent(["--home", cd.home, "dashboard", "--cloud", "--no-open"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^Asking the cloud spine for a sign-in code/);
    assert.match(run.stdout, /^Open this address in a browser \(it works once, within 60 s\):\n/);
    const url = new RegExp(
      `^${cd.spine.url.replace(/[.]/g, "\\.")}/hub/dashboard/#code=([A-Za-z0-9_-]{43})$`,
      "m",
    ).exec(run.stdout);
    assert.ok(url, run.stdout);
    assert.ok(!run.stdout.includes(CLOUD_TOKEN) && !run.stderr.includes(CLOUD_TOKEN));
    const origin = new URL(cd.spine.url).origin;
    const res = await fetch(`${cd.spine.url}/hub/dashboard/api/login`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ code: url[1] }),
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();

    // A wrong token: one sentence, exit 1, the token not shown.
    const wrong = await agent(["--home", cd.home, "dashboard", "--cloud", "--no-open"], {
      env: { AGENT_SPINE_TOKEN: "not-the-token" },
    });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /answered HTTP 401 unauthorized to POST \/hub\/dashboard\/code\./);
    assert.ok(!wrong.stderr.includes("not-the-token"));
    // Without the spine's variables: tests/dashboard/dashboard_cli_test.ts (exit 2, no spine needed).
  },
});
