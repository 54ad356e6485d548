import assert from "node:assert/strict";
import { fetchCard, postEnvelope, SpineClient, SpineError } from "./spine_client.ts";

// RFC 8032's first test key: a real Ed25519 point (all-zero keys are refused as small-order).
const KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";

function serve(handler: (req: Request) => Response | Promise<Response>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { address: `127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("fetchCard() checks the address, refuses redirects and cards over 8 KiB", async () => {
  let answer: () => Response = () => new Response();
  const peer = serve(() => answer());
  try {
    const card = { v: 1, address: peer.address, name: "Bob", sign_key: KEY, box_key: KEY };
    answer = () => Response.json(card);
    assert.deepEqual((await fetchCard(peer.address, { allowInsecure: true })).name, "Bob");
    answer = () => Response.json({ ...card, address: "other.example" });
    await assert.rejects(fetchCard(peer.address, { allowInsecure: true }), SpineError);
    answer = () => Response.redirect("http://127.0.0.1:1/card.json", 302);
    await assert.rejects(
      fetchCard(peer.address, { allowInsecure: true }),
      (e) => e instanceof SpineError && e.status === 302,
    );
    answer = () => Response.json({ ...card, padding: "x".repeat(9000) });
    await assert.rejects(
      fetchCard(peer.address, { allowInsecure: true }),
      (e) => e instanceof SpineError && e.message.includes("8 KiB"),
    );
  } finally {
    await peer.close();
  }
});

Deno.test("postEnvelope() counts 202 and duplicate as delivered, anything else as an error", async () => {
  let answer: () => Response = () => new Response();
  const peer = serve(() => answer());
  const wire = { payload: "e30", sig: "AA" };
  try {
    answer = () => Response.json({ status: "queued", id: "x" }, { status: 202 });
    assert.deepEqual(await postEnvelope(peer.address, wire, { allowInsecure: true }), "queued");
    answer = () => Response.json({ status: "duplicate", id: "x" });
    assert.deepEqual(await postEnvelope(peer.address, wire, { allowInsecure: true }), "duplicate");
    answer = () => Response.json({ error: "rate_limited" }, { status: 429 });
    await assert.rejects(
      postEnvelope(peer.address, wire, { allowInsecure: true }),
      (e) => e instanceof SpineError && e.code === "rate_limited" && e.status === 429,
    );
  } finally {
    await peer.close();
  }
});

Deno.test("SpineClient sends the bearer token and never puts it in errors", async () => {
  const seen: string[] = [];
  const spine = serve((req) => {
    seen.push(req.headers.get("authorization") ?? "");
    return Response.json({ error: "unauthorized" }, { status: 401 });
  });
  try {
    const client = new SpineClient(`http://${spine.address}/`, "secret-token-value");
    const error = await client.health().then(() => undefined, (e) => e as SpineError);
    assert.ok(error instanceof SpineError);
    assert.deepEqual([error.status, error.code], [401, "unauthorized"]);
    assert.ok(!error.message.includes("secret-token-value"));
    assert.deepEqual(seen, ["Bearer secret-token-value"]);
    assert.deepEqual(client.wsUrl, `ws://${spine.address}/hub/ws`);
  } finally {
    await spine.close();
  }
});

Deno.test("fetchCard() reads padded keys without padding and refuses small-order keys", async () => {
  let answer: () => Response = () => new Response();
  const peer = serve(() => answer());
  try {
    const card = { v: 1, address: peer.address, name: "Bob", sign_key: KEY, box_key: KEY };
    answer = () => Response.json({ ...card, sign_key: `${KEY}=`, box_key: `${KEY}=` });
    const got = await fetchCard(peer.address, { allowInsecure: true });
    assert.deepEqual([got.sign_key, got.box_key], [KEY, KEY]);
    for (const field of ["sign_key", "box_key"]) {
      answer = () => Response.json({ ...card, [field]: "A".repeat(43) });
      await assert.rejects(
        fetchCard(peer.address, { allowInsecure: true }),
        (e) => e instanceof SpineError && String(e.detail).includes(`'${field}' is a small-order`),
      );
    }
  } finally {
    await peer.close();
  }
});
