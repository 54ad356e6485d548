/**
 * A hostile spine: a real local HTTP server answering every way a spine, a proxy in
 * front of it or a broken network can, and what {@linkcode SpineHttp} makes of each.
 * Every failure is one {@linkcode SpineError} with the right status, code and
 * retry-after, and a one-line sentence without the token or the body's HTML.
 */
import assert from "node:assert/strict";
import { SpineError, SpineHttp, type SpineHttpOptions, type SpineRequest } from "./mod.ts";
import { freePort } from "../../tests/_port.ts";

/** A token the hostile spine tries to get repeated (it matches the code pattern). */
const TOKEN = "tok_hostile_0123456789abcdef";

const HTML = "<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>";

type Handler = (req: Request) => Response | Promise<Response>;

/** A loopback server whose answer each case sets; it records what it was asked. */
function hostileSpine() {
  let handler: Handler = () => new Response();
  const seen: { path: string; authorization: string | null; accept: string | null }[] = [];
  const hanging = Promise.withResolvers<void>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
    onError: () => new Response(null, { status: 500 }),
  }, (req) => {
    const url = new URL(req.url);
    seen.push({
      path: url.pathname,
      authorization: req.headers.get("authorization"),
      accept: req.headers.get("accept"),
    });
    return handler(req);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    /** Resolves when the spine is closed: an answer that never comes until then. */
    hanging: hanging.promise,
    answer(next: Handler) {
      handler = next;
    },
    async close() {
      hanging.resolve();
      await server.shutdown();
    },
  };
}

/**
 * A raw TCP server that sends a status line, headers promising 4 KiB and a little of
 * the body, then closes: a connection reset in the middle of the answer (an HTTP server
 * cannot be made to do that through its own API).
 */
function cuttingServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const done = (async () => {
    for await (const conn of listener) {
      const buffer = new Uint8Array(4096);
      await conn.read(buffer).catch(() => null);
      const head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n" +
        "content-length: 4096\r\n\r\n" + '{"updates": [{"seq": 1,';
      await conn.write(new TextEncoder().encode(head)).catch(() => 0);
      conn.close();
    }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    async close() {
      listener.close();
      await done.catch(() => {});
    },
  };
}

/** Runs the request and returns the error it must fail with, checked for its shape. */
async function failure(
  url: string,
  path: string,
  request: SpineRequest = {},
  options: SpineHttpOptions = {},
): Promise<SpineError> {
  const http = new SpineHttp(url, { token: TOKEN, ...options });
  const error = await http.request(path, request).then(
    (answer) => assert.fail(`expected a SpineError, got ${JSON.stringify(answer.body)}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SpineError, String(error));
  assert.equal(error.name, "SpineError");
  const what = request.what ?? `${request.method ?? "GET"} ${path.split("?")[0]}`;
  assert.equal(error.message, `${what}: ${error.detail}`);
  assert.ok(!error.message.includes(TOKEN), error.message);
  assert.ok(!/[<>\n]/.test(error.message), error.message);
  assert.ok(error.detail.length > 0);
  return error;
}

/** The parts a caller branches on. */
const shape = (e: SpineError) => ({ status: e.status, code: e.code, retryAfterMs: e.retryAfterMs });

Deno.test("SpineHttp.request() maps every answer of a hostile spine to one SpineError", async (t) => {
  const spine = hostileSpine();
  try {
    await t.step("a 5xx with an HTML body: the status, no code, no HTML", async () => {
      spine.answer(() =>
        new Response(HTML, { status: 502, headers: { "content-type": "text/html" } })
      );
      const e = await failure(spine.url, "/hub/health");
      assert.deepEqual(shape(e), { status: 502, code: "", retryAfterMs: undefined });
      assert.equal(e.message, "GET /hub/health: HTTP 502");
      assert.equal(e.transient, true);
    });

    await t.step("a 200 that is not JSON", async () => {
      spine.answer(() =>
        new Response("hello there", { headers: { "content-type": "application/json" } })
      );
      const e = await failure(spine.url, "/hub/health");
      assert.deepEqual(shape(e), { status: 200, code: "not_json", retryAfterMs: undefined });
      assert.equal(e.detail, "the answer is not JSON");
    });

    await t.step("a 200 with truncated JSON", async () => {
      spine.answer(() =>
        new Response('{"updates": [{"seq": 1, "envel', {
          headers: { "content-type": "application/json; charset=utf-8" },
        })
      );
      const e = await failure(spine.url, "/hub/updates?after=0&timeout=0&limit=50");
      assert.deepEqual(shape(e), { status: 200, code: "not_json", retryAfterMs: undefined });
      assert.ok(e.message.startsWith("GET /hub/updates: "), e.message);
    });

    await t.step(
      "a 200 with JSON under the wrong content type (a captive portal, a proxy)",
      async () => {
        spine.answer(() =>
          new Response('{"ok": true}', { headers: { "content-type": "text/html; charset=utf-8" } })
        );
        const e = await failure(spine.url, "/hub/health");
        assert.deepEqual(shape(e), { status: 200, code: "not_json", retryAfterMs: undefined });
        assert.equal(e.detail, "the answer is not JSON (text/html)");
        // A content type that is itself hostile is not repeated.
        spine.answer(() =>
          new Response("{}", { headers: { "content-type": `text/${TOKEN}<b>; x=1` } })
        );
        assert.equal((await failure(spine.url, "/hub/health")).detail, "the answer is not JSON");
      },
    );

    await t.step("a body over the limit, read no further than the limit", async () => {
      let pulled = 0;
      spine.answer(() => {
        const chunk = new TextEncoder().encode(`"${"x".repeat(65_534)}"`);
        const endless = new ReadableStream<Uint8Array>({
          pull(c) {
            pulled += chunk.byteLength;
            c.enqueue(chunk);
          },
        });
        return new Response(endless, { headers: { "content-type": "application/json" } });
      });
      const e = await failure(spine.url, "/hub/state/net.log", {}, { maxBytes: 256 * 1024 });
      assert.deepEqual(shape(e), {
        status: 200,
        code: "answer_too_large",
        retryAfterMs: undefined,
      });
      assert.equal(e.detail, "the answer is over 256 KiB");
      assert.ok(pulled < 64 * 1024 * 1024, `the client kept reading: ${pulled} bytes`);
    });

    for (
      const [status, code] of [
        [401, "unauthorized"],
        [403, "bad_signature"],
        [404, "not_found"],
        [409, "exists"],
        [413, "too_large"],
      ] as const
    ) {
      await t.step(`${status} with and without the spec's {error} body`, async () => {
        spine.answer(() => Response.json({ error: code }, { status }));
        let e = await failure(spine.url, "/hub/sessions", { method: "POST", json: {} });
        assert.deepEqual(shape(e), { status, code, retryAfterMs: undefined });
        assert.equal(e.message, `POST /hub/sessions: HTTP ${status} ${code}`);
        assert.equal(e.transient, false);
        spine.answer(() => new Response(null, { status }));
        e = await failure(spine.url, "/hub/sessions", { method: "POST", json: {} });
        assert.deepEqual(shape(e), { status, code: "", retryAfterMs: undefined });
        assert.equal(e.message, `POST /hub/sessions: HTTP ${status}`);
        spine.answer(() =>
          new Response(HTML, { status, headers: { "content-type": "text/html" } })
        );
        e = await failure(spine.url, "/hub/sessions", { method: "POST", json: {} });
        assert.deepEqual(shape(e), { status, code: "", retryAfterMs: undefined });
      });
    }

    await t.step("an {error} that is not a code, or repeats the token, is left out", async () => {
      for (const error of [TOKEN, `x ${TOKEN}`, "<b>bad</b>", "Bad Thing", 42, "a".repeat(80)]) {
        spine.answer(() => Response.json({ error }, { status: 400 }));
        const e = await failure(spine.url, "/hub/card", { method: "PUT", json: {} });
        assert.deepEqual(shape(e), { status: 400, code: "", retryAfterMs: undefined });
      }
    });

    await t.step("429 with Retry-After in seconds", async () => {
      spine.answer(() =>
        Response.json({ error: "rate_limited" }, { status: 429, headers: { "retry-after": "7" } })
      );
      const e = await failure(spine.url, "/net/inbox", { method: "POST", json: {} });
      assert.deepEqual(shape(e), { status: 429, code: "rate_limited", retryAfterMs: 7000 });
      assert.equal(e.message, "POST /net/inbox: HTTP 429 rate_limited (retry after 7 s)");
      assert.equal(e.transient, true);
    });

    await t.step("429 with Retry-After as an HTTP date", async () => {
      const at = new Date(Date.now() + 30_000).toUTCString();
      spine.answer(() =>
        Response.json({ error: "rate_limited" }, { status: 429, headers: { "retry-after": at } })
      );
      const e = await failure(spine.url, "/net/inbox", { method: "POST", json: {} });
      assert.equal(e.status, 429);
      assert.ok(
        e.retryAfterMs !== undefined && e.retryAfterMs > 25_000 && e.retryAfterMs <= 30_000,
        String(e.retryAfterMs),
      );
    });

    await t.step("429 without Retry-After (or with one that says nothing)", async () => {
      spine.answer(() => Response.json({ error: "rate_limited" }, { status: 429 }));
      let e = await failure(spine.url, "/net/inbox", { method: "POST", json: {} });
      assert.deepEqual(shape(e), { status: 429, code: "rate_limited", retryAfterMs: undefined });
      assert.equal(e.message, "POST /net/inbox: HTTP 429 rate_limited");
      spine.answer(() =>
        Response.json({ error: "rate_limited" }, {
          status: 429,
          headers: { "retry-after": "later" },
        })
      );
      e = await failure(spine.url, "/net/inbox", { method: "POST", json: {} });
      assert.equal(e.retryAfterMs, undefined);
    });

    await t.step("503 with Retry-After and no body: the wait is kept", async () => {
      spine.answer(() => new Response(null, { status: 503, headers: { "retry-after": "120" } }));
      const e = await failure(spine.url, "/hub/brain");
      assert.deepEqual(shape(e), { status: 503, code: "", retryAfterMs: 120_000 });
      assert.equal(e.transient, true);
    });

    await t.step("a redirect is not followed, so the token goes nowhere else", async () => {
      spine.answer((req) =>
        new URL(req.url).pathname === "/elsewhere"
          ? Response.json({ ok: true })
          : Response.redirect(`${spine.url}/elsewhere`, 302)
      );
      const before = spine.seen.length;
      const e = await failure(spine.url, "/hub/health");
      assert.deepEqual(shape(e), { status: 302, code: "", retryAfterMs: undefined });
      assert.equal(e.detail, "HTTP 302 (a redirect, not followed)");
      assert.deepEqual(spine.seen.slice(before).map((s) => s.path), ["/hub/health"]);
    });

    await t.step("a spine that accepts and never answers: a timeout", async () => {
      spine.answer(async () => {
        await spine.hanging;
        return new Response(null, { status: 504 });
      });
      const started = Date.now();
      const e = await failure(spine.url, "/hub/health", {}, { timeoutMs: 300 });
      assert.deepEqual(shape(e), { status: 0, code: "timeout", retryAfterMs: undefined });
      assert.equal(e.detail, "timed out after 0.3 s");
      assert.ok(Date.now() - started < 5_000);
      assert.equal(e.transient, true);
    });

    await t.step(
      "a spine that sends its headers and then stalls: a timeout with the status",
      async () => {
        spine.answer(() => {
          const stalled = new ReadableStream<Uint8Array>({
            start(c) {
              c.enqueue(new TextEncoder().encode('{"updates": ['));
            },
          });
          return new Response(stalled, { headers: { "content-type": "application/json" } });
        });
        const e = await failure(spine.url, "/hub/updates", {}, { timeoutMs: 300 });
        assert.deepEqual(shape(e), { status: 200, code: "timeout", retryAfterMs: undefined });
      },
    );

    await t.step("the caller giving up: aborted", async () => {
      spine.answer(async () => {
        await spine.hanging;
        return new Response(null, { status: 504 });
      });
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 50);
      const e = await failure(spine.url, "/hub/updates", { signal: stop.signal });
      assert.deepEqual(shape(e), { status: 0, code: "aborted", retryAfterMs: undefined });
    });

    await t.step("every request carried the token, and asked for JSON", () => {
      assert.ok(spine.seen.length > 10);
      for (const s of spine.seen) {
        assert.equal(s.authorization, `Bearer ${TOKEN}`);
        assert.equal(s.accept, "application/json");
      }
    });
  } finally {
    await spine.close();
  }
});

Deno.test("SpineHttp.request() maps a connection reset in the middle of the answer to cut_off", async () => {
  const server = cuttingServer();
  try {
    const e = await failure(server.url, "/hub/updates");
    assert.deepEqual(shape(e), { status: 200, code: "cut_off", retryAfterMs: undefined });
    assert.equal(e.detail, "the connection broke in the middle of the answer");
    assert.equal(e.transient, true);
  } finally {
    await server.close();
  }
});

Deno.test("SpineHttp.request() maps a refused port to unreachable, status 0", async () => {
  const e = await failure(`http://127.0.0.1:${freePort()}`, "/hub/health");
  assert.deepEqual(shape(e), { status: 0, code: "unreachable", retryAfterMs: undefined });
  assert.equal(e.message, "GET /hub/health: connection refused");
  assert.equal(e.transient, true);
});

Deno.test("SpineHttp.request() reads JSON, text or nothing, and takes the statuses asked for", async () => {
  const spine = hostileSpine();
  try {
    const http = new SpineHttp(`${spine.url}/`, { token: TOKEN });
    assert.equal(http.url, spine.url);
    spine.answer(() => Response.json({ ok: true }, { status: 201 }));
    assert.deepEqual((await http.request("/x", { method: "POST", json: { a: 1 } })).body, {
      ok: true,
    });
    spine.answer(() => new Response("plain text", { headers: { "content-type": "text/plain" } }));
    assert.equal((await http.request("/f", { answer: "text" })).body, "plain text");
    assert.equal((await http.request("/f", { answer: "none" })).body, undefined);
    // 404 asked for: an answer (its body dropped), not an error; 409 not asked for: an error.
    spine.answer(() => Response.json({ error: "not_found" }, { status: 404 }));
    assert.deepEqual(
      { ...(await http.request("/s", { expect: [200, 404] })), headers: undefined },
      { status: 404, body: undefined, headers: undefined },
    );
    spine.answer(() => Response.json({ error: "exists" }, { status: 409 }));
    await assert.rejects(http.request("/s", { expect: [200, 404] }), SpineError);
    // A 2xx not asked for is an error too.
    spine.answer(() => Response.json({ ok: true }, { status: 200 }));
    await assert.rejects(
      http.request("/s", { expect: [201] }),
      (e) => e instanceof SpineError && e.status === 200,
    );
    // No token: no authorization header (a peer's public endpoints).
    const before = spine.seen.length;
    await new SpineHttp(spine.url).request("/.well-known/agent.json");
    assert.equal(spine.seen[before]?.authorization, null);
  } finally {
    await spine.close();
  }
});
