import assert from "node:assert/strict";
import {
  brainBundle,
  BrainBundleError,
  brainBundleSource,
  REMOTE_BUNDLE_IMPORTS,
} from "./brain_bundle.ts";

Deno.test("brainBundleSource() copies a running bundle, bundles a checkout or a package, refuses a binary", () => {
  assert.deepEqual(brainBundleSource("file:///opt/agent/agent.js", false), {
    kind: "copy",
    path: "/opt/agent/agent.js",
  });
  assert.deepEqual(brainBundleSource("file:///home/me/my%20agent/dist/agent.mjs", false), {
    kind: "copy",
    path: "/home/me/my agent/dist/agent.mjs",
  });
  // A compiled binary made from the bundle: its main module is the bundle, tried as a copy.
  assert.equal(
    brainBundleSource("file:///tmp/deno-compile-agent/dist/agent.js", true).kind,
    "copy",
  );
  assert.deepEqual(brainBundleSource("file:///src/agent/cli/main.ts", false), {
    kind: "bundle",
    entry: "/src/agent/cli/main.ts",
    cwd: "/src/agent/cli",
  });
  assert.deepEqual(brainBundleSource("https://jsr.io/@agent/cli/0.1.0/main.ts", false), {
    kind: "bundle",
    entry: "https://jsr.io/@agent/cli/0.1.0/main.ts",
    cwd: undefined,
  });
  assert.deepEqual(brainBundleSource("file:///tmp/deno-compile-agent/cli/main.ts", true), {
    kind: "compiled",
  });
  assert.deepEqual(brainBundleSource("https://jsr.io/@agent/cli/0.1.0/main.ts", true), {
    kind: "compiled",
  });
});

Deno.test("brainBundle() copies the running bundle or the file given, byte for byte", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bytes = new TextEncoder().encode("// the whole agent\nconsole.log(1);\n");
    await Deno.writeFile(`${dir}/agent.js`, bytes);
    const self = await brainBundle({ mainModule: `file://${dir}/agent.js`, standalone: false });
    assert.deepEqual([self.origin, self.bytes], ["self", bytes]);
    const given = await brainBundle({ file: `${dir}/agent.js`, mainModule: "file:///x/main.ts" });
    assert.deepEqual([given.origin, given.bytes], ["file", bytes]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("brainBundle() refuses a missing, empty or folder bundle, and a binary without one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/empty.js`, new Uint8Array());
    const refusal = async (options: Parameters<typeof brainBundle>[0]) => {
      const error = await brainBundle(options).then(() => undefined, (e) => e);
      assert.ok(error instanceof BrainBundleError, String(error));
      return [error.problem, error.subject];
    };
    assert.deepEqual(await refusal({ file: `${dir}/nope.js` }), ["not_found", `${dir}/nope.js`]);
    assert.deepEqual(await refusal({ file: `${dir}/empty.js` }), ["empty", `${dir}/empty.js`]);
    assert.deepEqual(await refusal({ file: dir }), ["not_a_file", dir]);
    assert.deepEqual(
      await refusal({ mainModule: "file:///tmp/deno-compile-agent/cli/main.ts", standalone: true }),
      ["compiled", ""],
    );
    // A binary whose embedded bundle cannot be read asks for --bundle too.
    assert.deepEqual(
      await refusal({ mainModule: `file://${dir}/gone/agent.js`, standalone: true }),
      ["compiled", ""],
    );
    // Outside a binary, a running bundle that is gone says so.
    assert.deepEqual(
      await refusal({ mainModule: `file://${dir}/gone/agent.js`, standalone: false }),
      ["not_found", `${dir}/gone/agent.js`],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("REMOTE_BUNDLE_IMPORTS pins what the workspace maps for the checkout's bundle", async () => {
  const root = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  for (const [name, specifier] of Object.entries(REMOTE_BUNDLE_IMPORTS)) {
    assert.equal(specifier, root.imports[name], name);
  }
});
