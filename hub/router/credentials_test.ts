import assert from "node:assert/strict";
import { ModelRouter } from "../mod.ts";
import { startVendorServer, type VendorServer } from "../../tests/_vendor_server.ts";
import { config, TEST_PRICE, workspace } from "../../tests/_models.ts";

const ASK = { messages: [{ role: "user" as const, content: "Hi" }] };

const BASES: Record<string, (s: VendorServer) => string> = {
  "vendor-a": (s) => `${s.url}/v1`,
  "vendor-b": (s) => `${s.url}/v1`,
  "vendor-c": (s) => `${s.url}/v1beta`,
  "vendor-d": (s) => s.url,
};

/** Calls one role on a wire server; returns the request headers and the ledger rows. */
async function call(
  provider: string,
  roleToml: string,
  env: Record<string, string>,
  options: { retry?: { attempts: number; baseDelayMs: number }; script?: unknown[] } = {},
) {
  const server = startVendorServer();
  server.script.push(...(options.script ?? []) as never[]);
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "${provider}"
model_id = "${provider === "vendor-d" ? "global.m-1" : "m-1"}"
${roleToml}
[models.roles.brain.params]
base_url = "${BASES[provider]!(server)}"
[models.roles.fast]
provider = "fake"
model_id = "fake-1"
[models.prices."m-1"]
${TEST_PRICE}`);
    const router = new ModelRouter({
      config: cfg,
      env,
      ledger: ws.ledger,
      logger: ws.logger,
      ...(options.retry ? { retry: options.retry } : {}),
    });
    const outcome = await router.generate("brain", ASK, { channel: "cli" }).then(
      (out) => ({ out, error: undefined }),
      (error) => ({ out: undefined, error }),
    );
    const posts = server.requests.filter((r) => r.method === "POST");
    return { ...outcome, posts, headers: posts[0]?.headers, rows: ws.rows(), log: ws.log() };
  } finally {
    await server.close();
    ws.close();
  }
}

Deno.test("params.api_key_env names the key variable of vendor-a, vendor-b and vendor-c", async () => {
  const env = {
    VENDOR_A_API_KEY: "default-a",
    VENDOR_B_API_KEY: "default-b",
    VENDOR_C_API_KEY: "default-c",
    OTHER_KEY: "other-key",
  };
  const plain = await call("vendor-a", "", env);
  assert.deepEqual(plain.headers?.get("x-api-key"), "default-a");
  for (
    const [provider, header, prefix] of [
      ["vendor-a", "x-api-key", ""],
      ["vendor-b", "authorization", "Bearer "],
      ["vendor-c", "x-goog-api-key", ""],
    ] as const
  ) {
    const server = startVendorServer();
    const ws = workspace();
    try {
      const cfg = config(`
[models.roles.brain]
provider = "${provider}"
model_id = "m-1"
[models.roles.brain.params]
base_url = "${BASES[provider]!(server)}"
api_key_env = "OTHER_KEY"
`);
      const router = new ModelRouter({ config: cfg, env, ledger: ws.ledger, logger: ws.logger });
      await router.generate("brain", ASK, { channel: "cli" });
      assert.deepEqual(server.requests[0]?.headers.get(header), `${prefix}other-key`, provider);
      const missing = new ModelRouter({
        config: cfg,
        env: { ...env, OTHER_KEY: "" },
        ledger: ws.ledger,
        logger: ws.logger,
      });
      assert.deepEqual(
        missing.missingCredentialSentence("brain"),
        `role brain: provider '${provider}' is missing OTHER_KEY (names are in .env.example)`,
      );
    } finally {
      await server.close();
      ws.close();
    }
  }
});

Deno.test("vendor-c takes VENDOR_C_API_KEY before VENDOR_C_ALT_API_KEY", async () => {
  const both = await call("vendor-c", "", {
    VENDOR_C_API_KEY: "main",
    VENDOR_C_ALT_API_KEY: "alt",
  });
  assert.deepEqual(both.headers?.get("x-goog-api-key"), "main");
  const alt = await call("vendor-c", "", { VENDOR_C_ALT_API_KEY: "alt" });
  assert.deepEqual(alt.headers?.get("x-goog-api-key"), "alt");
});

Deno.test("vendor-d: the role's region beats VENDOR_D_REGION, and access keys sign the call", async () => {
  const env = {
    VENDOR_D_REGION: "us-east-1",
    VENDOR_D_ACCESS_KEY_ID: "AKIDPAIR",
    VENDOR_D_SECRET_ACCESS_KEY: "pair-secret",
  };
  const fromEnv = await call("vendor-d", "", env);
  assert.match(
    fromEnv.headers?.get("authorization") ?? "",
    /Credential=AKIDPAIR\/\d{8}\/us-east-1\//,
  );
  const server = startVendorServer();
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-d"
model_id = "global.m-1"
params = { base_url = "${server.url}", region = "ap-southeast-2" }
`);
    const router = new ModelRouter({ config: cfg, env, ledger: ws.ledger, logger: ws.logger });
    await router.generate("brain", ASK, { channel: "cli" });
    const auth = server.requests[0]?.headers.get("authorization") ?? "";
    assert.match(auth, /^AWS4-HMAC-SHA256 Credential=AKIDPAIR\/\d{8}\/ap-southeast-2\/bedrock\//);
    assert.deepEqual(auth.includes("pair-secret"), false);
    const noRegion = new ModelRouter({
      config: config(`[models.roles.brain]
provider = "vendor-d"
model_id = "global.m-1"
`),
      env: { VENDOR_D_BEARER_TOKEN: "t" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    assert.deepEqual(noRegion.missingCredential("brain"), "VENDOR_D_REGION");
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("a 429 that never clears ends with the throttling sentence and is never failed over", async () => {
  const tooMany = { status: 429, headers: { "retry-after": "0" } };
  const r = await call("vendor-b", `failover = "fast"`, { VENDOR_B_API_KEY: "k" }, {
    retry: { attempts: 3, baseDelayMs: 1 },
    script: [tooMany, tooMany, tooMany, tooMany],
  });
  assert.deepEqual(
    r.error?.sentence,
    "vendor-b is throttling brain (HTTP 429) and kept refusing after 3 tries.",
  );
  assert.deepEqual(r.posts.length, 3);
  assert.deepEqual(r.rows, []);
  assert.deepEqual(r.log, "", "no failover warning");
});

Deno.test("only a role with a budget or a failover writes ledger rows", async () => {
  const plain = await call("vendor-b", "", { VENDOR_B_API_KEY: "k" });
  assert.deepEqual(plain.out?.text, "Hello there.");
  assert.deepEqual(plain.rows, []);
  const withFailover = await call("vendor-b", `failover = "fast"`, { VENDOR_B_API_KEY: "k" });
  assert.deepEqual(withFailover.rows.map((r) => [r.role, r.model_id]), [["brain", "m-1"]]);
  const budgeted = await call("vendor-b", `budget = { usd = 1, period = "day" }`, {
    VENDOR_B_API_KEY: "k",
  });
  assert.deepEqual(budgeted.rows.length, 1);
});

Deno.test("the fallback is decided once, when the router is built", async () => {
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-b"
model_id = "m-1"
fallback = { provider = "fake", model_id = "fake-2", params = { replies = ["Fallback."] } }
`);
    const env: Record<string, string> = {};
    const router = new ModelRouter({ config: cfg, env, ledger: ws.ledger, logger: ws.logger });
    env.VENDOR_B_API_KEY = "arrived-later";
    assert.deepEqual(router.target("brain").provider, "fake");
    assert.deepEqual((await router.generate("brain", ASK, { channel: "cli" })).text, "Fallback.");
    const rebuilt = new ModelRouter({ config: cfg, env, ledger: ws.ledger, logger: ws.logger });
    assert.deepEqual(rebuilt.target("brain").provider, "vendor-b");
  } finally {
    ws.close();
  }
});
