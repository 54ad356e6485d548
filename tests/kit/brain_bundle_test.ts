/**
 * `brainBundle()` making a bundle with `deno bundle`: from a checkout's entry file (in its
 * folder) and from a package's URL on a registry that is not jsr.io (as an install from
 * a `JSR_URL` registry runs), both into one module with only `node:` imports that runs;
 * a failing bundle is one line naming the bundler's error. (`tests/kit/
 * spine_init_cloud_test.ts` bundles the real CLI.)
 */
import assert from "node:assert/strict";
import { brainBundle, BrainBundleError } from "@agent/kit/spine";
import { cleanup, tempHome } from "../cli/_run.ts";

const FILES: Record<string, string> = {
  "main.ts": 'import { greet } from "./lib.ts";\nconsole.log(greet("brain"));\n',
  "lib.ts": 'import { join } from "node:path";\n' +
    'export function greet(who: string): string {\n  return join("hello", who);\n}\n',
};

/** A package as the registry serves it: its CLI module exports `exitWithMain`. */
const PACKAGE: Record<string, string> = {
  "main.ts": 'import { greet } from "./lib.ts";\n' +
    'export function exitWithMain(): void {\n  console.log(greet("brain"));\n}\n',
  "lib.ts": FILES["lib.ts"]!,
};

async function runs(bytes: Uint8Array): Promise<string> {
  const dir = await tempHome();
  await Deno.writeFile(`${dir}/agent.js`, bytes);
  const text = new TextDecoder().decode(bytes);
  assert.ok(!/from\s*"\.\/lib\.ts"/.test(text), text);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", `${dir}/agent.js`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("brainBundle() bundles a checkout's entry file in its folder", async () => {
  try {
    const src = await tempHome();
    for (const [name, text] of Object.entries(FILES)) {
      await Deno.writeTextFile(`${src}/${name}`, text);
    }
    const made = await brainBundle({ mainModule: `file://${src}/main.ts`, standalone: false });
    assert.equal(made.origin, "bundled");
    assert.equal(await runs(made.bytes), "hello/brain\n");
  } finally {
    await cleanup();
  }
});

Deno.test({
  name:
    "brainBundle() bundles a package's URL on a registry of its own, in a folder of its own (never the caller's)",
  sanitizeResources: false,
  async fn() {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
      const text = PACKAGE[new URL(request.url).pathname.replace(/^\/pkg\//, "")];
      return text === undefined
        ? new Response("not found", { status: 404 })
        : new Response(text, { headers: { "content-type": "application/typescript" } });
    });
    try {
      // Each Deno the bundler starts notes the folder it runs in. The test's own folder
      // (and any deno.json there) must not be it: the package is bundled in a folder of
      // its own. (The folder is noted rather than changed here: files that run side by
      // side share the process's working folder.)
      const bin = await tempHome();
      await Deno.writeTextFile(
        `${bin}/deno`,
        `#!/bin/sh\npwd >> "${bin}/cwds"\nexec "${Deno.execPath()}" "$@"\n`,
      );
      await Deno.chmod(`${bin}/deno`, 0o755);
      const made = await brainBundle({
        mainModule: `http://127.0.0.1:${server.addr.port}/pkg/main.ts`,
        standalone: false,
        deno: `${bin}/deno`,
      });
      assert.equal(made.origin, "bundled");
      assert.equal(await runs(made.bytes), "hello/brain\n");
      const cwds = (await Deno.readTextFile(`${bin}/cwds`)).trim().split("\n");
      assert.ok(cwds.length >= 1);
      for (const cwd of cwds) {
        assert.notEqual(cwd, Deno.cwd());
        assert.match(cwd, /\/agent-bundle-[^/]+$/);
      }
    } finally {
      await server.shutdown();
      await cleanup();
    }
  },
});

Deno.test("brainBundle() says in one line why deno bundle failed", async () => {
  try {
    const src = await tempHome();
    await Deno.writeTextFile(`${src}/main.ts`, 'import "./missing.ts";\n');
    const error = await brainBundle({ mainModule: `file://${src}/main.ts`, standalone: false })
      .then(() => undefined, (e) => e);
    assert.ok(error instanceof BrainBundleError, String(error));
    assert.equal(error.problem, "bundle_failed");
    assert.match(error.subject, /missing\.ts/);
    assert.ok(!error.subject.includes("\n"));
  } finally {
    await cleanup();
  }
});
