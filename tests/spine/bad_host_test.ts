/**
 * A spine without ADDRESS takes its address from the request's host: a host that is not
 * an agent address is 400 `bad_request` with a detail, never a 500, and stores nothing.
 */
import assert from "node:assert/strict";
import { generateIdentity } from "@agent/net";
import { spineTest, TOKEN } from "./_setup.ts";

const BAD_HOSTS = ["foo_bar", "[::1]:18811", "a.com:0", "-a.com", "x..y"];

spineTest("a bad Host without ADDRESS is 400 bad_request, and PUT /hub/card stores nothing", {
  address: "",
}, async (spine) => {
  const me = await generateIdentity();
  // Miniflare's dispatchFetch takes the host from the URL it is given.
  const mf = spine.mf as unknown as {
    dispatchFetch(url: string, init?: RequestInit): Promise<Response>;
  };
  for (const host of BAD_HOSTS) {
    const card = await mf.dispatchFetch(`http://${host}/.well-known/agent.json`);
    assert.equal(card.status, 400, host);
    const body = await card.json() as { error: string; detail: string };
    assert.equal(body.error, "bad_request");
    assert.match(body.detail, /is not an agent address$/);
    const put = await mf.dispatchFetch(`http://${host}/hub/card`, {
      method: "PUT",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bad", sign_key: me.signKey, box_key: me.boxKey }),
    });
    assert.equal(put.status, 400, host);
    await put.body?.cancel();
  }
  const health = await fetch(`${spine.url}/hub/health`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal((await health.json() as { card: boolean }).card, false);
});
