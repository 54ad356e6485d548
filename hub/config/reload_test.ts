import assert from "node:assert/strict";
import { resolvePaths } from "../paths.ts";
import { setupHome } from "./setup.ts";
import { loadConfig } from "./read.ts";
import { ConfigError } from "./error.ts";
import { configReloader } from "./reload.ts";

Deno.test("configReloader() applies [models] in place, names other sections for a restart, and leaves a bad file unapplied", async () => {
  const home = await Deno.makeTempDir({ prefix: "agent-reload-" });
  try {
    const paths = resolvePaths({ home, env: {} });
    await setupHome(paths, { provider: "fake", language: "en", env: {} });
    const config = await loadConfig(paths, { lang: "en" });
    const roles = config.models.roles;
    let reloads = 0;
    const reload = configReloader({
      config,
      paths,
      lang: "en",
      router: { reload: () => reloads++ },
    });
    // Nothing changed: nothing applied, the router still decides again (a credential
    // may have been saved).
    assert.deepEqual(await reload(), { applied: [], restart: [] });
    assert.equal(reloads, 1);

    const text = await Deno.readTextFile(paths.configFile);
    await Deno.writeTextFile(
      paths.configFile,
      text.replace('model_id = "fake-brain"', 'model_id = "fake-brain-2"')
        .replace('digest = "batched"', 'digest = "daily"'),
    );
    assert.deepEqual(await reload(), { applied: ["models"], restart: ["net"] });
    assert.equal(config.models.roles.brain?.model_id, "fake-brain-2");
    assert.notEqual(config.models.roles, roles);
    // `[net]` is not applied: the running network keeps what it started with.
    assert.equal(config.net.digest, "batched");
    assert.equal(reloads, 2);

    // A bad file: the reader's sentence, nothing applied, the router left alone.
    await Deno.writeTextFile(
      paths.configFile,
      text.replace('provider = "fake"', 'provider = "nope"'),
    );
    const error = await reload().then(() => undefined, (e) => e);
    assert.ok(error instanceof ConfigError, String(error));
    const cli = await loadConfig(paths, { lang: "en" }).then(() => "", (e) => e.message);
    assert.equal(error.message, cli);
    assert.equal(config.models.roles.brain?.model_id, "fake-brain-2");
    assert.equal(reloads, 2);
    // The next good reload still runs (a failure does not block the queue).
    // Back to the file the hub started with: [net] no longer differs.
    await Deno.writeTextFile(paths.configFile, text);
    assert.deepEqual(await reload(), { applied: ["models"], restart: [] });
    assert.equal(config.models.roles.brain?.model_id, "fake-brain");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
