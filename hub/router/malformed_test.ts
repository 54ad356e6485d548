import assert from "node:assert/strict";
import { ModelRouter } from "../mod.ts";
import { config, workspace } from "../../tests/_models.ts";

/** A provider address that answers every request with `respond()`. */
function serve(respond: () => Response): { url: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.text();
    return respond();
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function sentenceFor(
  provider: "vendor-a" | "vendor-b",
  respond: () => Response,
): Promise<string | undefined> {
  const server = serve(respond);
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "${provider}"
model_id = "m-1"
[models.roles.brain.params]
base_url = "${server.url}/v1"
`);
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_A_API_KEY: "k", VENDOR_B_API_KEY: "k" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const error = await router.generate("brain", { messages: [{ role: "user", content: "Hi" }] }, {
      channel: "cli",
    }).then(() => undefined, (e) => e);
    return error?.sentence;
  } finally {
    await server.close();
    ws.close();
  }
}

const sse = (body: string) =>
  new Response(body, { headers: { "content-type": "text/event-stream" } });
const html = () =>
  new Response("<html><body>Proxy login</body></html>", {
    headers: { "content-type": "text/html" },
  });
const MALFORMED =
  "brain (vendor-b m-1) answered in a format its API does not use; check base_url in agent.toml.";

Deno.test("ModelRouter ends with one sentence when the provider's stream is not JSON", async () => {
  assert.deepEqual(await sentenceFor("vendor-b", () => sse("data: {not json\n\n")), MALFORMED);
  assert.deepEqual(
    await sentenceFor("vendor-a", () => sse("event: message_start\ndata: {not json\n\n")),
    MALFORMED.replaceAll("vendor-b", "vendor-a"),
  );
});

Deno.test("ModelRouter ends with one sentence when a 200 answer is a web page, not a stream", async () => {
  assert.deepEqual(await sentenceFor("vendor-b", html), MALFORMED);
  assert.deepEqual(
    await sentenceFor("vendor-a", html),
    MALFORMED.replaceAll("vendor-b", "vendor-a"),
  );
});

Deno.test("ModelRouter says the answer stopped when the stream ends mid-answer", async () => {
  const chunk = {
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model: "m-1",
    choices: [{ index: 0, delta: { content: "Half an ans" }, finish_reason: null }],
  };
  assert.deepEqual(
    await sentenceFor("vendor-b", () => sse(`data: ${JSON.stringify(chunk)}\n\n`)),
    "brain (vendor-b m-1) failed: the answer stopped before its end",
  );
});

Deno.test("ModelRouter puts a provider's multi-line error on one line", async () => {
  const sentence = await sentenceFor(
    "vendor-b",
    () =>
      Response.json({ error: { message: "Bad request:\n  field x\n\n  is wrong" } }, {
        status: 422,
      }),
  );
  assert.deepEqual(
    sentence,
    "brain (vendor-b m-1) failed: HTTP 422: Bad request: field x is wrong",
  );
});
