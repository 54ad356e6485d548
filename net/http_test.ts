import assert from "node:assert/strict";
import {
  errorResponse,
  HttpError,
  isJsonContentType,
  methodNotAllowed,
  parseJsonBody,
  readCapped,
  readRequestBody,
} from "./http.ts";

function stream(...chunks: string[]): ReadableStream<Uint8Array> {
  return ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c)));
}

Deno.test("errorResponse() turns an HttpError into {error, detail?} with its headers", async () => {
  const r = errorResponse(
    new HttpError(426, "upgrade_required", { headers: { Upgrade: "websocket" } }),
  );
  assert.deepEqual(r.status, 426);
  assert.deepEqual(r.headers.get("upgrade"), "websocket");
  assert.deepEqual(await r.json(), { error: "upgrade_required" });
  const bad = errorResponse(new HttpError(400, "bad_request", { detail: "'payload' is missing" }));
  assert.deepEqual(await bad.json(), { error: "bad_request", detail: "'payload' is missing" });
});

Deno.test("errorResponse() answers 500 internal for anything else and logs only the message", async () => {
  const lines: string[] = [];
  const r = errorResponse(new Error("disk on fire"), (l) => lines.push(l));
  assert.deepEqual([r.status, await r.json()], [500, { error: "internal" }]);
  assert.deepEqual(lines, ["internal: disk on fire"]);
});

Deno.test("methodNotAllowed() throws 405 with an Allow header", () => {
  try {
    methodNotAllowed(["GET", "HEAD"]);
    assert.ok(false);
  } catch (error) {
    assert.ok(error instanceof HttpError);
    assert.deepEqual([error.status, error.code, error.headers], [405, "method_not_allowed", {
      Allow: "GET, HEAD",
    }]);
  }
});

Deno.test("readCapped() reads up to the limit and throws 413 too_large past it", async () => {
  assert.deepEqual(new TextDecoder().decode(await readCapped(stream("ab", "cd"), 4)), "abcd");
  await assert.rejects(
    readCapped(stream("ab", "cde"), 4),
    (e: unknown) => e instanceof HttpError && e.code === "too_large",
  );
  // A declared length far over the limit (past the 1 MiB drain) fails unread.
  let pulled = false;
  const body = new ReadableStream<Uint8Array>({
    pull() {
      pulled = true;
    },
  });
  await assert.rejects(
    readCapped(body, 4, String(4 + 1024 * 1024 + 1)),
    (e: unknown) => e instanceof HttpError && e.status === 413,
  );
  assert.deepEqual(pulled, false);
  // A little over: the declared body is read to its end (the connection stays clean).
  const parts = ["ab", "cd", "e"];
  let finished = false;
  const over = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = parts.shift();
      if (part === undefined) {
        finished = true;
        return controller.close();
      }
      controller.enqueue(new TextEncoder().encode(part));
    },
  });
  await assert.rejects(
    readCapped(over, 4, "5"),
    (e: unknown) => e instanceof HttpError && e.status === 413,
  );
  assert.deepEqual(finished, true);
  assert.deepEqual((await readCapped(null, 4)).length, 0);
});

Deno.test("readRequestBody() reads a declared body whole and still enforces the limit", async () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://spine.test/net/inbox", { method: "POST", body, headers });
  const text = async (r: Request) => new TextDecoder().decode(await readRequestBody(r, 4));
  assert.deepEqual(await text(post("abcd", { "content-length": "4" })), "abcd");
  // Without a length the body is streamed and cut off past the limit.
  assert.deepEqual(await text(post(stream("ab", "cd"))), "abcd");
  for (
    const request of [
      post("abcde", { "content-length": "5" }),
      post(stream("ab", "cde")),
      // A declared length that lies (only possible outside a real HTTP server).
      post("abcdefgh", { "content-length": "4" }),
    ]
  ) {
    await assert.rejects(
      readRequestBody(request, 4),
      (e: unknown) => e instanceof HttpError && e.code === "too_large",
    );
  }
});

Deno.test("isJsonContentType() accepts application/json with parameters, in any case", () => {
  for (
    const ok of ["application/json", "application/json; charset=utf-8", " Application/JSON ;x=y"]
  ) {
    assert.ok(isJsonContentType(ok), ok);
  }
  for (const bad of [null, "", "text/plain", "application/json-patch+json", "application/jsonx"]) {
    assert.ok(!isJsonContentType(bad), String(bad));
  }
});

Deno.test("parseJsonBody() throws 400 bad_request for bytes that are not UTF-8 JSON", () => {
  assert.deepEqual(parseJsonBody(new TextEncoder().encode('{"a":1}')), { a: 1 });
  for (const bytes of [new TextEncoder().encode("{"), new Uint8Array([0xff, 0xfe])]) {
    try {
      parseJsonBody(bytes);
      assert.ok(false);
    } catch (error) {
      assert.ok(error instanceof HttpError && error.code === "bad_request" && error.detail);
    }
  }
});

Deno.test("readCapped() drains a slightly oversize stream before its 413, and cuts off a huge one", async () => {
  const counted = (chunks: number, size: number) => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === chunks) return controller.close();
        sent++;
        controller.enqueue(new Uint8Array(size));
      },
    });
    return { body, sent: () => sent };
  };
  // 3 x 40 KiB against 64 KiB: every byte is taken, so the client can read the 413.
  const small = counted(3, 40_960);
  await assert.rejects(
    readCapped(small.body, 65_536),
    (e: unknown) => e instanceof HttpError && e.status === 413,
  );
  assert.deepEqual(small.sent(), 3);
  // 64 x 64 KiB (4 MiB): reading stops about 1 MiB past the limit.
  const huge = counted(64, 65_536);
  await assert.rejects(
    readCapped(huge.body, 65_536),
    (e: unknown) => e instanceof HttpError && e.status === 413,
  );
  assert.ok(huge.sent() < 64 && huge.sent() >= 17, `read ${huge.sent()} chunks`);
});
