/**
 * `GET /hub/ws` without an upgrade: 426 `upgrade_required` with `Upgrade: websocket`.
 *
 * workerd's HTTP server (the KJ HTTP library) treats `Upgrade`, like `Connection`, as a
 * connection-level header that only the server itself writes (for a 101): when it
 * serialises any other response it takes those header slots from its own values, never
 * from the Worker's. So over a socket the 426 arrives without the header the Worker
 * set. Inside workerd, through a service binding, the Worker's response is passed on
 * as it is, which shows the spine sets the header.
 */
import assert from "node:assert/strict";
import {
  type MiniflareOptions,
  SPINE_COMPATIBILITY_DATE,
  spineMiniflareOptions,
  startMiniflare,
  stopMiniflare,
} from "@agent/kit";
import { hub } from "./_fixtures.ts";
import { spineTest, TOKEN } from "./_setup.ts";
import { spineBundle } from "../_worker_bundle.ts";

// A Worker that calls the spine through a service binding and reports what it got.
const PROBE = `export default {
  async fetch(request, env) {
    const r = await env.SPINE.fetch("http://spine.example/hub/ws", {
      headers: { authorization: request.headers.get("authorization") },
    });
    return Response.json({ status: r.status, upgrade: r.headers.get("upgrade"), body: await r.json() });
  },
};`;

Deno.test({
  name: "hub: /hub/ws without an upgrade answers 426 upgrade_required with Upgrade: websocket",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const script = await spineBundle();
    const { host: _host, port: _port, cf: _cf, ...spine } = spineMiniflareOptions({
      script,
      port: 0,
      vars: { HUB_TOKEN: TOKEN, ADDRESS: "spine.example" },
    });
    const mf = startMiniflare(
      {
        cf: false,
        host: "127.0.0.1",
        port: 0,
        workers: [
          {
            name: "probe",
            modules: true,
            script: PROBE,
            compatibilityDate: SPINE_COMPATIBILITY_DATE,
            serviceBindings: { SPINE: "spine" },
          },
          { name: "spine", ...spine },
        ],
      } as unknown as MiniflareOptions,
    );
    try {
      const url = await mf.ready;
      const r = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.deepEqual(await r.json(), {
        status: 426,
        upgrade: "websocket",
        body: { error: "upgrade_required" },
      });
    } finally {
      await stopMiniflare(mf);
    }
  },
});

spineTest("hub: over a socket the 426 keeps its status and body", {}, async (spine) => {
  const r = await hub(spine.url, TOKEN, "/hub/ws");
  assert.deepEqual([r.status, r.body], [426, { error: "upgrade_required" }]);
});
