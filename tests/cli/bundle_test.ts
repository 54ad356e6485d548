/**
 * One bundle, three uses: `deno task bundle` writes `dist/agent.js`, self-contained
 * (only `node:` imports), and the new user's command list passes when it runs from an
 * empty folder with a fresh HOME and DENO_DIR. The test runs the task's own command,
 * writing into a temporary folder instead of `dist/`.
 */
import assert from "node:assert/strict";
import { AGENT_FLAGS } from "../_agent_flags.ts";
import { checkCommandList } from "../../_tools/release/_command_list.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * The specifiers of every import (static and dynamic) of a module file, by `deno info`.
 * Type-only references are left out: `deno info` also reads JSDoc `import('stream')`
 * types in comments (the MIME packages of the e-mail channel have them), which load
 * nothing at run time.
 */
export async function importsOf(file: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-config", file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const specifiers = new Set<string>();
  for (const module of info.modules) {
    for (const dep of module.dependencies ?? []) {
      if (dep.code !== undefined) specifiers.add(dep.specifier);
    }
  }
  return [...specifiers].sort();
}

Deno.test({
  name: "deno task bundle: dist/agent.js imports only node: modules and passes the command list",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const work = await Deno.makeTempDir({ prefix: "agent-bundle-check-" });
    try {
      const task: string = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.bundle;
      assert.equal(task, "deno bundle --platform=deno --output dist/agent.js cli/main.ts");
      const bundle = `${work}/app/agent.js`;
      const args = task.split(" ").slice(1).map((w) => w === "dist/agent.js" ? bundle : w);
      const built = await new Deno.Command(Deno.execPath(), {
        args: [...args.slice(0, 1), "--quiet", ...args.slice(1)],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));
      const imports = await importsOf(bundle);
      assert.ok(imports.length > 0);
      assert.deepEqual(imports.filter((s) => !s.startsWith("node:")), []);
      const size = (await Deno.stat(bundle)).size;
      console.log(`bundle: ${(size / 1e6).toFixed(2)} MB, imports: ${imports.join(" ")}`);

      for (const dir of ["empty", "home", "deno"]) await Deno.mkdir(`${work}/${dir}`);
      await checkCommandList({
        command: [Deno.execPath(), "run", "--quiet", ...AGENT_FLAGS, bundle],
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          HOME: `${work}/home`,
          DENO_DIR: `${work}/deno`,
          NO_COLOR: "1",
        },
        cwd: `${work}/empty`,
        unitHolds: [`${AGENT_FLAGS.join(" ")} --no-config ${bundle} --home`],
      }, { log: (line) => console.log(line) });
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  },
});
