import assert from "node:assert/strict";
import {
  controlHandler,
  type ControlSources,
  isLoopbackHost,
  isLoopbackOrigin,
} from "./handler.ts";
import { hasBearer, readHubToken, removeHubToken, writeHubToken } from "./token.ts";

const TOKEN = "s3cret-token";

function sources(overrides: Partial<ControlSources> = {}): ControlSources {
  return {
    pid: 42,
    version: "0.1.0",
    startedAt: 0,
    home: "/h",
    dataDir: "/h/data",
    port: 8790,
    token: TOKEN,
    now: () => 1000,
    heartbeatAt: () => 1000,
    spend: () => ({}),
    spendBy: () => ({ by: "day", rows: [] }) as never,
    net: () => ({ configured: false }),
    events: () => Promise.resolve([]),
    routes: () => ({
      "/messenger/webhook": () => Promise.resolve(new Response("hook")),
    }),
    ...overrides,
  };
}

const GUARDED = ["/status", "/spend", "/spend?by=day", "/net", "/net/events?after=0"];

Deno.test("controlHandler() answers 401 unauthorized on every route but /health without the bearer token", async () => {
  const handle = controlHandler(sources());
  const wrong = [
    {},
    { authorization: "Bearer nope" },
    { authorization: `Basic ${TOKEN}` },
    { authorization: `Bearer ${TOKEN}x` },
    { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
    { authorization: "Bearer" },
  ];
  for (const path of GUARDED) {
    for (const headers of wrong) {
      const res = await handle(new Request(`http://127.0.0.1:8790${path}`, { headers }));
      assert.deepEqual([res.status, await res.json()], [401, { error: "unauthorized" }], path);
    }
    const ok = await handle(
      new Request(`http://127.0.0.1:8790${path}`, {
        headers: { authorization: `bearer ${TOKEN}` },
      }),
    );
    assert.equal(ok.status, 200, path);
    await ok.body?.cancel();
  }
  const events = await handle(new Request("http://127.0.0.1:8790/events"));
  assert.deepEqual([events.status, await events.json()], [401, { error: "unauthorized" }]);
});

Deno.test("controlHandler() keeps GET /health and the messenger's webhook open without the token", async () => {
  const handle = controlHandler(sources());
  const health = await handle(new Request("http://127.0.0.1:8790/health"));
  assert.equal(health.status, 200);
  assert.equal((await health.json() as { ok: boolean }).ok, true);
  const hook = await handle(
    new Request("http://127.0.0.1:8790/messenger/webhook", { method: "POST", body: "{}" }),
  );
  assert.deepEqual([hook.status, await hook.text()], [200, "hook"]);
});

const REFUSED_HOSTS = [
  "[::1",
  "[::1]evil.com",
  "[::1]:8790evil",
  "[::1]@evil.com",
  "[",
  "]",
  "[]",
  "[::2]",
  "[::ffff:127.0.0.1]",
  "localhost:80@evil",
  "localhost@evil",
  "localhost.evil.com",
  "localhost.",
  "evil.localhost",
  "127.0.0.1.nip.io",
  "127.0.0.1:8790:1",
  "127.0.0.2",
  "127.1",
  "0.0.0.0",
  "localhost:",
  "localhost:99999",
  "localhost:-1",
  "localhost:80/x",
  "evil.example",
  "evil.example:8790",
  "",
  "%6cocalhost",
];

const ACCEPTED_HOSTS = [
  "127.0.0.1",
  "127.0.0.1:8790",
  "localhost",
  "localhost:8790",
  "LocalHost:1",
  "[::1]",
  "[::1]:8790",
];

Deno.test("isLoopbackHost() accepts only exact loopback names with an optional port", () => {
  for (const host of ACCEPTED_HOSTS) assert.ok(isLoopbackHost(host), host);
  for (const host of REFUSED_HOSTS) assert.ok(!isLoopbackHost(host), host);
});

Deno.test("isLoopbackOrigin() accepts only http:// on a loopback host, never throws", () => {
  for (const origin of ["http://127.0.0.1:8790", "http://localhost", "http://[::1]:1"]) {
    assert.ok(isLoopbackOrigin(origin), origin);
  }
  for (
    const origin of [
      "null",
      "https://evil.example",
      "http://[::1",
      "http://localhost:80@evil",
      "http://localhost.evil",
      "file://",
      "",
      "http://127.0.0.1/x",
    ]
  ) {
    assert.ok(!isLoopbackOrigin(origin), origin);
  }
});

Deno.test("controlHandler() answers 403, never 500, to every refused Host form", async () => {
  const handle = controlHandler(sources());
  for (const host of REFUSED_HOSTS) {
    const res = await handle(
      new Request("http://127.0.0.1:8790/status", {
        headers: { host, authorization: `Bearer ${TOKEN}` },
      }),
    );
    assert.deepEqual([res.status, await res.json()], [403, { error: "forbidden" }], host);
  }
});

/** Sends raw HTTP/1.1 with `host` as the Host header; the status line's code. */
async function rawStatus(port: number, host: string, path = "/health"): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const head = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
    await conn.write(new TextEncoder().encode(head));
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(4096);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
    }
    const text = new TextDecoder().decode(
      chunks.reduce((a, b) => new Uint8Array([...a, ...b]), new Uint8Array()),
    );
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? "0");
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

Deno.test("the control API on a real socket answers 403 (not 500) to malformed and foreign Host headers", async () => {
  const logged: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    controlHandler(sources({ log: (line) => logged.push(line) })),
  );
  try {
    const port = server.addr.port;
    assert.equal(await rawStatus(port, `127.0.0.1:${port}`), 200);
    assert.equal(await rawStatus(port, `[::1]:${port}`), 200);
    for (const host of REFUSED_HOSTS.filter((h) => h !== "")) {
      assert.equal(await rawStatus(port, host), 403, host);
    }
    assert.deepEqual(logged, []);
  } finally {
    await server.shutdown();
  }
});

Deno.test("writeHubToken() writes a fresh 0600 token that hasBearer() checks, and removeHubToken() keeps a newer one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-hub-token-" });
  try {
    const file = `${dir}/data/hub.token`;
    assert.equal(await readHubToken(file), undefined);
    const first = await writeHubToken(file);
    assert.match(first, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(`${dir}/data`)).mode! & 0o777, 0o700);
    assert.equal(await readHubToken(file), first);
    const second = await writeHubToken(file);
    assert.notEqual(second, first);
    const req = new Request("http://127.0.0.1/", {
      headers: { authorization: `Bearer ${second}` },
    });
    assert.ok(hasBearer(req, second));
    assert.ok(!hasBearer(req, first));
    await removeHubToken(file, first); // an older hub stopping leaves the newer token
    assert.equal(await readHubToken(file), second);
    await removeHubToken(file, second);
    assert.equal(await readHubToken(file), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
