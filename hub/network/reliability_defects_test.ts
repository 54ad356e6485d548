import assert from "node:assert/strict";
import { INBOX_ANSWER_MAX, postEnvelope } from "./spine_client.ts";

Deno.test("postEnvelope() reads at most 8 KiB of a peer's answer: an endless body does not hang it", async () => {
  const controller = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: controller.signal,
    onListen() {},
  }, () => {
    const chunk = new TextEncoder().encode("x".repeat(65_536));
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(chunk) });
    return new Response(endless, { status: 202, headers: { "content-type": "application/json" } });
  });
  try {
    const started = Date.now();
    const delivery = await postEnvelope(`127.0.0.1:${server.addr.port}`, {
      payload: "e30",
      sig: "AA",
    }, {
      allowInsecure: true,
    });
    assert.equal(delivery, "queued");
    assert.ok(Date.now() - started < 5_000);
    assert.equal(INBOX_ANSWER_MAX, 8192);
  } finally {
    controller.abort();
    await server.finished;
  }
});
