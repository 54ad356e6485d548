import assert from "node:assert/strict";
import { ModelRouter } from "../mod.ts";
import { startVendorServer } from "../../tests/_vendor_server.ts";
import { config, silentHost, TEST_PRICE, workspace } from "../../tests/_models.ts";
import { freePort } from "../../tests/_port.ts";

function localWithFailover(baseUrl: string): string {
  return `
[models.roles.local]
provider = "local-runtime"
model_id = "llama3.2"
failover = "fast"
[models.roles.local.params]
base_url = "${baseUrl}"
[models.roles.fast]
provider = "fake"
model_id = "fake-1"
[models.roles.fast.params]
replies = ["Stand-in here."]
[models.roles.fast.budget]
usd = 1
period = "day"
`;
}

/** A router over `cfg` writing to the workspace's ledger and log. */
function routerOf(ws: ReturnType<typeof workspace>, cfg: ReturnType<typeof config>): ModelRouter {
  return new ModelRouter({ config: cfg, env: {}, ledger: ws.ledger, logger: ws.logger });
}

const ASK = { messages: [{ role: "user" as const, content: "Hi" }] };

Deno.test("ModelRouter fails over at once when the local server refuses the connection", async () => {
  const ws = workspace();
  try {
    const cfg = config(localWithFailover(`http://127.0.0.1:${freePort()}`));
    const router = routerOf(ws, cfg);
    const started = performance.now();
    const out = await router.generate("local", ASK, { channel: "chat", sessionId: "s" });
    assert.ok(performance.now() - started < 1500, "refusal is answered at once");
    assert.deepEqual(out.text, "Stand-in here.");
    assert.deepEqual(out.usedRole, "fast");
    assert.deepEqual(out.notice, "local is not reachable right now; fast answered instead.");
    assert.match(
      ws.log(),
      /WARNING role local: local-runtime llama3\.2 is not reachable \(connection refused\); fast answers instead/,
    );
    const rows = ws.rows();
    assert.deepEqual(rows.map((r) => [r.role, r.provider, r.usd]), [["fast", "fake", 0]]);
  } finally {
    ws.close();
  }
});

Deno.test({
  name: "ModelRouter fails over after the 3-second connect timeout when nothing answers",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const host = await silentHost();
    const ws = workspace();
    try {
      const cfg = config(localWithFailover(`http://127.0.0.1:${host.port}`));
      const router = routerOf(ws, cfg);
      const started = performance.now();
      const out = await router.generate("local", ASK, { channel: "chat" });
      const elapsed = performance.now() - started;
      // The timeout, not a longer wait; the upper bound allows a loaded machine (stop 46's CI
      // run took over 6 s with the layers side by side).
      assert.ok(elapsed >= 2900 && elapsed < 9_000, `failover took ${elapsed} ms`);
      assert.deepEqual(out.usedRole, "fast");
      assert.deepEqual(out.notice, "local is not reachable right now; fast answered instead.");
      assert.match(ws.log(), /is not reachable \(connect timeout\); fast answers instead/);
    } finally {
      host.close();
      ws.close();
    }
  },
});

Deno.test("ModelRouter fails over on a 5xx before anything streamed, and not on a 4xx", async () => {
  const server = startVendorServer();
  server.script.push({ status: 503, body: { error: { message: "overloaded" } } });
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
[models.prices."gpt-test-1"]
${TEST_PRICE}`);
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_B_API_KEY: "k" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const out = await router.generate("brain", ASK, { channel: "cli" });
    assert.deepEqual(out.text, "Okay.");
    assert.deepEqual(out.notice, "brain is not reachable right now; fast answered instead.");
    assert.match(ws.log(), /role brain: vendor-b gpt-test-1 is not reachable \(HTTP 503\)/);
    // fast has neither budget nor failover: not metered, so no row for it.
    assert.deepEqual(ws.rows().length, 0);

    server.script.push({ status: 401, body: { error: { message: "bad key" } } });
    const error = await router.generate("brain", ASK, { channel: "cli" }).then(
      () => undefined,
      (e) => e,
    );
    assert.deepEqual(error?.name, "ModelCallError");
    assert.match(error.sentence, /refused the credentials of brain \(HTTP 401\)/);

    const ok = await router.generate("brain", ASK, { channel: "cli" });
    assert.deepEqual(ok.text, "Hello there.");
    assert.deepEqual(ws.rows().map((r) => r.role), ["brain"]);
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("ModelRouter follows stand-in chains: a failover's own failover answers", async () => {
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.local]
provider = "local-runtime"
model_id = "llama3.2"
failover = "fast"
[models.roles.local.params]
base_url = "http://127.0.0.1:${freePort()}"
[models.roles.fast]
provider = "local-runtime"
model_id = "llama3.2"
failover = "last"
[models.roles.fast.params]
base_url = "http://127.0.0.1:${freePort()}"
[models.roles.last]
provider = "fake"
model_id = "fake-1"
`);
    const router = routerOf(ws, cfg);
    const out = await router.generate("local", ASK, { channel: "chat" });
    assert.deepEqual(out.usedRole, "last");
    assert.deepEqual(
      out.notice,
      "local is not reachable right now; fast answered instead. fast is not reachable right now; last answered instead.",
    );
  } finally {
    ws.close();
  }
});

Deno.test("ModelRouter degrades a spent role to degrade_to, with the notice and the log warning", async () => {
  const server = startVendorServer();
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-a"
model_id = "claude-test-1"
[models.roles.brain.params]
base_url = "${server.url}/v1"
[models.roles.brain.budget]
usd = 0.001
period = "month"
degrade_to = "fast"
[models.roles.fast]
provider = "fake"
model_id = "fake-1"
[models.roles.fast.budget]
usd = 1
period = "day"
[models.prices."claude-test-1"]
${TEST_PRICE}`);
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_A_API_KEY: "k" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const first = await router.generate("brain", ASK, { channel: "chat" });
    assert.deepEqual(first.text, "Hello there.");
    assert.deepEqual(first.notice, undefined);
    // $0.0021 spent of $0.001: the cap is passed, the next call degrades.
    const second = await router.generate("brain", ASK, { channel: "chat" });
    assert.deepEqual(second.text, "Okay.");
    assert.deepEqual(second.usedRole, "fast");
    assert.match(second.notice ?? "", /brain/);
    assert.match(second.notice ?? "", /fast/);
    assert.match(
      ws.log(),
      /role brain: budget spent \(\$0\.0021 of \$0\.0010?, resets \d{4}-\d\d-\d\dT00:00:00\+03:00\); fast answers instead/,
    );
    assert.deepEqual(server.requests.length, 1, "a spent role never reaches the provider");
    assert.deepEqual(ws.rows().map((r) => r.role), ["brain", "fast"]);
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("ModelRouter ends the turn with one sentence when the budget is spent and nothing stands in", async () => {
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-a"
model_id = "claude-test-1"
[models.roles.brain.budget]
usd = 0.5
period = "day"
[models.prices."claude-test-1"]
${TEST_PRICE}`);
    ws.ledger.record({
      ts: Date.now(),
      role: "brain",
      provider: "vendor-a",
      model_id: "claude-test-1",
      input_tokens: 0,
      output_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      usd: 0.75,
      channel: "tui",
      session_id: null,
      peer: null,
    });
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_A_API_KEY: "k" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const error = await router.generate("brain", ASK, { channel: "chat" }).then(
      () => undefined,
      (e) => e,
    );
    assert.deepEqual(error?.name, "BudgetSpentError");
    assert.match(
      error.sentence,
      /^The brain budget is spent \(\$0\.75 of \$0\.50\) and resets at \d\d\.\d\d\.\d{4} 00:00\. To raise the cap, change it in agent\.toml\.$/,
    );
  } finally {
    ws.close();
  }
});

Deno.test("ModelRouter uses the fallback when the role's provider has no credentials", async () => {
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-test-1"
fallback = { provider = "fake", model_id = "fake-2", params = { replies = ["From the fallback."] } }
[models.roles.fast]
provider = "vendor-c"
model_id = "gemini-test-1"
`);
    const router = routerOf(ws, cfg);
    assert.deepEqual(router.missingCredential("brain"), undefined);
    assert.deepEqual(router.target("brain").provider, "fake");
    assert.deepEqual(
      router.missingCredentialSentence("fast"),
      "role fast: provider 'vendor-c' is missing VENDOR_C_API_KEY (names are in .env.example)",
    );
    const out = await router.generate("brain", ASK, { channel: "chat" });
    assert.deepEqual(out.text, "From the fallback.");
  } finally {
    ws.close();
  }
});

Deno.test("ModelRouter never fails over once the answer started streaming", async () => {
  const server = startVendorServer();
  server.script.push({ midStreamError: true });
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-a"
model_id = "claude-test-1"
failover = "fast"
[models.roles.brain.params]
base_url = "${server.url}/v1"
[models.roles.fast]
provider = "fake"
model_id = "fake-1"
`);
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_A_API_KEY: "k" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const e of router.stream("brain", ASK, { channel: "chat" })) {
        if (e.type === "text") seen.push(e.text);
      }
    })().then(() => undefined, (e) => e);
    assert.deepEqual(seen, ["Partial"]);
    assert.deepEqual(error?.name, "ModelCallError");
    assert.match(error.sentence, /Overloaded/);
    assert.deepEqual(ws.log(), "", "no failover was logged");
    // The vendor reported the input before it failed: the ledger has it.
    const [row] = ws.ledger.breakdown("channel", { sinceMs: 0 });
    assert.equal(row?.calls, 1);
    assert.equal(row?.input_tokens, 10);
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("vendor-d signs with the access keys of VENDOR_D_PROFILE from the shared credentials file", async () => {
  const server = startVendorServer();
  const ws = workspace();
  try {
    Deno.writeTextFileSync(
      `${ws.dir}/credentials`,
      "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = x\n\n[work]\naws_access_key_id = AKIDWORK\naws_secret_access_key = secretwork\n",
    );
    const cfg = config(`
[models.roles.brain]
provider = "vendor-d"
model_id = "global.test-model-v1:0"
[models.roles.brain.params]
base_url = "${server.url}"
region = "eu-central-1"
`);
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_D_PROFILE: "work", AWS_SHARED_CREDENTIALS_FILE: `${ws.dir}/credentials` },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const out = await router.generate("brain", ASK, { channel: "cli" });
    assert.deepEqual(out.text, "Hello there.");
    const auth = server.requests[0]?.headers.get("authorization") ?? "";
    assert.match(
      auth,
      /^AWS4-HMAC-SHA256 Credential=AKIDWORK\/\d{8}\/eu-central-1\/bedrock\/aws4_request/,
    );
    assert.ok(!auth.includes("secretwork"));
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("ModelRouter ends with one sentence when a role without failover cannot be reached", async () => {
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-test-1"
[models.roles.brain.params]
base_url = "http://127.0.0.1:${freePort()}/v1"
`);
    const router = new ModelRouter({
      config: cfg,
      env: { VENDOR_B_API_KEY: "k" },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const error = await router.generate("brain", ASK, { channel: "cli" }).then(
      () => undefined,
      (e) => e,
    );
    assert.deepEqual(
      error?.sentence,
      "brain is not reachable right now (vendor-b gpt-test-1: connection refused).",
    );
  } finally {
    ws.close();
  }
});

Deno.test("ModelRouter names the role asked for when its failover stand-in cannot be reached either", async () => {
  const ws = workspace();
  try {
    const down = `http://127.0.0.1:${freePort()}/v1`;
    const cfg = config(`
[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-test-1"
failover = "fast"
[models.roles.brain.params]
base_url = "${down}"
[models.roles.fast]
provider = "vendor-b"
model_id = "gpt-test-2"
failover = "local"
[models.roles.fast.params]
base_url = "${down}"
[models.roles.local]
provider = "local-runtime"
model_id = "llama3.2"
[models.roles.local.params]
base_url = "${down.replace("/v1", "")}"
`);
    const sentences: string[] = [];
    for (const lang of ["en", "tr"] as const) {
      const router = new ModelRouter({
        config: cfg,
        env: { VENDOR_B_API_KEY: "k" },
        ledger: ws.ledger,
        logger: ws.logger,
        lang,
      });
      const error = await router.generate("brain", ASK, { channel: "cli" }).then(
        () => undefined,
        (e) => e,
      );
      sentences.push(error?.sentence);
    }
    assert.deepEqual(sentences, [
      "brain is not reachable right now, and neither is local, which stands in for it (local-runtime llama3.2: connection refused).",
      "brain şu an ulaşılamıyor; onun yerine geçen local de ulaşılamıyor (local-runtime llama3.2: bağlantı reddedildi).",
    ]);
    assert.match(
      ws.log(),
      /role brain: .* fast answers instead\n.*role fast: .* local answers instead/,
    );
  } finally {
    ws.close();
  }
});

/** A server that accepts every connection and never writes a byte (a hung local server). */
function mutedServer(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) conns.push(conn);
    } catch { /* closed */ }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already */ }
      }
      listener.close();
    },
  };
}

Deno.test({
  name:
    "ModelRouter fails over within 6 s from a local server that accepts but never answers (defect 3)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const muted = mutedServer();
    const ws = workspace();
    try {
      const cfg = config(localWithFailover(`http://127.0.0.1:${muted.port}`));
      const router = routerOf(ws, cfg);
      const started = performance.now();
      const out = await router.generate("local", ASK, { channel: "chat" });
      const elapsed = performance.now() - started;
      // The watchdog, not a longer wait; the upper bound allows a loaded machine.
      assert.ok(elapsed >= 5_500 && elapsed < 9_000, `failover took ${elapsed} ms`);
      assert.deepEqual([out.usedRole, out.text], ["fast", "Stand-in here."]);
      assert.match(ws.log(), /is not reachable \(no answer\); fast answers instead/);
    } finally {
      muted.close();
      ws.close();
    }
  },
});

Deno.test({
  name: "ModelRouter waits for a live local server that is loading a model (its /api/tags answers)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = startVendorServer({ reply: "Loaded and answering." });
    server.script.push({ delayMs: 4_500 });
    const ws = workspace();
    try {
      const cfg = config(localWithFailover(server.url));
      const router = routerOf(ws, cfg);
      const started = performance.now();
      const out = await router.generate("local", ASK, { channel: "chat" });
      const elapsed = performance.now() - started;
      assert.deepEqual([out.usedRole, out.text], ["local", "Loaded and answering."]);
      assert.ok(elapsed >= 4_400, `answered after ${elapsed} ms`);
      assert.ok(server.requests.some((r) => r.path === "/api/tags"), "the server was asked");
      assert.doesNotMatch(ws.log(), /answers instead/);
    } finally {
      await server.close();
      ws.close();
    }
  },
});

Deno.test({
  name: "ModelRouter ends the turn with one sentence when a silent local server has no stand-in",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const muted = mutedServer();
    const ws = workspace();
    try {
      const cfg = config(`
[models.roles.local]
provider = "local-runtime"
model_id = "llama3.2"
[models.roles.local.params]
base_url = "http://127.0.0.1:${muted.port}"
`);
      const router = routerOf(ws, cfg);
      const started = performance.now();
      await assert.rejects(
        () => router.generate("local", ASK, { channel: "chat" }),
        /not reachable.*no answer/,
      );
      assert.ok(performance.now() - started < 7_000);
    } finally {
      muted.close();
      ws.close();
    }
  },
});
