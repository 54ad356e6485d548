import { assert, assertAlmostEquals, assertEquals, assertMatch } from "./_assert.ts";
import { ModelRouter } from "@agent/hub";
import { startVendorServer, type VendorServer } from "./_vendor_server.ts";
import { config, TEST_PRICE, workspace } from "./_harness.ts";

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
      assertEquals(body.max_tokens, 321);
      assertEquals(body.stream, true);
      assertEquals(headers.get("x-api-key"), "sk-a-test");
      assertEquals(headers.get("anthropic-workspace-id"), "wrkspc_1");
      const system = body.system as { text: string; cache_control?: unknown }[];
      assertEquals(system[0]?.text, "Be brief.");
      assertEquals(system[0]?.cache_control, { type: "ephemeral" });
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
      assertEquals(body.max_completion_tokens, 321);
      assertEquals(body.max_tokens, undefined);
      assertEquals(body.stream_options, { include_usage: true });
      assertEquals(headers.get("authorization"), "Bearer sk-b-test");
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
      assertEquals((body.generationConfig as Record<string, unknown>).maxOutputTokens, 321);
      assertEquals(headers.get("x-goog-api-key"), "c-alt-key");
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
      assertEquals((body.inferenceConfig as Record<string, unknown>).maxTokens, 321);
      assertEquals(headers.get("authorization"), "Bearer bedrock-token");
      const system = body.system as Record<string, unknown>[];
      assertEquals(system[0], { text: "Be brief." });
      assertEquals(system[1], { cachePoint: { type: "default" } });
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
      assertEquals(body.max_tokens, 321);
      assertEquals(body.reasoning_effort, "none");
      assertEquals(body.stream_options, { include_usage: true });
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
      assert(deltas.length >= 2, `streamed in pieces: ${JSON.stringify(deltas)}`);
      assertEquals(done?.text, "Hello there.");
      assertEquals(done?.notices, []);
      const req = server.requests.find((r) => r.method === "POST");
      assert(req?.body !== undefined);
      c.check(req.body, req.headers);
      const rows = ws.rows();
      assertEquals(rows.length, 1);
      const row = rows[0]!;
      assertEquals(row.role, "brain");
      assertEquals(row.provider, c.provider);
      assertEquals(row.model_id, c.model);
      assertEquals(
        [row.input_tokens, row.output_tokens, row.cache_read_tokens, row.cache_write_tokens],
        c.tokens,
      );
      assertAlmostEquals(row.usd as number, c.usd, 1e-12);
      assertEquals(row.channel, "chat");
      assertEquals(row.session_id, "s-1");
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
    assertEquals(out.text, "Done.");
    assertEquals(out.usedRole, "brain");
    assertEquals(out.notice, undefined);
    assertEquals(server.requests.filter((r) => r.method === "POST").length, 3);
    assertEquals(ws.log(), "");
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
    assertEquals(error?.name, "ModelCallError");
    assertMatch(error.sentence, /qwen-missing/);
    assertEquals(ws.rows().length, 0);
    assertEquals(ws.log(), "");
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
    assertMatch(error?.sentence ?? "", /set VENDOR_A_WORKSPACE_ID/);
    assertEquals(server.requests[0]?.headers.get("anthropic-workspace-id"), null);
  } finally {
    await server.close();
    ws.close();
  }
});
