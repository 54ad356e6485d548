import assert from "node:assert/strict";
import { DashboardAuth } from "./auth.ts";

function auth(clock = { now: 1_000_000 }) {
  return new DashboardAuth({ now: () => clock.now });
}

function withToken(value: string): Request {
  return new Request("http://127.0.0.1:8790/dashboard/api/session", {
    headers: { "x-agent-session": value },
  });
}

Deno.test("DashboardAuth.exchange() trades a code once for a session the X-Agent-Session header names", () => {
  const a = auth();
  const code = a.issueCode();
  const session = a.exchange(code);
  assert.ok(session);
  assert.match(session.id, /^[\w-]{43}$/);
  assert.equal(a.exchange(code), undefined, "a code works once");
  assert.equal(a.session(withToken(session.id))?.csrf, session.csrf);
  assert.equal(a.session(withToken(` ${session.id} `))?.csrf, session.csrf);
  assert.equal(a.session(withToken("forged")), undefined);
  assert.equal(a.session(withToken("")), undefined);
});

Deno.test("DashboardAuth.session() names no session from a cookie, a query or a bearer token", () => {
  const a = auth();
  const { id } = a.exchange(a.issueCode())!;
  for (
    const request of [
      new Request("http://127.0.0.1:8790/dashboard/api/session", {
        headers: { cookie: `agent_dashboard_8790=${id}; agent_dashboard=${id}` },
      }),
      new Request(`http://127.0.0.1:8790/dashboard/api/session?session=${id}&token=${id}`),
      new Request("http://127.0.0.1:8790/dashboard/api/session", {
        headers: { authorization: `Bearer ${id}` },
      }),
    ]
  ) {
    assert.equal(a.session(request), undefined);
  }
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
  assert.equal(a.session(withToken(s.id)), undefined);
  const t = a.exchange(a.issueCode())!;
  a.end(t);
  assert.equal(a.session(withToken(t.id)), undefined);
});

Deno.test("DashboardAuth with a signing key: a session outlives the process, not its expiry, its key or a sign-out", () => {
  const clock = { now: 1_000_000 };
  const make = (signingKey: string) => new DashboardAuth({ now: () => clock.now, signingKey });
  const first = make("key-1");
  const s = first.exchange(first.issueCode())!;
  assert.match(s.id, /^[\w-]{43}\.[0-9a-z]+\.[\w-]{43}$/);
  // Another process with the same key (the brain after its container slept).
  const restarted = make("key-1");
  assert.equal(restarted.session(withToken(s.id))?.csrf, s.csrf);
  assert.notEqual(s.csrf, s.id.split(".")[0]);
  assert.equal(make("key-2").session(withToken(s.id)), undefined, "another key");
  const [random, expiry, mac] = s.id.split(".");
  const later = (Number.parseInt(expiry!, 36) + 3600_000).toString(36);
  assert.equal(
    restarted.session(withToken(`${random}.${later}.${mac}`)),
    undefined,
    "forged expiry",
  );
  assert.equal(restarted.session(withToken("a.b.c")), undefined);
  restarted.end(restarted.session(withToken(s.id))!);
  assert.equal(restarted.session(withToken(s.id)), undefined, "signed out");
  const t = first.exchange(first.issueCode())!;
  clock.now += 12 * 3600_000 + 1;
  assert.equal(restarted.session(withToken(t.id)), undefined, "expired");
});
