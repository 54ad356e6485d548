import assert from "node:assert/strict";
import { APICallError } from "@ai-sdk/provider";
import { retryDelay, retryThrottled, unreachableReason } from "../mod.ts";

function apiError(status: number | undefined, headers: Record<string, string> = {}, message = "x") {
  return new APICallError({
    message,
    url: "http://127.0.0.1/v1",
    requestBodyValues: {},
    ...(status !== undefined ? { statusCode: status } : {}),
    responseHeaders: headers,
  });
}

Deno.test("retryDelay() honours retry-after-ms, retry-after seconds and dates", () => {
  assert.deepEqual(retryDelay(apiError(429, { "retry-after-ms": "250" }), 1000), 250);
  assert.deepEqual(retryDelay(apiError(429, { "Retry-After": "2" }), 1000), 2000);
  const date = new Date(Date.now() + 5000).toUTCString();
  const fromDate = retryDelay(apiError(429, { "retry-after": date }), 1000);
  assert.deepEqual(fromDate > 3000 && fromDate <= 5000, true);
  assert.deepEqual(retryDelay(apiError(429), 1000), 1000);
});

Deno.test("retryThrottled() retries only 429, a few times, then gives up", async () => {
  let calls = 0;
  const out = await retryThrottled(() => {
    calls++;
    return calls < 3
      ? Promise.reject(apiError(429, { "retry-after": "0" }))
      : Promise.resolve("ok");
  });
  assert.deepEqual([out, calls], ["ok", 3]);

  calls = 0;
  const e503 = await retryThrottled(() => {
    calls++;
    return Promise.reject(apiError(503));
  }).catch((e) => e);
  assert.deepEqual([e503.statusCode, calls], [503, 1]);

  calls = 0;
  const tired = await retryThrottled(() => {
    calls++;
    return Promise.reject(apiError(429, { "retry-after-ms": "1" }));
  }, { attempts: 3 }).catch((e) => e);
  assert.deepEqual([tired.statusCode, calls], [429, 3]);

  calls = 0;
  const tooLong = await retryThrottled(() => {
    calls++;
    return Promise.reject(apiError(429, { "retry-after": "3600" }));
  }).catch((e) => e);
  assert.deepEqual([tooLong.statusCode, calls], [429, 1]);
});

Deno.test("unreachableReason() counts refusals and 5xx, never 429, 4xx or aborts", () => {
  assert.deepEqual(
    unreachableReason(apiError(undefined, {}, "Cannot connect: Connection refused")),
    "connection refused",
  );
  assert.deepEqual(unreachableReason(apiError(502)), "HTTP 502");
  assert.deepEqual(unreachableReason(apiError(529)), "HTTP 529");
  assert.deepEqual(unreachableReason(apiError(429)), undefined);
  assert.deepEqual(unreachableReason(apiError(404)), undefined);
  assert.deepEqual(unreachableReason(new DOMException("aborted", "AbortError")), undefined);
  assert.deepEqual(
    unreachableReason(
      new TypeError("fetch failed", {
        cause: new Error("tcp connect error: Connection refused (os error 111)"),
      }),
    ),
    "connection refused",
  );
});
