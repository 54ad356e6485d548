import assert from "node:assert/strict";
import { loadConfig } from "./read.ts";
import { ConfigError } from "./error.ts";
import { CONFIG_TEMPLATE } from "./template.ts";
import { resolvePaths } from "../paths.ts";
import { tempDir } from "../../tests/_temp_dir.ts";

/** Paths under a fresh home (removed when the test's `using` block ends) holding `text`. */
function home(text: string | undefined) {
  const tmp = tempDir();
  if (text !== undefined) Deno.writeTextFileSync(`${tmp.path}/agent.toml`, text);
  return Object.assign(resolvePaths({ home: tmp.path, env: {} }), {
    [Symbol.dispose]: () => tmp[Symbol.dispose](),
  });
}

Deno.test("loadConfig() keeps a valid configuration and reuses it while the text is unchanged", async () => {
  using paths = home(CONFIG_TEMPLATE);
  const first = await loadConfig(paths);
  const cacheFile = `${paths.dataDir}/cache/config.json`;
  assert.equal((await Deno.stat(cacheFile)).mode! & 0o777, 0o600);
  assert.deepEqual(await loadConfig(paths), first);
  // The entry is what answers: a marked entry comes back while the text is unchanged.
  const entry = JSON.parse(await Deno.readTextFile(cacheFile));
  entry.config.hub.port = 1;
  await Deno.writeTextFile(cacheFile, JSON.stringify(entry));
  assert.equal((await loadConfig(paths)).hub.port, 1);
});

Deno.test("loadConfig() validates again when the text changed", async () => {
  using paths = home(CONFIG_TEMPLATE);
  await loadConfig(paths);
  await Deno.writeTextFile(
    paths.configFile,
    CONFIG_TEMPLATE.replace(/^port = 8790$/m, "port = 9999"),
  );
  assert.equal((await loadConfig(paths)).hub.port, 9999);
});

Deno.test("loadConfig() never keeps an invalid configuration", async () => {
  using paths = home("[models.roles.brain]\nprovider = 'nope'\n");
  await assert.rejects(loadConfig(paths), ConfigError);
  await assert.rejects(Deno.stat(`${paths.dataDir}/cache/config.json`), Deno.errors.NotFound);
});

Deno.test("loadConfig() treats a half-written cache entry as a miss", async () => {
  using paths = home(CONFIG_TEMPLATE);
  await Deno.mkdir(`${paths.dataDir}/cache`, { recursive: true });
  await Deno.writeTextFile(`${paths.dataDir}/cache/config.json`, '{"fingerprint": "x", "te');
  assert.equal((await loadConfig(paths)).hub.port, 8790);
});

Deno.test("loadConfig() reports a missing file as ConfigError of kind missing", async () => {
  using paths = home(undefined);
  const error = await loadConfig(paths).catch((e) => e);
  assert.ok(error instanceof ConfigError);
  assert.equal(error.kind, "missing");
});

Deno.test("loadConfig() refuses an agent.toml with no role (an empty file), in en and tr", async () => {
  for (const text of ["", "[hub]\nport = 8790\n"]) {
    using paths = home(text);
    await assert.rejects(
      loadConfig(paths),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message ===
          "agent.toml: [models.roles] has no role, so nothing can answer; add one (`agent init --force` writes a working file).",
    );
    await assert.rejects(
      loadConfig(paths, { lang: "tr" }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.startsWith("agent.toml: [models.roles] içinde hiç rol yok"),
    );
  }
});
