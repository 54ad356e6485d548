import {
  IdentityFileError,
  identityFilePath,
  initIdentity,
  loadIdentity,
} from "./identity_file.ts";
import { generateIdentity, identityToEnv, identityToJson } from "@agent/net";
import { resolvePaths } from "../paths.ts";
import assert from "node:assert/strict";

async function tempPaths() {
  const home = await Deno.makeTempDir();
  return { home, paths: resolvePaths({ home, env: { HOME: home } }) };
}

Deno.test("initIdentity() creates identity.json 0600 in a 0700 folder", async () => {
  const { home, paths } = await tempPaths();
  try {
    assert.deepEqual(await loadIdentity(paths, {}), undefined);
    const made = await initIdentity(paths, {});
    assert.ok(made.created);
    assert.deepEqual(made.source, "file");
    const file = identityFilePath(paths);
    assert.deepEqual(made.file, file);
    assert.deepEqual((await Deno.stat(file)).mode! & 0o777, 0o600);
    assert.deepEqual((await Deno.stat(paths.netDir)).mode! & 0o777, 0o700);
    const json = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(Object.keys(json), ["v", "sign_seed", "box_seed"]);
    assert.deepEqual(json, identityToJson(made.identity));
    const loaded = await loadIdentity(paths, {});
    assert.deepEqual(loaded?.identity.signKey, made.identity.signKey);
    // No temporary files are left behind.
    assert.deepEqual([...Deno.readDirSync(paths.netDir)].map((e) => e.name), [
      "identity.json",
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("initIdentity() never overwrites an existing identity", async () => {
  const { home, paths } = await tempPaths();
  try {
    const first = await initIdentity(paths, {});
    const before = await Deno.readTextFile(identityFilePath(paths));
    const second = await initIdentity(paths, {});
    assert.deepEqual(second.created, false);
    assert.deepEqual(second.identity.signKey, first.identity.signKey);
    assert.deepEqual(await Deno.readTextFile(identityFilePath(paths)), before);
    // Concurrent inits agree on one identity.
    const { home: h2, paths: p2 } = await tempPaths();
    const results = await Promise.all([initIdentity(p2, {}), initIdentity(p2, {})]);
    assert.deepEqual(results[0].identity.signKey, results[1].identity.signKey);
    await Deno.remove(h2, { recursive: true });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("loadIdentity() prefers AGENT_NET_IDENTITY over the file", async () => {
  const { home, paths } = await tempPaths();
  try {
    await initIdentity(paths, {});
    const cloud = await generateIdentity();
    const env = { AGENT_NET_IDENTITY: identityToEnv(cloud) };
    const loaded = await loadIdentity(paths, env);
    assert.deepEqual(loaded?.source, "env");
    assert.deepEqual(loaded?.identity.boxKey, cloud.boxKey);
    const init = await initIdentity(paths, env);
    assert.deepEqual(init.created, false);
    assert.deepEqual(init.identity.signKey, cloud.signKey);
    // An empty variable counts as unset.
    assert.deepEqual((await loadIdentity(paths, { AGENT_NET_IDENTITY: "" }))?.source, "file");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("initIdentity() with AGENT_NET_IDENTITY set writes no file", async () => {
  const { home, paths } = await tempPaths();
  try {
    const env = { AGENT_NET_IDENTITY: identityToEnv(await generateIdentity()) };
    const r = await initIdentity(paths, env);
    assert.deepEqual(r.source, "env");
    await assert.rejects(() => Deno.stat(identityFilePath(paths)), Deno.errors.NotFound);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("loadIdentity() names a broken file or variable without leaking it", async () => {
  const { home, paths } = await tempPaths();
  try {
    await Deno.mkdir(paths.netDir, { recursive: true });
    await Deno.writeTextFile(identityFilePath(paths), '{"v":1,"sign_seed":"secretish"}');
    await assert.rejects(() => loadIdentity(paths, {}), (err: Error) => {
      assert.ok(err instanceof IdentityFileError);
      assert.match(err.message, /identity\.json is not a valid identity/);
      assert.ok(!err.message.includes("secretish"));
      return true;
    });
    await assert.rejects(() => initIdentity(paths, {}), IdentityFileError);
    await assert.rejects(
      () => loadIdentity(paths, { AGENT_NET_IDENTITY: "bm90IGpzb24" }),
      /AGENT_NET_IDENTITY is not a base64url-encoded identity JSON/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
