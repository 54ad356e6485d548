import assert from "node:assert/strict";
import { parseConfig } from "../config/parse.ts";
import { resolvePaths } from "../paths.ts";
import { localRuntimeCheck } from "./doctor.ts";
import { loadComponents } from "../app/components.ts";
import { freePort } from "../../tests/_port.ts";

Deno.test("localRuntimeCheck() says whether each local-runtime role's model is pulled", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ models: [{ name: "llama3.2:latest" }, { name: "qwen3:4b" }] }),
  );
  const closedPort = freePort();
  try {
    const config = parseConfig(
      `[models.roles.a]
provider = "local-runtime"
model_id = "llama3.2"
[models.roles.b]
provider = "local-runtime"
model_id = "mistral"
[models.roles.c]
provider = "local-runtime"
model_id = "qwen3:4b"
failover = "d"
[models.roles.c.params]
base_url = "http://127.0.0.1:${closedPort}"
[models.roles.d]
provider = "fake"
model_id = "f"
`,
      "agent.toml",
    );
    const results = await localRuntimeCheck({
      paths: resolvePaths({ env: { HOME: "/tmp" } }),
      env: { AGENT_LOCAL_RUNTIME_URL: `http://127.0.0.1:${server.addr.port}` },
      lang: "en",
      config,
      configError: undefined,
      registry: () => loadComponents(undefined, resolvePaths({ home: "/nowhere", env: {} })),
      now: Date.now(),
    });
    const base = `http://127.0.0.1:${server.addr.port}`;
    assert.deepEqual(results, [
      {
        name: "role a",
        status: "ok",
        detail: `local-runtime llama3.2 at ${base} (pulled there)`,
      },
      {
        name: "role b",
        status: "warn",
        detail:
          `local-runtime mistral at ${base} is not pulled there (it has llama3.2:latest, qwen3:4b); pull it on the server`,
      },
      {
        name: "role c",
        status: "info",
        detail:
          `local-runtime qwen3:4b: the local server is not reachable (http://127.0.0.1:${closedPort}: connection refused); d answers instead`,
      },
    ]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("localRuntimeCheck() speaks Turkish with lang tr", async () => {
  const port = freePort();
  const config = parseConfig(
    `[models.roles.local]
provider = "local-runtime"
model_id = "qwen3:4b"
failover = "fast"
[models.roles.local.params]
base_url = "http://127.0.0.1:${port}"
[models.roles.fast]
provider = "fake"
model_id = "f"
`,
    "agent.toml",
  );
  const results = await localRuntimeCheck({
    paths: resolvePaths({ env: { HOME: "/tmp" } }),
    env: {},
    lang: "tr",
    config,
    configError: undefined,
    registry: () => loadComponents(undefined, resolvePaths({ home: "/nowhere", env: {} })),
    now: Date.now(),
  });
  assert.deepEqual(results, [{
    name: "role local",
    status: "info",
    detail:
      `local-runtime qwen3:4b: yerel sunucuya ulaşılamıyor (http://127.0.0.1:${port}: bağlantı reddedildi); onun yerine fast yanıtlar`,
  }]);
});
