import assert from "node:assert/strict";
import { cookieValue, DashboardAuth } from "./auth.ts";

function auth(clock = { now: 1_000_000 }) {
  return new DashboardAuth({ cookieName: () => "agent_dashboard_8790", now: () => clock.now });
}

function withCookie(value: string): Request {
  return new Request("http://127.0.0.1:8790/dashboard/api/session", {
    headers: { cookie: `other=1; agent_dashboard_8790=${value}` },
  });
}

Deno.test("DashboardAuth.exchange() trades a code once for a session the cookie names", () => {
  const a = auth();
  const code = a.issueCode();
  const session = a.exchange(code);
  assert.ok(session);
  assert.equal(a.exchange(code), undefined, "a code works once");
  assert.equal(a.session(withCookie(session.id))?.csrf, session.csrf);
  assert.equal(a.session(withCookie("forged")), undefined);
  assert.match(
    a.cookie(session),
    /^agent_dashboard_8790=[\w-]+; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200$/,
  );
});

Deno.test("DashboardAuth.exchange() refuses a code after 60 s, and an unknown one; the code is gone after a try", () => {
  const clock = { now: 1_000_000 };
  const a = auth(clock);
  const late = a.issueCode();
  clock.now += 60_001;
  assert.equal(a.exchange(late), undefined);
  assert.equal(a.exchange("not-a-code"), undefined);
  assert.equal(a.exchange(""), undefined);
  const edge = a.issueCode();
  clock.now += 60_000;
  assert.ok(a.exchange(edge), "still good at exactly 60 s");
});

Deno.test("DashboardAuth sessions end after 12 h and on sign-out; the CSRF token must match", () => {
  const clock = { now: 1_000_000 };
  const a = auth(clock);
  const s = a.exchange(a.issueCode())!;
  const req = new Request("http://127.0.0.1/", { headers: { "x-csrf-token": s.csrf } });
  assert.ok(a.csrfMatches(req, s));
  assert.ok(!a.csrfMatches(new Request("http://127.0.0.1/"), s));
  clock.now += 12 * 3600_000 + 1;
  assert.equal(a.session(withCookie(s.id)), undefined);
  const t = a.exchange(a.issueCode())!;
  a.end(t);
  assert.equal(a.session(withCookie(t.id)), undefined);
});

Deno.test("DashboardAuth behind a cloud spine: the cookie is Secure and scoped to /hub/dashboard", () => {
  const a = new DashboardAuth({
    cookieName: () => "agent_dashboard",
    path: "/hub/dashboard",
    secure: true,
    now: () => 1_000_000,
  });
  const s = a.exchange(a.issueCode())!;
  assert.match(
    a.cookie(s),
    /^agent_dashboard=[\w-]+; Path=\/hub\/dashboard; HttpOnly; Secure; SameSite=Strict; Max-Age=43200$/,
  );
  assert.equal(
    a.clearCookie(),
    "agent_dashboard=; Path=/hub/dashboard; HttpOnly; Secure; SameSite=Strict; Max-Age=0",
  );
});

Deno.test("cookieValue() finds a cookie among others", () => {
  assert.equal(cookieValue("a=1; b=2", "b"), "2");
  assert.equal(cookieValue("a=1", "b"), undefined);
  assert.equal(cookieValue(null, "b"), undefined);
});

Deno.test("DashboardAuth with a signing key: a session outlives the process, not its expiry, its key or a sign-out", () => {
  const clock = { now: 1_000_000 };
  const make = (signingKey: string) =>
    new DashboardAuth({
      cookieName: () => "agent_dashboard",
      path: "/hub/dashboard",
      now: () => clock.now,
      signingKey,
    });
  const first = make("key-1");
  const s = first.exchange(first.issueCode())!;
  const cookie = (id: string) =>
    new Request("http://brain/hub/dashboard/api/session", {
      headers: { cookie: `agent_dashboard=${id}` },
    });
  // Another process with the same key (the brain after its container slept).
  const restarted = make("key-1");
  assert.equal(restarted.session(cookie(s.id))?.csrf, s.csrf);
  assert.notEqual(s.csrf, s.id.split(".")[0]);
  assert.equal(make("key-2").session(cookie(s.id)), undefined, "another key");
  const [random, expiry, mac] = s.id.split(".");
  const later = (Number.parseInt(expiry!, 36) + 3600_000).toString(36);
  assert.equal(restarted.session(cookie(`${random}.${later}.${mac}`)), undefined, "forged expiry");
  assert.equal(restarted.session(cookie("a.b.c")), undefined);
  restarted.end(restarted.session(cookie(s.id))!);
  assert.equal(restarted.session(cookie(s.id)), undefined, "signed out");
  const t = first.exchange(first.issueCode())!;
  clock.now += 12 * 3600_000 + 1;
  assert.equal(restarted.session(cookie(t.id)), undefined, "expired");
});
