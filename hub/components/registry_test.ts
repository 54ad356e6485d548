import assert from "node:assert/strict";
import { loadRegistry, resolveSpecifier } from "./registry.ts";
import { BUILTIN_COMPONENTS } from "../app/components.ts";
import { parseConfig } from "../config/parse.ts";
import { resolvePaths } from "../paths.ts";

const paths = resolvePaths({ home: "/home/u/.agent", env: {} });

function configWith(modules: string[], disabled: string[] = []) {
  return parseConfig(
    `[components]\nmodules = ${JSON.stringify(modules)}\ndisabled = ${JSON.stringify(disabled)}\n`,
    "agent.toml",
  );
}

Deno.test("resolveSpecifier() resolves relative paths against the home", () => {
  assert.equal(resolveSpecifier("./x.ts", "/home/u/.agent"), "file:///home/u/.agent/x.ts");
  assert.equal(resolveSpecifier("comp/x.ts", "/h"), "file:///h/comp/x.ts");
  assert.equal(resolveSpecifier("/abs/x.ts", "/h"), "file:///abs/x.ts");
  assert.equal(resolveSpecifier("npm:agent-weather@1", "/h"), "npm:agent-weather@1");
  assert.equal(resolveSpecifier("file:///y.ts", "/h"), "file:///y.ts");
});

Deno.test("loadRegistry() adds manifest components and reports load errors", async () => {
  const modules: Record<string, Record<string, unknown>> = {
    "file:///home/u/.agent/good.ts": {
      manifest: {
        distribution: "agent-good",
        version: "2.0.0",
        components: [{ group: "agent.tools", name: "weather", tier: 0 }],
      },
    },
    "file:///home/u/.agent/empty.ts": {},
    "file:///home/u/.agent/bad.ts": { manifest: { distribution: "agent-bad", version: "1" } },
  };
  const registry = await loadRegistry(
    configWith(["./good.ts", "./empty.ts", "./bad.ts", "./throws.ts"], ["weather", "ghost"]),
    paths,
    {
      builtins: BUILTIN_COMPONENTS,
      importModule: (spec) => {
        const found = modules[spec];
        return found
          ? Promise.resolve(found)
          : Promise.reject(new Error(`Module not found ${spec}`));
      },
    },
  );
  const weather = registry.components.find((c) => c.name === "weather");
  assert.deepEqual(
    weather && { ...weather },
    {
      group: "agent.tools",
      name: "weather",
      tier: 0,
      distribution: "agent-good",
      version: "2.0.0",
      source: "./good.ts",
      enabled: false,
    },
  );
  assert.deepEqual(registry.errors, [
    { module: "./empty.ts", detail: "it exports no 'manifest'" },
    { module: "./bad.ts", detail: "'components' in its manifest is missing or not valid" },
    { module: "./throws.ts", detail: "Module not found file:///home/u/.agent/throws.ts" },
  ]);
  assert.deepEqual(registry.unknownDisabled, ["ghost"]);
  assert.ok(registry.components.some((c) => c.group === "agent.providers" && c.name === "fake"));
});

Deno.test("loadRegistry() without a configuration lists the built-ins, all enabled", async () => {
  const registry = await loadRegistry(undefined, paths, {
    builtins: BUILTIN_COMPONENTS,
    extraBuiltins: [{ group: "agent.commands", name: "extra" }],
  });
  assert.ok(registry.components.every((c) => c.enabled && c.source === "builtin"));
  assert.ok(registry.components.some((c) => c.name === "extra" && c.distribution === "agent-core"));
  assert.deepEqual(registry.errors, []);
});
