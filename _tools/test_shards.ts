/**
 * The test layers' runner: test files (and, for the unit layer, doc examples) run in a
 * few shared modules ("shards") instead of one isolate each.
 *
 * `deno test` starts a fresh isolate for every test module, and every `@example` block
 * that `--doc` finds is a module of its own. On this project's 2-core machine that start
 * costs about 0.45 s of processor time a module whatever the module holds (measured with
 * 30 empty test files: 13 s), and each isolate loads the hub's modules again (0.6 to 1.9 s
 * for an end-to-end file). The unit layer's 175 test files and 271 doc examples spent
 * ~200 s of its ~280 s that way. A shard imports a run of neighbouring test files and runs
 * each doc example as one test that imports the example (written out as a module, its
 * relative imports and `import.meta.url` made the source file's), so shared modules load
 * once a shard. Deno type-checks the shards with everything they import, the examples
 * included (their imports are literal), as `--doc` did.
 *
 * A shard's isolate outlives each file in it: a child process a test did not stop is not
 * killed when its file ends (Deno kills it with its isolate), and an in-process hub or
 * timer keeps running. `tests/_temp_dir.ts` fails the shard when such a leftover wrote
 * into a folder its test had removed, naming the test line that made the folder.
 *
 * Usage: `deno run ... _tools/test_shards.ts [--shards N] [--doc] [--ignore=a,b]
 * [--certs-for-deno] <deno test flags> -- <roots>`: the roots are files or folders, as
 * `deno test` takes them. The shards run with `deno test --parallel` and the given flags
 * (`DENO_JOBS` applies: more shards than jobs let a slow shard's neighbours move on), in a
 * folder under `TMPDIR` that is removed after; with `--certs-for-deno`, in the environment
 * {@linkcode certsForDeno} makes. The exit code is `deno test`'s.
 *
 * @module
 */

/** A doc example: a fenced TypeScript block in a JSDoc comment. */
export interface DocExample {
  /** The test's name: the file's path from the root, `#`, the block's first and last line. */
  name: string;
  /** The block's code, comment stars removed. */
  code: string;
}

/** Languages whose blocks `deno test --doc` runs (a block marked `ignore` is skipped). */
const RUN_LANGS = new Set(["ts", "typescript", "js", "javascript", "tsx", "jsx", "mts"]);

/** Test module names as `deno test` finds them in a folder. */
const TEST_FILE = /(^|[_.])test\.(ts|tsx|mts|js|mjs|jsx)$/;
/** Modules whose doc examples `--doc` reads. */
const SOURCE_FILE = /\.(ts|tsx|mts|js|mjs|jsx)$/;

/** The fenced blocks `deno test --doc` runs in `text`'s JSDoc comments. */
export function docExamples(text: string, path: string): DocExample[] {
  const lines = text.split("\n");
  const examples: DocExample[] = [];
  let inDoc = false;
  let block: { start: number; code: string[] } | null = null;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (!inDoc) {
      const open = /^\s*\/\*\*(.*)$/.exec(line);
      if (!open || /\*\/\s*$/.test(open[1]!)) continue;
      // The comment's first line may hold text (or a fence) after its opening.
      inDoc = true;
      line = open[1]!.trim();
    }
    if (/\*\/\s*$/.test(line)) {
      inDoc = false;
      block = null;
      continue;
    }
    const body = line.replace(/^\s*\* ?/, "");
    const fence = /^```\s*([\w-]*)\s*(.*)$/.exec(body.trimEnd());
    if (block === null) {
      if (fence) {
        const lang = fence[1] ?? "";
        const run = RUN_LANGS.has(lang) && !/\bignore\b/.test(fence[2] ?? "");
        block = { start: i + 1, code: run ? [] : ["\u0000skip"] };
      }
      continue;
    }
    if (fence && fence[1] === "" && fence[2] === "") {
      if (block.code[0] !== "\u0000skip") {
        examples.push({ name: `${path}#${block.start}-${i + 2}`, code: block.code.join("\n") });
      }
      block = null;
      continue;
    }
    block.code.push(body);
  }
  return examples;
}

/**
 * An example's code with its relative imports made absolute (from `fileUrl`'s folder),
 * and `import.meta.url` the file's own, as it is for `deno test --doc`.
 */
export function absoluteImports(code: string, fileUrl: string): string {
  return code.replaceAll("import.meta.url", JSON.stringify(fileUrl)).replace(
    /(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.\.?\/[^"']*)\2/g,
    (_all, lead: string, quote: string, spec: string) =>
      `${lead}${quote}${new URL(spec, fileUrl).href}${quote}`,
  );
}

/**
 * Cuts `items` (in their order) into at most `n` runs of nearly equal total weight.
 * Neighbours stay together, so files of one folder, which import the same helpers, mostly
 * share a shard and load those helpers once.
 */
export function chunk<T>(items: readonly T[], weight: (item: T) => number, n: number): T[][] {
  const total = items.reduce((sum, item) => sum + weight(item), 0);
  const shards: T[][] = [[]];
  let done = 0;
  for (const item of items) {
    const current = shards[shards.length - 1]!;
    if (current.length > 0 && done >= (total * shards.length) / n) shards.push([item]);
    else current.push(item);
    done += weight(item);
  }
  return shards;
}

/** The folders `deno test` never looks in. */
function skipped(name: string): boolean {
  return name === "node_modules" || name.startsWith(".");
}

/** Every file under `root` (a file or a folder), sorted. */
async function walk(root: string): Promise<string[]> {
  const info = await Deno.stat(root);
  if (info.isFile) return [root];
  const found: string[] = [];
  for await (const entry of Deno.readDir(root)) {
    if (skipped(entry.name)) continue;
    const path = `${root.replace(/\/$/, "")}/${entry.name}`;
    if (entry.isDirectory) found.push(...await walk(path));
    else if (entry.isFile) found.push(path);
  }
  return found.sort();
}

/** One shard's module: its test files imported, its examples run as tests. */
function shardModule(tests: readonly string[], examples: readonly string[]): string {
  return [
    ...tests.map((url) => `import ${JSON.stringify(url)};`),
    ...examples,
    "",
  ].join("\n");
}

/** Options for {@linkcode writeShards}. */
export interface ShardOptions {
  /** The repository root: names are given from it. */
  root: string;
  /** Files or folders, as `deno test --doc` takes them (relative to `root`). */
  roots: readonly string[];
  /** How many shards. */
  shards: number;
  /** Run the doc examples of the modules too (`deno test --doc`). @default false */
  doc?: boolean;
  /** Files and folders left out (relative to `root`), as `deno test --ignore` takes them. */
  ignore?: readonly string[];
}

/**
 * Writes the shards (and one module per doc example) into `dir`; how many test files
 * and examples they hold.
 */
export async function writeShards(
  dir: string,
  options: ShardOptions,
): Promise<{ tests: number; examples: number }> {
  const rootUrl = new URL(`file://${options.root.replace(/\/?$/, "/")}`);
  const files = (await Promise.all(
    options.roots.map((root) => walk(new URL(root, rootUrl).pathname)),
  )).flat();
  type Unit = { weight: number; line: string; kind: "test" | "example" };
  const units: Unit[] = [];
  let exampleCount = 0;
  const ignored = (options.ignore ?? []).map((path) => new URL(path, rootUrl).pathname);
  for (const path of files) {
    const name = path.slice(rootUrl.pathname.length);
    const base = name.split("/").pop()!;
    if (!SOURCE_FILE.test(base)) continue;
    if (ignored.some((out) => path === out || path.startsWith(out.replace(/\/?$/, "/")))) continue;
    const url = `file://${path}`;
    if (TEST_FILE.test(base)) {
      units.push({ weight: (await Deno.stat(path)).size + 2_000, line: url, kind: "test" });
      continue;
    }
    if (!options.doc) continue;
    for (const example of docExamples(await Deno.readTextFile(path), name)) {
      const module = `${dir}/example_${exampleCount++}.ts`;
      await Deno.writeTextFile(module, absoluteImports(example.code, url) + "\n");
      const run = `Deno.test(${JSON.stringify(example.name)}, async () => {\n  await import(${
        JSON.stringify(`./${module.split("/").pop()}`)
      });\n});`;
      units.push({ weight: 500, line: run, kind: "example" });
    }
  }
  const shards = chunk(units, (unit) => unit.weight, options.shards);
  await Promise.all(shards.map((shard, i) =>
    Deno.writeTextFile(
      `${dir}/shard_${i + 1}_test.ts`,
      shardModule(
        shard.filter((u) => u.kind === "test").map((u) => u.line).sort(),
        shard.filter((u) => u.kind === "example").map((u) => u.line),
      ),
    )
  ));
  return { tests: units.length - exampleCount, examples: exampleCount };
}

/**
 * The environment `--certs-for-deno` runs the shards in: the machine's extra certificates
 * (`NODE_EXTRA_CA_CERTS`) handed to Deno alone, as `DENO_CERT` (unless that is set). Deno
 * still trusts them: a test that bundles from npm goes through this machine's proxy.
 * Miniflare no longer sees them: it copies them into every Worker's config, where the
 * Workers under test reach only loopback. Debian's 144 (223 KB) made each start ~0.19
 * CPU-seconds dearer (six spine- and universe-heavy files, 43 starts: 43.1 → 35.1 CPU-s,
 * means of three runs), in some 190 starts a run.
 *
 * @example
 * ```ts
 * import { certsForDeno } from "./test_shards.ts";
 * const env = certsForDeno({ NODE_EXTRA_CA_CERTS: "/etc/ca.pem", PATH: "/bin" });
 * if (env.DENO_CERT !== "/etc/ca.pem" || "NODE_EXTRA_CA_CERTS" in env) throw new Error();
 * ```
 */
export function certsForDeno(env: Readonly<Record<string, string>>): Record<string, string> {
  const { NODE_EXTRA_CA_CERTS: extra, ...rest } = env;
  if (extra === undefined || extra === "") return rest;
  return rest.DENO_CERT === undefined || rest.DENO_CERT === ""
    ? { ...rest, DENO_CERT: extra }
    : rest;
}

/** The tool's own options, taken out of the arguments; the rest go to `deno test`. */
export function parseArgs(args: readonly string[]): {
  options: Omit<ShardOptions, "root">;
  flags: string[];
  certsForDeno: boolean;
} | null {
  const split = args.indexOf("--");
  if (split < 0) return null;
  const flags: string[] = [];
  let shards = 8;
  let doc = false;
  let certs = false;
  const ignore: string[] = [];
  for (let i = 0; i < split; i++) {
    const arg = args[i]!;
    if (arg === "--shards") shards = Number(args[++i]);
    else if (arg === "--doc") doc = true;
    else if (arg === "--certs-for-deno") certs = true;
    else if (arg.startsWith("--ignore=")) ignore.push(...arg.slice(9).split(",").filter(Boolean));
    else flags.push(arg);
  }
  if (!Number.isInteger(shards) || shards < 1) return null;
  return {
    options: { roots: args.slice(split + 1), shards, doc, ignore },
    flags,
    certsForDeno: certs,
  };
}

if (import.meta.main) {
  const parsed = parseArgs(Deno.args);
  if (parsed === null) {
    console.error(
      "Usage: _tools/test_shards.ts [--shards N] [--doc] [--ignore=a,b] [--certs-for-deno] <deno test flags> -- <files or folders>",
    );
    Deno.exit(2);
  }
  const dir = await Deno.makeTempDir({ prefix: "agent-shards-" });
  let code = 1;
  try {
    await writeShards(dir, { root: Deno.cwd(), ...parsed.options });
    const status = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--parallel", ...parsed.flags, dir],
      ...(parsed.certsForDeno ? { env: certsForDeno(Deno.env.toObject()), clearEnv: true } : {}),
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    code = status.code;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  Deno.exit(code);
}
