import assert from "node:assert/strict";
import { ModelRouter } from "../mod.ts";
import { startVendorServer, type VendorServer } from "../../tests/_vendor_server.ts";
import { config, workspace } from "../../tests/_models.ts";

const ENV = {
  VENDOR_A_API_KEY: "k",
  VENDOR_B_API_KEY: "k",
  VENDOR_C_API_KEY: "k",
  VENDOR_D_REGION: "eu-west-1",
  VENDOR_D_BEARER_TOKEN: "t",
};

const BASES: Record<string, (s: VendorServer) => string> = {
  "vendor-a": (s) => `${s.url}/v1`,
  "vendor-b": (s) => `${s.url}/v1`,
  "vendor-c": (s) => `${s.url}/v1beta`,
  "vendor-d": (s) => s.url,
};

/** The request body a role with `cacheToml` sends for a two-part system prompt. */
async function bodyFor(provider: string, cacheToml: string): Promise<Record<string, unknown>> {
  const server = startVendorServer();
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "${provider}"
model_id = "${provider === "vendor-d" ? "global.m-1" : "m-1"}"
${cacheToml}
[models.roles.brain.params]
base_url = "${BASES[provider]!(server)}"
`);
    const router = new ModelRouter({ config: cfg, env: ENV, ledger: ws.ledger, logger: ws.logger });
    await router.generate("brain", {
      system: ["You are Ada's agent.", "## Now\n\n- Time: 01.01.2026 12:00"],
      messages: [{ role: "user", content: "Hi" }],
    }, { channel: "chat" });
    return server.requests.find((r) => r.method === "POST")!.body!;
  } finally {
    await server.close();
    ws.close();
  }
}

Deno.test("vendor-a caches the persona, never the Now block, and the latest message", async () => {
  const body = await bodyFor("vendor-a", `cache = { ttl = "1h" }`);
  assert.deepEqual(body.system, [
    { type: "text", text: "You are Ada's agent.", cache_control: { type: "ephemeral", ttl: "1h" } },
    { type: "text", text: "## Now\n\n- Time: 01.01.2026 12:00" },
  ]);
  assert.deepEqual(body.messages, [{
    role: "user",
    content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral", ttl: "1h" } }],
  }]);
});

Deno.test("vendor-d puts a cache point after the persona and, with messages = false, none after the messages", async () => {
  const body = await bodyFor("vendor-d", `cache = { messages = false }`);
  assert.deepEqual(body.system, [
    { text: "You are Ada's agent." },
    { cachePoint: { type: "default" } },
    { text: "## Now\n\n- Time: 01.01.2026 12:00" },
  ]);
  assert.deepEqual(body.messages, [{ role: "user", content: [{ text: "Hi" }] }]);
});

Deno.test("without a cache table, and on vendor-b and vendor-c, the system prompt is one unmarked text", async () => {
  const joined = "You are Ada's agent.\n\n## Now\n\n- Time: 01.01.2026 12:00";
  const a = await bodyFor("vendor-a", "");
  assert.deepEqual(a.system, [{ type: "text", text: joined }]);
  const b = await bodyFor("vendor-b", `cache = { ttl = "1h" }`);
  assert.deepEqual(b.messages, [{ role: "system", content: joined }, {
    role: "user",
    content: "Hi",
  }]);
  const c = await bodyFor("vendor-c", `cache = { ttl = "1h" }`);
  assert.deepEqual(c.systemInstruction, { parts: [{ text: joined }] });
  assert.deepEqual(JSON.stringify(c).includes("cache"), false);
});

/**
 * The ledger row of one streamed `brain` call on `provider`, whose vendor reports 150
 * of its 200 cache writes as 1-hour writes.
 */
async function rowWith1hWrites(
  provider: "vendor-a" | "vendor-d",
): Promise<Record<string, unknown>> {
  const server = startVendorServer({ cacheWrite1h: 150 });
  const ws = workspace();
  const model = provider === "vendor-d" ? "global.m-1" : "m-1";
  try {
    const cfg = config(`
[models.roles.brain]
provider = "${provider}"
model_id = "${model}"
cache = { ttl = "1h" }
budget = { usd = 10, period = "month" }
[models.roles.brain.params]
base_url = "${BASES[provider]!(server)}"
[models.prices."${model}"]
input = 3.0
output = 15.0
cache_read = 0.3
cache_write = 3.75
cache_write_1h = 6.0
`);
    const router = new ModelRouter({ config: cfg, env: ENV, ledger: ws.ledger, logger: ws.logger });
    const events = router.stream("brain", {
      system: ["You are Ada's agent.", "## Now\n\n- Time: 01.01.2026 12:00"],
      messages: [{ role: "user", content: "Hi" }],
    }, { channel: "chat" });
    for await (const _ of events) { /* the answer itself is checked elsewhere */ }
    const rows = ws.rows();
    assert.deepEqual(rows.length, 1);
    return rows[0]!;
  } finally {
    await server.close();
    ws.close();
  }
}

// 100 plain input, 1000 read, 200 written (50 for 5 minutes, 150 for an hour), 50 out.
const WITH_1H = (100 * 3 + 50 * 15 + 1000 * 0.3 + 50 * 3.75 + 150 * 6) / 1e6;

for (const provider of ["vendor-a", "vendor-d"] as const) {
  Deno.test(`${provider}: 1-hour cache writes are priced at cache_write_1h in the ledger`, async () => {
    const row = await rowWith1hWrites(provider);
    assert.deepEqual(
      [row.input_tokens, row.output_tokens, row.cache_read_tokens, row.cache_write_tokens],
      [100, 50, 1000, 200],
    );
    assert.ok(Math.abs((row.usd as number) - WITH_1H) <= 1e-12, `${row.usd} is not ${WITH_1H}`);
  });
}
