import assert from "node:assert/strict";
import { defaultConfig, findLoop, parseConfig } from "./parse.ts";
import { ConfigError } from "./error.ts";
import { loadConfig } from "./read.ts";
import { lookupPrice, SHIPPED_PRICES } from "./prices.ts";
import { SHIPPED_MODELS } from "./models.ts";
import { resolvePaths } from "../paths.ts";

function errorOf(text: string, lang: "en" | "tr" = "en"): string {
  try {
    parseConfig(text, "agent.toml", { lang });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.name, "ConfigError");
    return error.message;
  }
  throw new Error("parseConfig() accepted the text");
}

const ROLE = 'provider = "fake"\nmodel_id = "m"\n';

Deno.test("defaultConfig() holds the shipped defaults of the spec", () => {
  const c = defaultConfig();
  const { brain, fast, local } = c.models.roles;
  assert.deepEqual(
    [brain?.provider, brain?.max_tokens, brain?.budget],
    ["vendor-a", 4096, { usd: 15, period: "month", warn_at: 0.8, degrade_to: "fast" }],
  );
  assert.deepEqual([fast?.provider, fast?.max_tokens, fast?.budget], [
    "vendor-a",
    1024,
    { usd: 1, period: "day", warn_at: 0.8 },
  ]);
  assert.equal(local?.provider, "local-runtime");
  assert.equal(local?.max_tokens, 1024);
  assert.equal(local?.budget, undefined);
  assert.equal(local?.params.reasoning_effort, "none");
  assert.equal(local?.failover, "fast");
  // init writes a context budget per role (a local model server's window is smaller).
  assert.deepEqual(
    [brain?.context_tokens, fast?.context_tokens, local?.context_tokens],
    [32000, 16000, 8000],
  );
  assert.equal(brain?.model_id, SHIPPED_MODELS["vendor-a"].brain);
  assert.equal(fast?.model_id, SHIPPED_MODELS["vendor-a"].fast);
  assert.equal(c.hub.port, 8790);
  assert.equal(c.sessions.backend, "file");
  assert.deepEqual(c.net, {
    auto_reply: true,
    max_hops: 6,
    answer_replies: "questions",
    max_auto_replies_per_hour: 20,
    public_note: "net.md",
    store: "file",
    link: "auto",
    poll_timeout_seconds: 25,
    universe: "",
    universe_links: true,
    universe_report_minutes: 60,
    digest: "batched",
  });
  assert.deepEqual(c.components, { modules: [], disabled: [] });
  assert.deepEqual(c.messenger.allowed_chat_ids, []);
});

Deno.test("parseConfig() gives an empty file every default", () => {
  const c = parseConfig("", "agent.toml");
  assert.deepEqual(c.models, { roles: {}, prices: {} });
  assert.equal(c.hub.port, 8790);
  assert.equal(c.ui.lang, undefined);
});

Deno.test("parseConfig() rejects a budget without a valid period in the spec's words", () => {
  const want = "agent.toml: [models.roles.brain] 'budget' needs 'period', one of day, week, month.";
  assert.equal(errorOf(`[models.roles.brain]\n${ROLE}budget = { usd = 1 }`), want);
  assert.equal(errorOf(`[models.roles.brain]\n${ROLE}budget = { usd = 1, period = "1mo" }`), want);
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}[models.roles.brain.budget]\nusd = 1\nperiod = "1d"`),
    want,
  );
  assert.equal(errorOf(`[models.roles.brain]\n${ROLE}budget = 5`), want);
});

Deno.test("parseConfig() accepts day, week and month and inline or table budgets", () => {
  for (const period of ["day", "week", "month"]) {
    const c = parseConfig(
      `[models.roles.r]\n${ROLE}budget = { usd = 2.5, period = "${period}" }`,
      "agent.toml",
    );
    assert.equal(c.models.roles.r?.budget?.period, period);
  }
});

Deno.test("parseConfig() names the whole stand-in loop", () => {
  const text = `[models.roles.a]\n${ROLE}budget = { usd = 1, period = "day", degrade_to = "b" }\n` +
    `[models.roles.b]\n${ROLE}failover = "a"\n`;
  assert.equal(
    errorOf(text),
    "agent.toml: [models.roles.a] stand-ins loop: a -> b -> a (budget.degrade_to and failover together).",
  );
  const three =
    `[models.roles.a]\n${ROLE}failover = "b"\n[models.roles.b]\n${ROLE}failover = "c"\n` +
    `[models.roles.c]\n${ROLE}budget = { usd = 1, period = "week", degrade_to = "a" }\n`;
  assert.match(errorOf(three), /stand-ins loop: a -> b -> c -> a \(/);
  assert.match(errorOf(`[models.roles.a]\n${ROLE}failover = "a"\n`), /stand-ins loop: a -> a \(/);
});

Deno.test("parseConfig() allows stand-in chains that do not loop", () => {
  const text =
    `[models.roles.a]\n${ROLE}failover = "b"\nbudget = { usd = 1, period = "day", degrade_to = "b" }\n` +
    `[models.roles.b]\n${ROLE}failover = "c"\n[models.roles.c]\n${ROLE}`;
  const c = parseConfig(text, "agent.toml");
  assert.equal(findLoop("a", c.models.roles), undefined);
});

Deno.test("parseConfig() tells a mistyped key as unknown, not as the key it misses", () => {
  assert.equal(
    errorOf(`[models.prices.m]\ninput = 1\noutpt = 2`),
    "agent.toml: [models.prices.m] has an unknown key 'outpt'. Did you mean 'output'?",
  );
  assert.equal(
    errorOf(`[models.prices.m]\ninput = 1\noutpt = 2`, "tr"),
    "agent.toml: [models.prices.m] bilinmeyen bir anahtar içeriyor: 'outpt'. 'output' mi demek istediniz?",
  );
});

Deno.test("parseConfig() rejects unknown keys naming the file, table and key", () => {
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}colour = "red"`),
    "agent.toml: [models.roles.brain] has an unknown key 'colour'. It takes: provider, model_id, max_tokens, context_tokens, params, budget, failover, fallback, cache.",
  );
  assert.equal(
    errorOf(`colour = 1`),
    "agent.toml: unknown table or key 'colour'. It takes: models, ui, sessions, messenger, hub, net, memory, tools, mcp, email, components.",
  );
  assert.equal(
    errorOf(`[models.prices."gpt-5.2"]\ninput = 1\noutput = 2\nbatch = 1`),
    `agent.toml: [models.prices."gpt-5.2"] has an unknown key 'batch'. It takes: input, output, cache_read, cache_write, cache_write_1h.`,
  );
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}budget = { usd = 1, period = "day", cap = 3 }`),
    "agent.toml: [models.roles.brain.budget] has an unknown key 'cap'. It takes: usd, period, degrade_to, warn_at, hard.",
  );
  assert.match(
    errorOf(`[net]\nfoo = 1`),
    /^agent\.toml: \[net\] has an unknown key 'foo'\. It takes: name, /,
  );
});

Deno.test("parseConfig() says which key an unknown one was most likely meant to be (issue 39 F21)", () => {
  assert.equal(
    errorOf(`[models.roles.brain]\nprovider = "fake"\nmodle_id = "f"`),
    "agent.toml: [models.roles.brain] has an unknown key 'modle_id'. Did you mean 'model_id'?",
  );
  assert.equal(
    errorOf(`[messenger]\nallowed-chat-ids = [1]`, "tr"),
    "agent.toml: [messenger] bilinmeyen bir anahtar içeriyor: 'allowed-chat-ids'. 'allowed_chat_ids' mi demek istediniz?",
  );
  assert.equal(
    errorOf(`[modles.roles.brain]\nprovider = "fake"`),
    "agent.toml: unknown table or key 'modles'. Did you mean 'models'?",
  );
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}failover = "fsat"\n[models.roles.fast]\n${ROLE}`),
    "agent.toml: [models.roles.brain] 'failover' names 'fsat', which is not a role in [models.roles]. Did you mean 'fast'?",
  );
  assert.equal(
    errorOf(`[net]\nuniverse_report_minute = 30`),
    "agent.toml: [net] has an unknown key 'universe_report_minute'. Did you mean 'universe_report_minutes'?",
  );
});

Deno.test("parseConfig() names the table and key of wrong values", () => {
  assert.equal(
    errorOf(`[models.roles.brain]\nprovider = "vendor-x"\nmodel_id = "m"`),
    "agent.toml: [models.roles.brain] 'provider' must be one of vendor-a, vendor-b, vendor-c, local-runtime, vendor-d, fake.",
  );
  assert.equal(
    errorOf(`[models.roles.brain]\nmodel_id = "m"`),
    "agent.toml: [models.roles.brain] needs 'provider'.",
  );
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}max_tokens = 0`),
    "agent.toml: [models.roles.brain] 'max_tokens' must be a whole number of 1 or more.",
  );
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}context_tokens = 10`),
    "agent.toml: [models.roles.brain] 'context_tokens' must be a whole number from 1000 to 10000000.",
  );
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}context_tokens = 10`, "tr"),
    "agent.toml: [models.roles.brain] 'context_tokens' 1000 ile 10000000 arasında bir tam sayı olmalı.",
  );
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}budget = { usd = 0, period = "day" }`),
    "agent.toml: [models.roles.brain.budget] 'usd' must be a positive number.",
  );
  assert.equal(
    errorOf(`[models.prices.m]\ninput = -1\noutput = 1`),
    "agent.toml: [models.prices.m] 'input' must be 0 or more.",
  );
  assert.equal(
    errorOf(`[models.prices.m]\ninput = 1`),
    "agent.toml: [models.prices.m] needs 'output'.",
  );
  assert.equal(
    errorOf(`[hub]\nport = 70000`),
    "agent.toml: [hub] 'port' must be a whole number from 1 to 65535.",
  );
  assert.equal(
    errorOf(`[net]\nuniverse_report_minutes = 4`),
    "agent.toml: [net] 'universe_report_minutes' must be a whole number from 5 to 1440.",
  );
  assert.equal(
    errorOf(`[net]\nstore = "cloud"`),
    "agent.toml: [net] 'store' must be one of file, spine.",
  );
  assert.equal(errorOf(`[ui]\nlang = "de"`), "agent.toml: [ui] 'lang' must be one of en, tr.");
  assert.equal(errorOf(`ui = 3`), "agent.toml: [ui] must be a table.");
  assert.equal(
    errorOf(`[sessions]\nbackend = "sql"`),
    "agent.toml: [sessions] 'backend' must be one of file, spine.",
  );
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}failover = "nobody"`),
    "agent.toml: [models.roles.brain] 'failover' names 'nobody', which is not a role in [models.roles].",
  );
  assert.equal(
    errorOf(`[models.roles.brain]\nprovider = "vendor-d"\nmodel_id = "anthropic.claude-x"`),
    "agent.toml: [models.roles.brain] 'model_id' for vendor-d must be a global inference profile id starting with 'global.'.",
  );
  assert.match(errorOf(`x = [`), /^agent\.toml: not valid TOML at line 1, column \d+: /);
});

Deno.test("parseConfig() calls a list with a wrong element a wrong list", () => {
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}params = { replies = ["a", 1] }`),
    "agent.toml: [models.roles.brain.params] 'replies' must be a list of strings.",
  );
  assert.equal(
    errorOf(`[components]\nmodules = [1]`),
    "agent.toml: [components] 'modules' must be a list of strings.",
  );
});

Deno.test("parseConfig() speaks Turkish when asked", () => {
  assert.equal(
    errorOf(`[models.roles.brain]\n${ROLE}budget = { usd = 1 }`, "tr"),
    "agent.toml: [models.roles.brain] 'budget' için 'period' gerekli: day, week veya month.",
  );
});

Deno.test("parseConfig() fills price and cache defaults and keeps chat ids as strings", () => {
  const c = parseConfig(
    `[models.roles.r]\n${ROLE}cache = { ttl = "1h" }\n[models.prices.m]\ninput = 2\noutput = 8\n` +
      `[messenger]\nallowed_chat_ids = [12345, "-100"]\n[net]\nname = "Ada"\n`,
    "agent.toml",
  );
  assert.deepEqual(c.models.prices.m, {
    input: 2,
    output: 8,
    cache_read: 2,
    cache_write: 2,
    cache_write_1h: 2,
  });
  assert.deepEqual(c.models.roles.r?.cache, { system: true, messages: true, ttl: "1h" });
  assert.deepEqual(c.messenger.allowed_chat_ids, ["12345", "-100"]);
  assert.equal(c.net.name, "Ada");
});

Deno.test("parseConfig() reads cache_write_1h, which defaults to cache_write", () => {
  const c = parseConfig(
    `[models.prices.a]\ninput = 3\noutput = 15\ncache_write = 3.75\ncache_write_1h = 6\n` +
      `[models.prices.b]\ninput = 3\noutput = 15\ncache_write = 3.75\n`,
    "agent.toml",
  );
  assert.equal(c.models.prices.a?.cache_write_1h, 6);
  assert.equal(c.models.prices.b?.cache_write_1h, 3.75);
  assert.match(
    errorOf(`[models.prices.a]\ninput = 3\noutput = 15\ncache_write_1h = -1`),
    /^agent\.toml: \[models\.prices\.a\] 'cache_write_1h' /,
  );
});

Deno.test("lookupPrice() prefers agent.toml over the shipped table", () => {
  const id = "gpt-5-mini";
  assert.ok(SHIPPED_PRICES[id]);
  const c = parseConfig(`[models.prices.${id}]\ninput = 9\noutput = 9\n`, "agent.toml");
  assert.equal(lookupPrice(c, id)?.input, 9);
  assert.equal(lookupPrice(defaultConfig(), id)?.input, SHIPPED_PRICES[id]?.input);
  assert.equal(lookupPrice(c, "constructor"), undefined);
  assert.equal(lookupPrice(c, "unknown-model"), undefined);
});

Deno.test("the shipped tables price every shipped hosted model with four prices", () => {
  for (const [provider, pair] of Object.entries(SHIPPED_MODELS)) {
    if (provider === "fake") continue;
    for (const id of [pair.brain, pair.fast]) {
      const p = SHIPPED_PRICES[id];
      assert.ok(p, `no shipped price for ${id}`);
      for (const v of [p.input, p.output, p.cache_read, p.cache_write, p.cache_write_1h]) {
        assert.ok(v >= 0);
      }
      assert.ok(p.cache_read <= p.input);
      assert.ok(p.cache_write_1h >= p.cache_write);
    }
  }
  for (const id of [SHIPPED_MODELS["vendor-d"].brain, SHIPPED_MODELS["vendor-d"].fast]) {
    assert.ok(id.startsWith("global."));
  }
});

Deno.test("loadConfig() reports a missing file with kind 'missing'", async () => {
  const home = await Deno.makeTempDir();
  try {
    const paths = resolvePaths({ home, env: {} });
    await assert.rejects(() => loadConfig(paths), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.kind, "missing");
      assert.match(e.message, /^agent\.toml: not found at .*; run 'agent init' to create it\.$/);
      return true;
    });
    await Deno.writeTextFile(paths.configFile, `[hub]\nport = 9000\n[models.roles.a]\n${ROLE}`);
    assert.equal((await loadConfig(paths)).hub.port, 9000);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("parseConfig() takes budget.warn_at from 0 to 1 and refuses anything else", () => {
  const role = (warn: string) =>
    `[models.roles.a]\n${ROLE}budget = { usd = 1, period = "day", warn_at = ${warn} }\n`;
  assert.equal(parseConfig(role("0"), "agent.toml").models.roles.a?.budget?.warn_at, 0);
  assert.equal(parseConfig(role("0.5"), "agent.toml").models.roles.a?.budget?.warn_at, 0.5);
  for (const bad of ["1.5", "-0.1"]) {
    assert.throws(
      () => parseConfig(role(bad), "agent.toml"),
      { message: "agent.toml: [models.roles.a.budget] 'warn_at' must be a number from 0 to 1." },
    );
  }
});
