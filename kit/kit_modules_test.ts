import assert from "node:assert/strict";
import { SPINE_KIT_FILES, SPINE_KIT_VERSION } from "./_spine_kit.ts";
import { UNIVERSE_KIT_FILES } from "./_universe_kit.ts";
import { parseJsonc } from "./_jsonc.ts";
import { SPINE_VERSION } from "@agent/spine";

const KIT = new URL("./spine/", import.meta.url).pathname;

async function kitFiles(dir: string, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${dir}${prefix}`)) {
    if (entry.isDirectory) names.push(...await kitFiles(dir, `${prefix}${entry.name}/`));
    else names.push(`${prefix}${entry.name}`);
  }
  return names.sort();
}

Deno.test("_spine_kit.ts holds every file of kit/spine/ byte for byte, and nothing else", async () => {
  const files = await kitFiles(KIT);
  assert.ok(files.includes("worker.js") && files.includes("cloud/Dockerfile"), String(files));
  assert.deepEqual(Object.keys(SPINE_KIT_FILES).sort(), files);
  for (const name of files) {
    const bytes = await Deno.readFile(`${KIT}${name}`);
    assert.deepEqual(new TextEncoder().encode(SPINE_KIT_FILES[name]), bytes, name);
  }
});

Deno.test("SPINE_KIT_VERSION is the kit's VERSION file and the spine's version", async () => {
  assert.equal(SPINE_KIT_VERSION, (await Deno.readTextFile(`${KIT}VERSION`)).trim());
  assert.equal(SPINE_KIT_VERSION, SPINE_VERSION);
});

Deno.test("the deployable universe keeps the dashboard's UNIVERSE: keep_vars, no UNIVERSE var", () => {
  const config = parseJsonc(UNIVERSE_KIT_FILES["wrangler.jsonc"]!);
  assert.equal(config.keep_vars, true);
  assert.equal(config.main, "worker.js");
  assert.equal("UNIVERSE" in config.vars, false);
  assert.equal(config.vars.ALLOW_INSECURE_PEERS, "0");
  assert.match(UNIVERSE_KIT_FILES["worker.js"]!, /^\/\/ agent universe: generated/);
  const pkg = JSON.parse(UNIVERSE_KIT_FILES["package.json"]!);
  assert.match(pkg.devDependencies.wrangler, /^\d+\.\d+\.\d+$/);
});
