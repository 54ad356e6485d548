import assert from "node:assert/strict";
import { SpineDocuments } from "./spine_documents.ts";
import { NetState } from "./state.ts";

/** A local server with the spine's state routes (`/hub/state/<key>`, bearer token). */
function stateServer(token: string) {
  const values = new Map<string, unknown>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.headers.get("authorization") !== `Bearer ${token}`) {
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    const key = new URL(req.url).pathname.replace("/hub/state/", "");
    if (req.method === "PUT") {
      const body = await req.json() as { value: unknown };
      values.set(key, body.value);
      return Response.json({ key, updated_at: Date.now() });
    }
    if (!values.has(key)) return Response.json({ error: "not_found" }, { status: 404 });
    return Response.json({ key, value: values.get(key), updated_at: Date.now() });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, values, close: () => server.shutdown() };
}

Deno.test("SpineDocuments keeps the network documents under net.* state keys", async () => {
  const spine = stateServer("tok");
  try {
    const state = new NetState(new SpineDocuments(spine.url, "tok"));
    assert.deepEqual(await state.contacts(), []);
    await state.saveContact({
      address: "bob.example",
      name: "Bob",
      state: "pending_in",
      sign_key: "k",
      box_key: "b",
      note: "hi",
      created_at: 1,
      updated_at: 1,
    });
    await state.markSeen("bob.example", "AAAAAAAAAAAAAAAA");
    await state.appendLog({
      ts: 1,
      direction: "in",
      address: "bob.example",
      kind: "contact_request",
      id: "AAAAAAAAAAAAAAAA",
      thread: "AAAAAAAAAAAAAAAA",
      text: "hi",
    });
    await state.setCursor(7);
    assert.deepEqual(
      [...spine.values.keys()].sort(),
      ["net.contacts", "net.cursor", "net.log", "net.seen"],
    );
    assert.deepEqual((await state.contact("bob.example"))?.note, "hi");
    assert.ok(await state.seen("bob.example", "AAAAAAAAAAAAAAAA"));
    assert.deepEqual((await state.log()).length, 1);
    assert.deepEqual(await state.cursor(), 7);
    const wrong = new NetState(new SpineDocuments(spine.url, "nope"));
    await wrong.contacts().then(
      () => assert.ok(false),
      (e) => assert.ok(String(e).includes("401")),
    );
  } finally {
    await spine.close();
  }
});
