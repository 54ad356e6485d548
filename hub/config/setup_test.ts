import assert from "node:assert/strict";
import { defaultProvider, setupHome, setupNeedsLanguage } from "./setup.ts";
import { rewriteTemplate } from "./setup_files.ts";
import { CONFIG_TEMPLATE } from "./template.ts";
import { parseConfig } from "./parse.ts";
import { resolvePaths } from "../paths.ts";

Deno.test("rewriteTemplate() changes only brain/fast/memory provider and model_id and [ui] lang", () => {
  const text = rewriteTemplate(CONFIG_TEMPLATE, {
    provider: "vendor-b",
    brain: "b-model",
    fast: "f-model",
    lang: "tr",
  });
  const c = parseConfig(text, "agent.toml");
  assert.equal(c.models.roles.brain?.model_id, "b-model");
  assert.equal(c.models.roles.fast?.model_id, "f-model");
  // The memory role runs on the fast model, under its own hard daily cap.
  assert.equal(c.models.roles.memory?.model_id, "f-model");
  assert.deepEqual(c.models.roles.memory?.budget, {
    usd: 0.5,
    period: "day",
    hard: true,
    warn_at: 0.8,
  });
  assert.equal(c.models.roles.local?.provider, "local-runtime");
  assert.equal(c.ui.lang, "tr");
  const before = CONFIG_TEMPLATE.split("\n");
  const changed = text.split("\n").filter((line, i) => line !== before[i]);
  assert.equal(changed.length, 7);
});

Deno.test("rewriteTemplate() gives brain, fast and memory a params line with the choice's reasoning effort", () => {
  const text = rewriteTemplate(CONFIG_TEMPLATE, {
    provider: "vendor-b",
    brain: "b-model",
    fast: "f-model",
    lang: "en",
    reasoning_effort: "none",
  });
  const c = parseConfig(text, "agent.toml");
  assert.deepEqual(c.models.roles.brain?.params.reasoning_effort, "none");
  assert.deepEqual(c.models.roles.fast?.params.reasoning_effort, "none");
  assert.deepEqual(c.models.roles.brain?.budget?.usd, 15);
  assert.deepEqual(c.models.roles.memory?.params.reasoning_effort, "none");
  assert.equal(text.split("\n").length, CONFIG_TEMPLATE.split("\n").length + 3);
});

Deno.test("defaultProvider() takes the first provider with credentials, else fake", () => {
  assert.equal(defaultProvider({}), "fake");
  assert.equal(defaultProvider({ VENDOR_C_API_KEY: "k", VENDOR_B_API_KEY: "k" }), "vendor-b");
  assert.equal(defaultProvider({ VENDOR_A_API_KEY: "" }), "fake");
});

Deno.test("setupHome() keeps files, and force overwrites agent.toml and persona.md only", async () => {
  const home = await Deno.makeTempDir();
  try {
    const paths = resolvePaths({ home, env: {} });
    assert.equal(await setupNeedsLanguage(paths, false), true);
    const first = await setupHome(paths, { language: "en", env: {} });
    assert.ok(first.steps.every((s) => s.action === "created"));
    assert.equal(first.provider, "fake");
    assert.equal(first.missingVariable, undefined);
    assert.equal(await setupNeedsLanguage(paths, false), false);
    const second = await setupHome(paths, { language: "tr", env: {}, provider: "vendor-a" });
    assert.ok(second.steps.every((s) => s.action === "kept"));
    assert.equal(second.wroteConfig, false);
    const third = await setupHome(paths, { language: "tr", env: {}, force: true, profile: "p" });
    assert.deepEqual(
      third.steps.map((s) => s.action),
      ["overwrote", "overwrote", "kept", "kept", "kept"],
    );
    assert.deepEqual(third.profile, { name: "p", action: "set" });
    const vendorA = await setupHome(paths, {
      language: "en",
      env: {},
      force: true,
      provider: "vendor-a",
    });
    assert.equal(vendorA.missingVariable, "VENDOR_A_API_KEY");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
