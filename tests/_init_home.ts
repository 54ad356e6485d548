/**
 * A fresh home as `agent init --yes --provider fake` writes it, for the end-to-end tests
 * that need one per test: `agent init` runs once per test file (0.4 to 0.7 s of processor
 * time and a Deno start each), its files are kept in memory, and every home after is
 * written from them. Init writes only text files that do not depend on the home's path
 * (agent.toml, the persona, .env.example), so a written home is the same as an init'd one;
 * `tests/cli/` keeps testing `agent init` itself.
 *
 * @module
 */
import assert from "node:assert/strict";
import { agent, tempHome } from "./cli/_run.ts";
import { tempDir } from "./_temp_dir.ts";

interface InitFile {
  /** Path under the home. */
  path: string;
  data: Uint8Array;
  mode: number;
}

let files: Promise<InitFile[]> | undefined;

async function* walk(root: string, under = ""): AsyncGenerator<InitFile> {
  for await (const entry of Deno.readDir(`${root}/${under}`)) {
    const path = under === "" ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory) yield* walk(root, path);
    else if (entry.isFile) {
      const full = `${root}/${path}`;
      yield { path, data: await Deno.readFile(full), mode: (await Deno.stat(full)).mode! & 0o777 };
    }
  }
}

async function initFiles(): Promise<InitFile[]> {
  await using dir = tempDir("agent-init-");
  const home = `${dir.path}/home`;
  const r = await agent(["--home", home, "init", "--yes", "--provider", "fake"]);
  assert.equal(r.code, 0, r.stderr);
  return await Array.fromAsync(walk(home));
}

/**
 * A fresh home (a {@linkcode tempHome}, removed by `cleanup()`) holding what `agent init
 * --yes --provider fake` writes.
 */
export async function initHome(): Promise<string> {
  files ??= initFiles();
  // A failed init is tried again by the next caller rather than remembered.
  const all = await files.catch((error) => {
    files = undefined;
    throw error;
  });
  const home = tempHome();
  for (const file of all) {
    const slash = file.path.lastIndexOf("/");
    if (slash > 0) {
      await Deno.mkdir(`${home}/${file.path.slice(0, slash)}`, { recursive: true, mode: 0o700 });
    }
    await Deno.writeFile(`${home}/${file.path}`, file.data, { mode: file.mode });
    await Deno.chmod(`${home}/${file.path}`, file.mode);
  }
  return home;
}
