// The protocol library inside workerd (Miniflare): the committed vectors, the strict
// b64u decoder's fallback path, Web Crypto Ed25519/X25519/HKDF and the all-zero check.

import assert from "node:assert/strict";
import { bundleWorker, startMiniflare, stopMiniflare } from "@agent/kit";

const ROOT = new URL("../../", import.meta.url).pathname;

async function bundleNetWorker(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "agent-net-worker-" });
  try {
    return await bundleWorker(
      new URL("./_worker.ts", import.meta.url).pathname,
      `${dir}/worker.js`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("net/ runs inside workerd and reproduces the vectors", async () => {
  Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
  const mf = startMiniflare({
    modules: true,
    script: await bundleNetWorker(),
    compatibilityDate: "2026-04-20",
    cf: false,
  });
  try {
    const vectors = await Deno.readTextFile(`${ROOT}net/testdata/vectors.json`);
    const response = await mf.dispatchFetch("http://localhost/", { method: "POST", body: vectors });
    const result = await response.json() as Record<string, unknown>;
    assert.equal(response.status, 200, JSON.stringify(result));
    assert.deepEqual(result, {
      sign_key: true,
      box_key: true,
      env: true,
      envelope_sig: true,
      envelope_verify: true,
      short_sig_false: true,
      box_ct: true,
      box_open: true,
      zero_epk_rejected: true,
      fresh_round_trip: true,
      padded_parse: true,
      verify_and_open: true,
      bad_detail: "the payload is missing 'v'",
      universe_sig: true,
      universe_verify: true,
      universe_parse: true,
      card: true,
    });
  } finally {
    await stopMiniflare(mf);
  }
});
