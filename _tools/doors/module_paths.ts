/**
 * `deno task lint:doors` (second half): nothing the command line runs reads a file
 * beside its module. Under a JSR install a module's URL is `https:`, and in the bundle
 * and a compiled binary the folder is not there, so data the CLI ships is generated
 * into modules (`deno task kit:build`) instead.
 *
 * It reports:
 *
 * - `import.meta.url`, `import.meta.dirname`, `import.meta.filename` or
 *   `import.meta.resolve` in a workspace file that is not a test (`*_test.ts(x)`,
 *   `_testing.ts`, `testdata/`) nor one of the {@linkcode ALLOWED} files;
 * - an allowed file that the CLI's module graph reaches (`deno info cli/main.ts`,
 *   dynamic imports included): those files may run only as tasks.
 *
 * One line per problem; exit 1 when there is any.
 *
 * @module
 */

/** The files that may use their own location, each with why: tasks and build tools. */
export const ALLOWED: Readonly<Record<string, string>> = {
  "kit/build_kit.ts": "the kit:build task",
  "hub/dashboard/build_assets.ts": "the dashboard:build task (left out of the published package)",
  "kit/kit_files.ts": "kit:build: reads the spine source and the pinned versions",
  "kit/kit_cloud.ts": "kit:build: reads .ci/run, cli/deno.json and the migrations",
  "kit/kit_modules.ts": "kit:build: bundles the universe source",
  "kit/map_bundle.ts": "kit:build: bundles the map page's script from universe/map/",
  "kit/bundle.ts": "bundles a Worker from the source tree (kit:build, the dev servers, tests)",
  "kit/spine_dev.ts": "the spine:dev task and the tests' spine on workerd",
  "kit/d1_migrate.ts": "the spine:dev task and the tests' spine: reads the D1 migrations",
  "kit/universe_dev.ts": "the universe:dev task and the tests' universe on workerd",
  "hub/config/read.ts": "in a checkout only: the loader's mtimes invalidate a cache",
  "hub/clock.ts": "in a checkout only: a test steps a hub's clock through AGENT_TEST_CLOCK",
};

/** The allowed files the CLI may reach: each guards its use itself. */
const REACHABLE = new Set(["hub/config/read.ts", "hub/clock.ts"]);

const MEMBERS = ["net", "spine", "universe", "hub", "kit", "cli"];
const OWN_LOCATION = /import\.meta\.(url|dirname|filename|resolve)\b/;
const TEST_FILE = /(_test\.tsx?|(^|\/)_testing\.ts)$|(^|\/)testdata\//;

/** The code of `text` without comments (so documentation examples do not count). */
export function withoutComments(text: string): string {
  return text.replace(
    /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    (match, literal) => literal ?? match.replace(/[^\n]/g, " "),
  );
}

/** `file:line` of every use of a module's own location in `text` (code only). */
export function ownLocationLines(file: string, text: string): string[] {
  const lines = withoutComments(text).split("\n");
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (OWN_LOCATION.test(line)) found.push(`${file}:${i + 1}`);
  });
  return found;
}

async function sources(root: string): Promise<string[]> {
  const files: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(`${root}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) {
        if (entry.name !== "node_modules" && path !== "kit/spine") await walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !TEST_FILE.test(path)) files.push(path);
    }
  }
  for (const member of MEMBERS) {
    try {
      await walk(member);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return files.sort();
}

/** The workspace files the CLI's module graph reaches, relative to `root`. */
async function cliGraph(root: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", `${root}/deno.json`, `${root}/cli/main.ts`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) {
    throw new Error(`deno info failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const prefix = new URL(`file://${root}/`).href;
  const files = new Set<string>();
  for (const module of info.modules ?? []) {
    const specifier = String(module.specifier ?? "");
    if (specifier.startsWith(prefix)) files.add(decodeURIComponent(specifier.slice(prefix.length)));
  }
  return files;
}

/** Checks the tree at `root`; returns one line per problem. */
export async function checkModulePaths(root: string): Promise<string[]> {
  const problems: string[] = [];
  for (const file of await sources(root)) {
    if (file in ALLOWED) continue;
    for (const where of ownLocationLines(file, await Deno.readTextFile(`${root}/${file}`))) {
      problems.push(
        `${where}: uses its module's location; ship the data in a generated module (kit:build) instead`,
      );
    }
  }
  const graph = await cliGraph(root);
  for (const file of Object.keys(ALLOWED)) {
    if (graph.has(file) && !REACHABLE.has(file)) {
      problems.push(`${file}: the CLI reaches this task-only file (${ALLOWED[file]})`);
    }
  }
  return problems;
}

if (import.meta.main) {
  const root = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
  const problems = await checkModulePaths(root);
  for (const line of problems) console.error(line);
  if (problems.length > 0) Deno.exit(1);
  console.log("No module reads a file beside itself at run time.");
}
