import assert from "node:assert/strict";
import { versionLines } from "./_version_lines.ts";
import { BUILTIN_COMPONENTS } from "@agent/hub";
import { DISTRIBUTIONS, VERSION } from "@agent/hub/base";

Deno.test("DISTRIBUTIONS lists exactly the distributions built-in components belong to", () => {
  assert.deepEqual(
    DISTRIBUTIONS.map((d) => d.name).sort(),
    [...new Set(BUILTIN_COMPONENTS.map((c) => c.distribution))].sort(),
  );
});

Deno.test("every built-in component names a known distribution", () => {
  const known = new Set(DISTRIBUTIONS.map((d) => d.name));
  for (const c of BUILTIN_COMPONENTS) assert.ok(known.has(c.distribution), c.distribution);
});

Deno.test("versionLines() lists agent-core first with deno.json's version", async () => {
  const lines = versionLines();
  assert.equal(lines[0], `agent-core ${VERSION}`);
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assert.equal(VERSION, denoJson.version);
});

Deno.test("every workspace member's deno.json carries the same version", async () => {
  const root = new URL("../../", import.meta.url);
  const workspace = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).workspace;
  assert.ok(Array.isArray(workspace) && workspace.length === 6, String(workspace));
  for (const member of workspace as string[]) {
    const json = JSON.parse(await Deno.readTextFile(new URL(`${member}/deno.json`, root)));
    assert.equal(json.version, VERSION, member);
  }
});
