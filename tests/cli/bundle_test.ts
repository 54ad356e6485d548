/**
 * `deno task bundle` writes `dist/agent.js`, one self-contained file (a launcher that
 * imports only `node:zlib` by name, the CLI's chunks packed on its last line), and the
 * new user's command list passes when it runs from an empty folder with a fresh HOME
 * and DENO_DIR: the first start unpacks the chunks into the cache. The test runs the
 * task's own command, writing into a temporary folder instead of `dist/`.
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
  name: "deno task bundle: one small file that unpacks its chunks once and passes the command list",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const work = await Deno.makeTempDir({ prefix: "agent-bundle-check-" });
    try {
      const task: string = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.bundle;
      assert.match(task, / _tools\/release\/one_file\.ts dist\/agent\.js$/);
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
      assert.deepEqual(imports, ["node:zlib"], "the launcher imports nothing else by name");
      const size = (await Deno.stat(bundle)).size;
      console.log(`bundle: ${(size / 1e6).toFixed(2)} MB, imports: ${imports.join(" ")}`);
      // Issue 39: the whole CLI read on every start took 0.2-0.4 s; packed, it is about a
      // third of its 9 MB of chunks (3.01 MB on 29.11.2026). The bound catches a packing that
      // stopped working, not each page the dashboard gains.
      assert.ok(size < 4e6, `${size} bytes`);

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

      // The first start unpacked the chunks into the cache once; none but the one that
      // calls require() loads Deno's Node layer (node:module) at the top.
      const cache = `${work}/home/.cache/agent`;
      const folders = [...Deno.readDirSync(cache)].map((e) => e.name);
      assert.equal(folders.length, 1, folders.join());
      assert.match(folders[0]!, /^bundle-[0-9a-f]{24}$/);
      const chunks = [...Deno.readDirSync(`${cache}/${folders[0]}`)].map((e) => e.name);
      assert.ok(chunks.includes("main.js") && chunks.length > 50, chunks.join());
      const withModule = chunks.filter((name) =>
        Deno.readTextFileSync(`${cache}/${folders[0]}/${name}`).includes('from "node:module"')
      );
      assert.deepEqual(withModule, ["_require.js"]);
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  },
});
