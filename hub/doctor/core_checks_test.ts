import assert from "node:assert/strict";
import { configCheck, envCheck, rolesCheck, sessionsCheck } from "./core_checks.ts";
import type { DoctorContext } from "./types.ts";
import { ConfigError } from "../config/error.ts";
import { parseConfig } from "../config/parse.ts";
import { resolvePaths } from "../paths.ts";
import { loadComponents } from "../app/components.ts";

function ctx(toml: string | undefined, env: Record<string, string> = {}, home = "/nowhere") {
  const paths = resolvePaths({ home, env: {} });
  const config = toml === undefined ? undefined : parseConfig(toml, "agent.toml");
  const d: DoctorContext = {
    paths,
    env,
    lang: "en",
    config,
    configError: undefined,
    registry: () => loadComponents(config, paths),
    now: 0,
  };
  return d;
}

Deno.test("rolesCheck() passes a role whose fallback has credentials with a warning", async () => {
  const d = ctx(
    `[models.roles.brain]\nprovider = "vendor-a"\nmodel_id = "claude-haiku-4-5"\n` +
      `fallback = { provider = "vendor-b", model_id = "gpt-5-mini" }\n`,
    { VENDOR_B_API_KEY: "k" },
  );
  assert.deepEqual(await rolesCheck(d), [{
    name: "role brain",
    status: "warn",
    detail:
      "provider 'vendor-a' is missing VENDOR_A_API_KEY, so its fallback vendor-b gpt-5-mini answers",
  }]);
});

Deno.test("rolesCheck() leaves a local-runtime role's line to the local server check", async () => {
  const d = ctx(
    `[models.roles.brain]\nprovider = "fake"\nmodel_id = "f"\n` +
      `[models.roles.l]\nprovider = "local-runtime"\nmodel_id = "qwen3:4b"\n` +
      `budget = { usd = 1, period = "day" }\n`,
    { AGENT_LOCAL_RUNTIME_URL: "http://10.0.0.2:11434" },
  );
  assert.deepEqual(await rolesCheck(d), [{ name: "role brain", status: "ok", detail: "fake f" }]);
});

Deno.test("rolesCheck() fails without a brain role: chat starts on it", async () => {
  const d = ctx(`[models.roles.thinker]\nprovider = "fake"\nmodel_id = "f"\n`);
  assert.deepEqual((await rolesCheck(d)).at(-1), {
    name: "roles",
    status: "fail",
    detail:
      "there is no role 'brain' in [models.roles]; chat, the TUI and the messenger start on it, so they cannot start",
  });
});

Deno.test("configCheck() shows the configuration error's own sentence", async () => {
  const d = ctx(undefined);
  d.configError = new ConfigError("agent.toml: [hub] has an unknown key 'x'.");
  assert.deepEqual(await configCheck(d), [{
    name: "config",
    status: "fail",
    detail: "agent.toml: [hub] has an unknown key 'x'.",
  }]);
});

Deno.test("envCheck() is quiet when every name is listed", async () => {
  const home = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${home}/.env`, "A=1\n", { mode: 0o600 });
    await Deno.writeTextFile(`${home}/.env.example`, "# names\nA=\nB=\n");
    assert.deepEqual(await envCheck(ctx(undefined, {}, home)), [{
      name: ".env",
      status: "ok",
      detail: "every name in .env (1) is listed in .env.example",
    }]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("sessionsCheck() fails a backend that no enabled component provides", async () => {
  const home = await Deno.makeTempDir();
  try {
    const spine = ctx(`[sessions]\nbackend = "spine"\n[components]\ndisabled = ["spine"]`, {
      AGENT_SPINE_URL: "u",
      AGENT_SPINE_TOKEN: "t",
    }, home);
    assert.deepEqual(await sessionsCheck(spine), [{
      name: "sessions",
      status: "fail",
      detail:
        "backend 'spine' is not provided by any enabled agent.sessions component; see 'agent components'",
    }]);
    const off = ctx(`[components]\ndisabled = ["file"]`, {}, home);
    assert.equal((await sessionsCheck(off))[0]?.status, "fail");
    const file = ctx(`[sessions]\nbackend = "file"`, {}, home);
    assert.equal((await sessionsCheck(file))[0]?.status, "ok");
    const provided = ctx(`[sessions]\nbackend = "spine"`, {
      AGENT_SPINE_URL: "https://spine.example",
      AGENT_SPINE_TOKEN: "t",
    }, home);
    assert.equal((await sessionsCheck(provided))[0]?.status, "ok");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
