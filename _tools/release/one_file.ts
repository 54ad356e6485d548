/**
 * `deno task bundle [OUT]`: the CLI as one file (`dist/agent.js`) that starts about as
 * fast as a checkout.
 *
 * A plain `deno bundle` file is 9 MB that Deno reads, analyses and V8 compiles on every
 * start, whatever the command needs (0.2–0.4 s against a checkout's 0.05 s). This file
 * is instead a small launcher followed by the CLI split into chunks (`deno bundle
 * --code-splitting`), compressed (brotli) and kept in a `//` comment on the file's last
 * line, which costs a start little more than reading it. The first start unpacks the
 * chunks into `<cache>/agent/bundle-<hash>/` (`XDG_CACHE_HOME`, else `~/.cache`; a temp
 * folder when that cannot be written) with a rename, so two first starts at once are
 * safe; every start then imports only the chunks its command needs, as a checkout does.
 *
 * One more change to `deno bundle`'s chunks: its runtime chunk imports `node:module`
 * at the top for `require()`, which sets up Deno's Node layer on every start (about as
 * long as the rest of `agent version`); here only the chunks that call `require()` load it.
 *
 * @module
 */
import { brotliCompressSync, constants } from "node:zlib";

const ROOT = new URL("../../", import.meta.url).pathname;

/** What {@linkcode buildOneFile} made. */
export interface OneFile {
  /** Bytes of the launcher file. */
  bytes: number;
  /** Bytes of the chunks before compression. */
  chunkBytes: number;
  chunks: number;
  /** The payload's hash, which names its cache folder. */
  hash: string;
}

/** The name of the chunk `require()` comes from, made by {@linkcode lazyRequire}. */
const REQUIRE_CHUNK = "_require.js";

/**
 * The chunks with `require()` moved out of esbuild's runtime chunk into a chunk of its
 * own, imported only by the chunks that call it. Returns the files changed (or `files`
 * as they were when no chunk imports `node:module`).
 */
export function lazyRequire(files: Record<string, string>): Record<string, string> {
  const line =
    'import { createRequire as __deno_internal_createRequire } from "node:module";\nvar __require = __deno_internal_createRequire(import.meta.url);\n';
  const runtime = Object.keys(files).find((name) => files[name]!.includes(line));
  if (runtime === undefined) return files;
  const out: Record<string, string> = { ...files };
  out[runtime] = files[runtime]!.replace(line, "").replace(/^ {2}__require,\n/m, "");
  out[REQUIRE_CHUNK] =
    'import { createRequire } from "node:module";\nexport var __require = createRequire(import.meta.url);\n';
  const from = new RegExp(`import \\{([^}]*)\\} from "\\./${runtime.replace(".", "\\.")}";`, "g");
  for (const [name, text] of Object.entries(files)) {
    if (name === runtime) continue;
    out[name] = text.replace(from, (whole, names: string) => {
      const list = names.split(",").map((n) => n.trim()).filter((n) => n !== "");
      if (!list.includes("__require")) return whole;
      const rest = list.filter((n) => n !== "__require");
      const lazy = `import { __require } from "./${REQUIRE_CHUNK}";`;
      return rest.length === 0
        ? lazy
        : `import { ${rest.join(", ")} } from "./${runtime}";\n${lazy}`;
    });
  }
  return out;
}

/** The launcher's source, with the packed chunks on its last line. */
export function launcher(hash: string, payload: string, entry: string): string {
  return `// agent: the whole CLI in one file (deno task bundle). Run it with deno run.
// The CLI's chunks are packed on the last line; the first start unpacks them into a
// cache folder named after their hash, and each start imports what its command needs.
const HASH = ${JSON.stringify(hash)};
const ENTRY = ${JSON.stringify(entry)};
const MARK = "\\n//agent-chunks:";

function env(name) {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

function fileUrl(path) {
  return "file://" + path.split("/").map(encodeURIComponent).join("/");
}

function exists(path) {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function unpack(dir) {
  const self = await Deno.readTextFile(new URL(import.meta.url));
  const packed = Uint8Array.fromBase64(self.slice(self.lastIndexOf(MARK) + MARK.length).trim());
  const { brotliDecompressSync } = await import("node:zlib");
  const files = JSON.parse(new TextDecoder().decode(brotliDecompressSync(packed)));
  const parent = dir.slice(0, dir.lastIndexOf("/"));
  Deno.mkdirSync(parent, { recursive: true, mode: 0o700 });
  const work = Deno.makeTempDirSync({ dir: parent, prefix: ".unpack-" });
  for (const [name, text] of Object.entries(files)) {
    Deno.writeTextFileSync(work + "/" + name, text, { mode: 0o600 });
  }
  try {
    Deno.renameSync(work, dir);
  } catch (error) {
    // Another first start was quicker: its copy is the same.
    Deno.removeSync(work, { recursive: true });
    if (!exists(dir + "/" + ENTRY)) throw error;
  }
}

async function chunks() {
  const home = env("HOME") ?? env("USERPROFILE");
  const cache = env("XDG_CACHE_HOME") ?? (home === undefined ? undefined : home + "/.cache");
  if (cache !== undefined) {
    const dir = cache + "/agent/bundle-" + HASH;
    if (exists(dir + "/" + ENTRY)) return dir;
    try {
      await unpack(dir);
      return dir;
    } catch { /* a cache that cannot be written: a temp folder below */ }
  }
  const dir = Deno.makeTempDirSync({ prefix: "agent-bundle-" }) + "/chunks";
  await unpack(dir);
  return dir;
}

const { exitWithMain } = await import(fileUrl((await chunks()) + "/" + ENTRY));
if (import.meta.main) await exitWithMain();
//agent-chunks:${payload}
`;
}

/** Builds the one-file CLI at `out`. */
export async function buildOneFile(out: string): Promise<OneFile> {
  const dir = await Deno.makeTempDir({ prefix: "agent-one-file-" });
  try {
    const built = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform=deno",
        "--code-splitting",
        "--outdir",
        dir,
        "cli/main.ts",
      ],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!built.success) {
      const why = new TextDecoder().decode(built.stderr).trim().split("\n").at(-1);
      throw new Error(`Cannot bundle the CLI: ${why}`);
    }
    let files: Record<string, string> = {};
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".js")) {
        files[entry.name] = await Deno.readTextFile(`${dir}/${entry.name}`);
      }
    }
    if (files["main.js"] === undefined) throw new Error("Cannot bundle the CLI: no main.js");
    files = lazyRequire(files);
    const json = new TextEncoder().encode(JSON.stringify(files));
    const packed = brotliCompressSync(json, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    });
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", json));
    const hash = digest.slice(0, 12).toHex();
    const text = launcher(hash, packed.toBase64(), "main.js");
    const slash = out.lastIndexOf("/");
    if (slash > 0) await Deno.mkdir(out.slice(0, slash), { recursive: true });
    await Deno.writeTextFile(out, text);
    return {
      bytes: new TextEncoder().encode(text).length,
      chunkBytes: json.length,
      chunks: Object.keys(files).length,
      hash,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const out = Deno.args[0] ?? "dist/agent.js";
  try {
    const made = await buildOneFile(out.startsWith("/") ? out : `${ROOT}${out}`);
    console.log(
      `${out}: ${(made.bytes / 1e6).toFixed(2)} MB (${made.chunks} chunks, ${
        (made.chunkBytes / 1e6).toFixed(2)
      } MB unpacked)`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
