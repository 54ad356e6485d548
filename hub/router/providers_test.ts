import assert from "node:assert/strict";
import { ModelRouter } from "../mod.ts";
import { startVendorServer, type VendorServer } from "../../tests/_vendor_server.ts";
import { config, TEST_PRICE, workspace } from "../../tests/_models.ts";

interface Case {
  provider: string;
  model: string;
  env: Record<string, string>;
  base: (s: VendorServer) => string;
  usd: number;
  /** plain input, output, cache read, cache write */
  tokens: [number, number, number, number];
  check: (body: Record<string, unknown>, headers: Headers) => void;
}

const CASES: Case[] = [
  {
    provider: "vendor-a",
    model: "claude-test-1",
    env: { VENDOR_A_API_KEY: "sk-a-test", VENDOR_A_WORKSPACE_ID: "wrkspc_1" },
    base: (s) => `${s.url}/v1`,
    usd: (100 * 3 + 50 * 15 + 1000 * 0.3 + 200 * 3.75) / 1e6,
    tokens: [100, 50, 1000, 200],
    check(body, headers) {
      assert.deepEqual(body.max_tokens, 321);
      assert.deepEqual(body.stream, true);
      assert.deepEqual(headers.get("x-api-key"), "sk-a-test");
      assert.deepEqual(headers.get("anthropic-workspace-id"), "wrkspc_1");
      const system = body.system as { text: string; cache_control?: unknown }[];
      assert.deepEqual(system[0]?.text, "Be brief.");
      assert.deepEqual(system[0]?.cache_control, { type: "ephemeral" });
    },
  },
  {
    provider: "vendor-b",
    model: "gpt-test-1",
    env: { VENDOR_B_API_KEY: "sk-b-test" },
    base: (s) => `${s.url}/v1`,
    usd: (100 * 3 + 50 * 15 + 1000 * 0.3) / 1e6,
    tokens: [100, 50, 1000, 0],
    check(body, headers) {
      assert.deepEqual(body.max_completion_tokens, 321);
      assert.deepEqual(body.max_tokens, undefined);
      assert.deepEqual(body.stream_options, { include_usage: true });
      assert.deepEqual(headers.get("authorization"), "Bearer sk-b-test");
    },
  },
  {
    provider: "vendor-c",
    model: "gemini-test-1",
    env: { VENDOR_C_ALT_API_KEY: "c-alt-key" },
    base: (s) => `${s.url}/v1beta`,
    usd: (100 * 3 + 50 * 15 + 1000 * 0.3) / 1e6,
    tokens: [100, 50, 1000, 0],
    check(body, headers) {
      assert.deepEqual((body.generationConfig as Record<string, unknown>).maxOutputTokens, 321);
      assert.deepEqual(headers.get("x-goog-api-key"), "c-alt-key");
    },
  },
  {
    provider: "vendor-d",
    model: "global.test-model-v1:0",
    env: { VENDOR_D_REGION: "eu-west-1", VENDOR_D_BEARER_TOKEN: "bedrock-token" },
    base: (s) => s.url,
    usd: (100 * 3 + 50 * 15 + 1000 * 0.3 + 200 * 3.75) / 1e6,
    tokens: [100, 50, 1000, 200],
    check(body, headers) {
      assert.deepEqual((body.inferenceConfig as Record<string, unknown>).maxTokens, 321);
      assert.deepEqual(headers.get("authorization"), "Bearer bedrock-token");
      const system = body.system as Record<string, unknown>[];
      assert.deepEqual(system[0], { text: "Be brief." });
      assert.deepEqual(system[1], { cachePoint: { type: "default" } });
    },
  },
  {
    provider: "local-runtime",
    model: "llama3.2",
    env: {},
    base: (s) => s.url,
    usd: 0,
    tokens: [100, 50, 1000, 0],
    check(body) {
      assert.deepEqual(body.max_tokens, 321);
      assert.deepEqual(body.reasoning_effort, "none");
      assert.deepEqual(body.stream_options, { include_usage: true });
    },
  },
];

for (const c of CASES) {
  Deno.test(`ModelRouter.stream() calls ${c.provider} on its wire format and records one priced row`, async () => {
    const server = startVendorServer();
    const ws = workspace();
    try {
      const cfg = config(`
[models.roles.brain]
provider = "${c.provider}"
model_id = "${c.model}"
max_tokens = 321
[models.roles.brain.params]
base_url = "${c.base(server)}"
reasoning_effort = "none"
[models.roles.brain.budget]
usd = 10
period = "month"
[models.roles.brain.cache]
system = true
messages = false
[models.prices."${c.model}"]
${TEST_PRICE}`);
      const router = new ModelRouter({
        config: cfg,
        env: c.env,
        ledger: ws.ledger,
        logger: ws.logger,
      });
      const deltas: string[] = [];
      let done: { text: string; notices: string[] } | undefined;
      for await (
        const e of router.stream("brain", {
          system: "Be brief.",
          messages: [{ role: "user", content: "Hi" }],
        }, { channel: "chat", sessionId: "s-1" })
      ) {
        if (e.type === "text") deltas.push(e.text);
        if (e.type === "done") done = e;
      }
      assert.ok(deltas.length >= 2, `streamed in pieces: ${JSON.stringify(deltas)}`);
      assert.deepEqual(done?.text, "Hello there.");
      assert.deepEqual(done?.notices, []);
      const req = server.requests.find((r) => r.method === "POST");
      assert.ok(req?.body !== undefined);
      c.check(req.body, req.headers);
      const rows = ws.rows();
      assert.deepEqual(rows.length, 1);
      const row = rows[0]!;
      assert.deepEqual(row.role, "brain");
      assert.deepEqual(row.provider, c.provider);
      assert.deepEqual(row.model_id, c.model);
      assert.deepEqual(
        [row.input_tokens, row.output_tokens, row.cache_read_tokens, row.cache_write_tokens],
        c.tokens,
      );
      assert.ok(Math.abs((row.usd as number) - c.usd) <= 1e-12, `${row.usd} is not ${c.usd}`);
      assert.deepEqual(row.channel, "chat");
      assert.deepEqual(row.session_id, "s-1");
    } finally {
      await server.close();
      ws.close();
    }
  });
}

Deno.test("ModelRouter.generate() retries a 429 honouring retry-after and then answers", async () => {
  const server = startVendorServer({ reply: "Done." });
  server.script.push({ status: 429, headers: { "retry-after": "0" } }, {
    status: 429,
    headers: { "retry-after-ms": "10" },
  });
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-test-1"
failover = "fast"
[models.roles.brain.params]
base_url = "${server.url}/v1"
[models.roles.fast]
provider = "fake"
model_id = "fake-1"
`);
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_B_API_KEY: "k" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const out = await router.generate("brain", { messages: [{ role: "user", content: "Hi" }] }, {
      channel: "cli",
    });
    assert.deepEqual(out.text, "Done.");
    assert.deepEqual(out.usedRole, "brain");
    assert.deepEqual(out.notice, undefined);
    assert.deepEqual(server.requests.filter((r) => r.method === "POST").length, 3);
    assert.deepEqual(ws.log(), "");
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("ModelRouter.generate() ends with a model error naming the model on a 404, without failover", async () => {
  const server = startVendorServer();
  server.script.push({
    status: 404,
    body: { error: 'model "qwen-missing" not found, try pulling it first' },
  });
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.local]
provider = "local-runtime"
model_id = "qwen-missing"
failover = "fast"
[models.roles.local.params]
base_url = "${server.url}"
[models.roles.fast]
provider = "fake"
model_id = "fake-1"
`);
    const router = new ModelRouter({ config: cfg, env: {}, ledger: ws.ledger, logger: ws.logger });
    const error = await router.generate("local", { messages: [{ role: "user", content: "Hi" }] }, {
      channel: "cli",
    }).then(() => undefined, (e) => e);
    assert.deepEqual(error?.name, "ModelCallError");
    assert.match(error.sentence, /qwen-missing/);
    assert.deepEqual(ws.rows().length, 0);
    assert.deepEqual(ws.log(), "");
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("ModelRouter.generate() tells the user to set VENDOR_A_WORKSPACE_ID on a 400 about the workspace", async () => {
  const server = startVendorServer();
  server.script.push({
    status: 400,
    body: {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "This API key is not scoped to a workspace; specify a workspace.",
      },
    },
  });
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-a"
model_id = "claude-test-1"
[models.roles.brain.params]
base_url = "${server.url}/v1"
`);
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_A_API_KEY: "k" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const error = await router.generate("brain", { messages: [{ role: "user", content: "Hi" }] }, {
      channel: "cli",
    }).then(() => undefined, (e) => e);
    assert.match(error?.sentence ?? "", /set VENDOR_A_WORKSPACE_ID/);
    assert.deepEqual(server.requests[0]?.headers.get("anthropic-workspace-id"), null);
  } finally {
    await server.close();
    ws.close();
  }
});
