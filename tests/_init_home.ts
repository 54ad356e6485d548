/**
 * A fresh home as `agent init --yes --provider fake` writes it, for the end-to-end tests
 * that need one per test: `agent init` runs once per test file and language (0.4 to 0.7 s
 * of processor time and a Deno start each), its files are kept in memory, and every home
 * after is written from them. Init writes only text files that do not depend on the
 * home's path (agent.toml, the persona, .env.example), so a written home is the same as
 * an init'd one; `tests/cli/` keeps testing `agent init` itself.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Lang } from "@agent/hub/base";
import { agent, tempHome } from "./cli/_run.ts";
import { tempDir } from "./_temp_dir.ts";

interface InitFile {
  /** Path under the home. */
  path: string;
  data: Uint8Array;
  mode: number;
}

const files = new Map<Lang, Promise<InitFile[]>>();

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

async function initFiles(language: Lang): Promise<InitFile[]> {
  await using dir = tempDir("agent-init-");
  const home = `${dir.path}/home`;
  const r = await agent([
    "--home",
    home,
    "init",
    "--yes",
    "--provider",
    "fake",
    "--language",
    language,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return await Array.fromAsync(walk(home));
}

/** Options for {@linkcode initHomeAt}. */
export interface InitHomeOptions {
  /** `agent init --language`. @default "en" */
  language?: Lang;
  /** The hub's control port written into `agent.toml` (`[hub] port`). */
  port?: number;
}

/**
 * A fresh home (a {@linkcode tempHome}, removed by `cleanup()`) holding what `agent init
 * --yes --provider fake` writes.
 */
export async function initHome(): Promise<string> {
  const home = tempHome();
  await initHomeAt(home);
  return home;
}

/**
 * Writes into `home` (made when missing) what `agent --home <home> init --yes --provider
 * fake --language <language>` writes, and the control port when one is given.
 */
export async function initHomeAt(home: string, options: InitHomeOptions = {}): Promise<void> {
  const language = options.language ?? "en";
  if (!files.has(language)) files.set(language, initFiles(language));
  // A failed init is tried again by the next caller rather than remembered.
  const all = await files.get(language)!.catch((error) => {
    files.delete(language);
    throw error;
  });
  for (const file of all) {
    const slash = file.path.lastIndexOf("/");
    await Deno.mkdir(`${home}/${file.path.slice(0, Math.max(0, slash))}`, {
      recursive: true,
      mode: 0o700,
    });
    await Deno.writeFile(`${home}/${file.path}`, file.data, { mode: file.mode });
    await Deno.chmod(`${home}/${file.path}`, file.mode);
  }
  if (options.port === undefined) return;
  const toml = await Deno.readTextFile(`${home}/agent.toml`);
  const set = toml.replace(/^port = \d+$/m, `port = ${options.port}`);
  if (set === toml) throw new Error("agent.toml has no `port = ` line to set");
  await Deno.writeTextFile(`${home}/agent.toml`, set);
}
