import assert from "node:assert/strict";
import { retryOn429 } from "./telegram_limits.ts";

const TOO_MANY = {
  ok: false,
  error_code: 429,
  description: "Too Many Requests: retry after 60",
  parameters: { retry_after: 60 },
};

/** A Bot API call that answers 429 (retry after 60 s) every time, counting calls. */
function refusing() {
  let calls = 0;
  const prev = () => {
    calls++;
    return Promise.resolve(TOO_MANY);
  };
  return { prev: prev as never, calls: () => calls };
}

Deno.test("retryOn429() ends a 60-second wait when the channel stops, and tries no more", async () => {
  const stop = new AbortController();
  const api = refusing();
  const call = retryOn429({ stop: stop.signal })(api.prev, "sendMessage", {} as never);
  await new Promise((r) => setTimeout(r, 30));
  const at = performance.now();
  stop.abort();
  const response = await call;
  // Not the 60 s wait; the bound leaves room for files running side by side.
  assert.ok(performance.now() - at < 1_000, `ended after ${performance.now() - at} ms`);
  // The caller sees Telegram's refusal: the text was not sent.
  assert.equal(response.ok, false);
  assert.equal((response as typeof TOO_MANY).error_code, 429);
  assert.equal(api.calls(), 1);
});

Deno.test("retryOn429() ends the wait on the call's own signal too", async () => {
  const call = new AbortController();
  const api = refusing();
  const pending = retryOn429()(api.prev, "sendMessage", {} as never, call.signal as never);
  await new Promise((r) => setTimeout(r, 30));
  call.abort();
  assert.equal((await pending).ok, false);
  assert.equal(api.calls(), 1);
});

Deno.test("retryOn429() waits nothing once the channel has stopped", async () => {
  const stop = new AbortController();
  stop.abort();
  const api = refusing();
  const at = performance.now();
  await retryOn429({ stop: stop.signal })(api.prev, "sendMessage", {} as never);
  assert.ok(performance.now() - at < 1_000);
  assert.equal(api.calls(), 1);
});

Deno.test("retryOn429() waits out a short retry_after and makes the call again", async () => {
  const answers = [{ ...TOO_MANY, parameters: { retry_after: 0 } }, { ok: true, result: true }];
  let calls = 0;
  const prev = () => {
    calls++;
    return Promise.resolve(answers.shift()!);
  };
  const response = await retryOn429()(prev as never, "sendMessage", {} as never);
  assert.equal(response.ok, true);
  assert.equal(calls, 2);
});
