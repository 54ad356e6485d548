/**
 * `deno task lint:doors`: checks the workspace's doors on the real module graph.
 *
 * It reads the members and their exports from the `deno.json` files, asks Deno for
 * the graph of every `.ts`/`.tsx` file (`deno info --json`, dynamic and type-only
 * imports included), and reports:
 *
 * - an import of another member's file that is not one of that member's exports, or
 *   of one of its exports by a path instead of the package name;
 * - an import against the allowed directions ({@linkcode ALLOWED}), where a member's
 *   test files may also import the shared test helpers ({@linkcode isTestHelperImport});
 * - an import upwards through a member's layers ({@linkcode LAYERS});
 * - any import cycle between files;
 * - any import cycle between folders ({@linkcode findFolderCycles}): a folder's arrows
 *   run one way, so no folder imports one that imports it back (save the ones listed
 *   in {@linkcode FOLDER_CYCLES_ALLOWED});
 * - an import that does not resolve;
 * - an `export *` in a door ({@linkcode findStarExports}): a door lists the names it
 *   offers, so TypeScript refuses an import of a name it does not list.
 *
 * Run it as `deno task lint:doors [--root DIR]`: one line per problem, exit 1 when
 * there is any, 2 when the tree is not a workspace.
 *
 * @module
 */

/** Which members each member (or `tests`, or the top-level files) may import. */
export const ALLOWED: Readonly<Record<string, readonly string[] | "any">> = {
  net: [],
  spine: ["net"],
  universe: ["net"],
  hub: ["net"],
  kit: ["spine", "net"],
  cli: ["hub", "kit", "net"],
  tests: "any",
  root: "any",
};

/** A named layer of a member: path prefixes relative to the member's folder. */
export interface Layer {
  name: string;
  paths: readonly string[];
}

/**
 * Layers inside a member, lowest first: a file may import files of its own layer or
 * below. Test files (`*_test.ts`) are exempt, since a test may wire a lower piece to
 * a higher one.
 */
export const LAYERS: Readonly<Record<string, readonly Layer[]>> = {
  hub: [
    {
      name: "leaves",
      paths: [
        "paths.ts",
        "i18n.ts",
        "numbers.ts",
        "log.ts",
        "atomic_file.ts",
        "env_file.ts",
        "credentials.ts",
        "version.ts",
        "deno_flags.ts",
        "base.ts",
        "user_error.ts",
        "text.ts",
        "backoff.ts",
        "process_alive.ts",
        "sqlite_file.ts",
        "clock.ts",
        "cloud_target.ts",
        "terminal/",
      ],
    },
    {
      name: "domain",
      paths: [
        "config/",
        "ledger/",
        "spend/",
        "money.ts",
        "network.ts",
        "models/",
        "sessions/",
        "session_search/",
        "persona/",
        "tools/",
        "subs/",
        "components/",
        "doctor/",
        "spine_http/",
        "events/",
        "network/",
        "cloud.ts",
        "cloud/",
        "memory/",
        "mcp/",
        "sandbox/",
      ],
    },
    { name: "chain", paths: ["router/"] },
    { name: "agent", paths: ["agent/", "network_turn/", "desk/", "jobs/", "event_books.ts"] },
    {
      name: "wiring",
      paths: [
        "app/",
        "channels/",
        "chat.ts",
        "desk.ts",
        "daemon/",
        "daemon.ts",
        "run.ts",
        "control/",
        "dashboard/",
        "mod.ts",
      ],
    },
  ],
};

/**
 * Folder cycles tolerated for now, each as its folders in sorted order. Each is to be
 * removed by the work named beside it; an entry that is no longer a cycle is reported,
 * so the list only shrinks.
 */
export const FOLDER_CYCLES_ALLOWED: readonly (readonly string[])[] = [];

/** Path prefixes (relative to the root) the checker never reads. */
export const EXCLUDE: readonly string[] = [
  "node_modules/",
  "dist/",
  ".universe-build/",
  ".universe-dev/",
  ".spine-dev/",
];

/** A member of the workspace. */
export interface Member {
  /** The folder, relative to the root (`hub`). */
  dir: string;
  /** The package name (`@agent/hub`). */
  name: string;
  /** Its exported files, relative to the root. */
  doors: string[];
}

/** One import: from a file to a file (paths relative to the root). */
export interface Edge {
  from: string;
  to: string;
  /** 1-based line of the import in `from`, when Deno reports it. */
  line?: number;
  /** The specifier as written (`@agent/net`, `../net/mod.ts`). */
  specifier?: string;
}

/** The module graph of the tree. */
export interface Graph {
  files: string[];
  edges: Edge[];
  /** Imports that did not resolve: `file:line: specifier (why)`. */
  unresolved: string[];
}

/** What {@linkcode checkDoors} found. */
export interface DoorsReport {
  files: number;
  imports: number;
  problems: string[];
}

/** The tree is not a workspace this checker can read. */
export class DoorsSetupError extends Error {
  override name = "DoorsSetupError";
}

/** Reads the workspace members of `root` from its `deno.json` files. */
export async function readMembers(root: string): Promise<Member[]> {
  const rootConfig = await readJson(`${root}/deno.json`);
  const workspace = rootConfig.workspace;
  if (!Array.isArray(workspace) || workspace.length === 0) {
    throw new DoorsSetupError(`${root}/deno.json has no workspace members`);
  }
  const members: Member[] = [];
  for (const entry of workspace) {
    const dir = String(entry).replace(/^\.\//, "").replace(/\/$/, "");
    const config = await readJson(`${root}/${dir}/deno.json`);
    if (typeof config.name !== "string") {
      throw new DoorsSetupError(`${dir}/deno.json has no name`);
    }
    const exports = typeof config.exports === "string"
      ? [config.exports]
      : Object.values((config.exports ?? {}) as Record<string, string>);
    const doors = exports.map((file) => normalise(`${dir}/${file}`));
    members.push({ dir, name: config.name, doors });
  }
  return members;
}

/** Every `.ts`/`.tsx` file under `root`, relative and sorted, without {@linkcode EXCLUDE}. */
export async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(`${root}/${dir}`)) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.name.startsWith(".")) continue;
      if (EXCLUDE.some((prefix) => `${path}/`.startsWith(prefix))) continue;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && /\.tsx?$/.test(entry.name)) out.push(path);
    }
  }
  await walk("");
  return out.sort();
}

/**
 * The graph of every file under `root`, from one `deno info --json` over an entry that
 * imports them all (written inside `root` so the workspace resolves, then removed).
 */
export async function readGraph(root: string): Promise<Graph> {
  const files = await listFiles(root);
  const entry = `.doors-entry-${crypto.randomUUID()}.ts`;
  await Deno.writeTextFile(
    `${root}/${entry}`,
    files.map((f) => `import "./${f}";\n`).join(""),
  );
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", `${root}/deno.json`, entry],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
  } finally {
    await Deno.remove(`${root}/${entry}`).catch(() => {});
  }
  if (!output.success) {
    const detail = new TextDecoder().decode(output.stderr).trim().split("\n").at(-1);
    throw new DoorsSetupError(`deno info failed: ${detail}`);
  }
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as DenoInfo;
  const base = new URL(`file://${root.endsWith("/") ? root : `${root}/`}`).href;
  const local = (specifier: string | undefined) =>
    specifier?.startsWith(base) ? decodeURIComponent(specifier.slice(base.length)) : undefined;
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  // A missing file is a module with an error; its importers are told, not the file.
  const broken = new Map<string, string>();
  for (const module of info.modules) {
    if (module.error !== undefined) broken.set(module.specifier, module.error);
  }
  for (const module of info.modules) {
    const from = local(module.specifier);
    if (from === undefined || from === entry || broken.has(module.specifier)) continue;
    for (const dep of module.dependencies ?? []) {
      for (const kind of [dep.code, dep.type]) {
        if (kind === undefined) continue;
        const line = kind.span === undefined ? undefined : kind.span.start.line + 1;
        const error = kind.error ?? broken.get(kind.specifier ?? "");
        if (error !== undefined) {
          unresolved.push(`${from}${line ? `:${line}` : ""}: ${dep.specifier} (${error})`);
          continue;
        }
        const to = local(kind.specifier);
        if (to === undefined) {
          if (kind.specifier?.startsWith("file:")) {
            unresolved.push(
              `${from}${line ? `:${line}` : ""}: ${dep.specifier} (outside the tree)`,
            );
          }
          continue;
        }
        const edge: Edge = { from, to, specifier: dep.specifier };
        if (line !== undefined) edge.line = line;
        edges.push(edge);
      }
    }
  }
  return { files, edges: dedupe(edges), unresolved };
}

/** Checks the doors, directions, layers, cycles and door lists of the tree at `root`. */
export async function checkDoors(root: string): Promise<DoorsReport> {
  const members = await readMembers(root);
  const graph = await readGraph(root);
  const problems = [
    ...graph.unresolved.map((u) => `${u}: the import does not resolve`),
    ...findDoorProblems(graph.edges, members),
    ...findCycles(graph.edges).map((cycle) => `import cycle: ${cycle.join(" -> ")}`),
    ...findFolderCycles(graph.edges, members),
    ...await findDoorListProblems(root, members),
  ];
  return { files: graph.files.length, imports: graph.edges.length, problems: problems.sort() };
}

/**
 * Every `export *` in the door files of `members` (all members: a door of `net` or
 * `kit` is as public as the hub's), one sentence each. A door that re-exports a whole
 * module offers whatever that module grows, and says nothing about what is meant to
 * be used; listing the names lets TypeScript refuse an import of anything else.
 */
export async function findDoorListProblems(
  root: string,
  members: readonly Member[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const member of members) {
    for (const door of member.doors) {
      let source: string;
      try {
        source = await Deno.readTextFile(`${root}/${door}`);
      } catch {
        problems.push(`${door}: a door of ${member.name} that cannot be read`);
        continue;
      }
      for (const star of findStarExports(source)) {
        problems.push(
          `${door}:${star.line}: ${star.text}: a door of ${member.name} lists its names ` +
            `(export { ... } from), never export *`,
        );
      }
    }
  }
  return problems;
}

/** One `export *` statement: its 1-based line and its text up to the module specifier. */
export interface StarExport {
  line: number;
  text: string;
}

/**
 * The `export *` statements of a module's source (`export * from`, `export type * from`,
 * `export * as name from`), ignoring comments and string literals, so a doc example
 * that shows one does not count.
 *
 * @example
 * ```ts
 * import { findStarExports } from "./doors.ts";
 * const found = findStarExports('/** `export * from "x"` *\/\nexport * from "./a.ts";\n');
 * if (found[0]?.line !== 2 || found[0]?.text !== 'export * from "./a.ts"') throw new Error();
 * ```
 */
export function findStarExports(source: string): StarExport[] {
  const code = maskCommentsAndStrings(source);
  const found: StarExport[] = [];
  for (const match of code.matchAll(/\bexport\s+(?:type\s+)?\*(?:\s+as\s+[\w$]+)?\s+from\s*/g)) {
    const start = match.index;
    const end = start + match[0].length;
    // The specifier is a masked string: take its original text, quotes included.
    const quote = source[end];
    const close = quote === '"' || quote === "'" ? source.indexOf(quote, end + 1) : -1;
    const specifier = close === -1 ? "" : source.slice(end, close + 1);
    found.push({
      line: source.slice(0, start).split("\n").length,
      text: `${source.slice(start, end).replace(/\s+/g, " ").trim()} ${specifier}`.trim(),
    });
  }
  return found;
}

/**
 * `source` with the insides of comments and string literals replaced by spaces (line
 * breaks kept, so offsets and lines stay where they were). Template literals are
 * masked whole, `${}` included: a door has no code inside one.
 */
function maskCommentsAndStrings(source: string): string {
  let out = "";
  let i = 0;
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    let end: number;
    if (c === "/" && next === "/") {
      end = source.indexOf("\n", i);
      if (end === -1) end = source.length;
    } else if (c === "/" && next === "*") {
      end = source.indexOf("*/", i + 2);
      end = end === -1 ? source.length : end + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      // Up to the closing quote, or the line's end for an unterminated "" or ''.
      let close = i + 1;
      while (close < source.length) {
        const d = source[close];
        if (d === "\\") close += 2;
        else if (d === c || (c !== "`" && d === "\n")) break;
        else close++;
      }
      out += c + blank(source.slice(i + 1, close)) + (source[close] ?? "");
      i = close + 1;
      continue;
    } else {
      out += c;
      i++;
      continue;
    }
    out += blank(source.slice(i, end));
    i = end;
  }
  return out;
}

/** The door, direction and layer problems of `edges`, one sentence each. */
export function findDoorProblems(edges: readonly Edge[], members: readonly Member[]): string[] {
  const problems: string[] = [];
  for (const edge of edges) {
    const from = ownerOf(edge.from, members);
    const to = ownerOf(edge.to, members);
    const at = edge.line === undefined ? edge.from : `${edge.from}:${edge.line}`;
    if (from === to) {
      const layer = layerProblem(edge, members.find((m) => m.dir === from));
      if (layer !== undefined) problems.push(`${at}: ${layer}`);
      continue;
    }
    const target = members.find((m) => m.dir === to);
    if (target === undefined) {
      // tests/, _tools/ and the top-level files are no package: only they may import
      // them, and a member's test files the shared test helpers (`tests/_*.ts`).
      if (from !== "tests" && from !== "root" && !isTestHelperImport(edge)) {
        problems.push(`${at}: imports ${edge.to}, which is outside every package`);
      }
      continue;
    }
    const allowed = ALLOWED[from] ?? [];
    if (allowed !== "any" && !allowed.includes(to)) {
      const may = allowed.length === 0 ? "no member" : allowed.join(", ");
      problems.push(`${at}: imports ${edge.to}, but ${from} may import ${may}`);
      continue;
    }
    if (!target.doors.includes(edge.to)) {
      problems.push(
        `${at}: imports ${edge.to}, which is not a door of ${target.name}; ` +
          `its doors: ${target.doors.join(", ")}`,
      );
    } else if (edge.specifier !== undefined && /^[./]/.test(edge.specifier)) {
      problems.push(`${at}: imports ${edge.specifier}; import ${target.name} by its name`);
    }
  }
  return problems;
}

/** Every import cycle among `edges`, each as a path that ends where it starts. */
export function findCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    next.get(from)!.push(to);
  }
  const cycles: string[][] = [];
  for (const component of stronglyConnected(next)) {
    if (component.length === 1) {
      const only = component[0]!;
      if (next.get(only)?.includes(only)) cycles.push([only, only]);
      continue;
    }
    cycles.push(cycleThrough(component, next));
  }
  return cycles;
}

/**
 * The folder a file counts in for {@linkcode findFolderCycles}: a member's top-level
 * folder (`hub/agent/`), or a top-level file of a member on its own (`hub/paths.ts`);
 * `undefined` outside every member (`tests/`, the root's files).
 */
export function folderOf(file: string, members: readonly Member[]): string | undefined {
  const member = members.find((m) => file.startsWith(`${m.dir}/`));
  if (member === undefined) return undefined;
  const rest = file.slice(member.dir.length + 1);
  const slash = rest.indexOf("/");
  return slash === -1 ? file : `${member.dir}/${rest.slice(0, slash + 1)}`;
}

/**
 * Every import cycle between folders of `members`, one sentence each naming the
 * folders and one import of each arrow, and every entry of `allowed` whose folders are
 * there but no longer a cycle. Test files (`*_test.ts`) are left out, as for the layers: a test may wire a
 * lower piece to a higher one. A cycle whose folders are exactly an entry of `allowed`
 * passes.
 */
export function findFolderCycles(
  edges: readonly Edge[],
  members: readonly Member[],
  allowed: readonly (readonly string[])[] = FOLDER_CYCLES_ALLOWED,
): string[] {
  const next = new Map<string, string[]>();
  // One import for each folder arrow, to name in the sentence.
  const example = new Map<string, Edge>();
  for (const edge of edges) {
    if (edge.from.endsWith("_test.ts")) continue;
    const from = folderOf(edge.from, members);
    const to = folderOf(edge.to, members);
    if (from === undefined || to === undefined || from === to) continue;
    const key = `${from}\n${to}`;
    if (example.has(key)) continue;
    example.set(key, edge);
    if (!next.has(from)) next.set(from, []);
    next.get(from)!.push(to);
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const component of stronglyConnected(next)) {
    // Top-level files alone make a file cycle, which is reported as one.
    if (component.length < 2 || !component.some((folder) => folder.endsWith("/"))) continue;
    const name = component.join(" <-> ");
    seen.add(name);
    if (allowed.some((entry) => [...entry].sort().join(" <-> ") === name)) continue;
    const path = cycleThrough(component, next);
    const arrows = path.slice(1).map((to, i) => {
      const edge = example.get(`${path[i]}\n${to}`)!;
      return `${edge.from}${edge.line === undefined ? "" : `:${edge.line}`} imports ${edge.to}`;
    });
    problems.push(`folder cycle: ${path.join(" -> ")} (${arrows.join("; ")})`);
  }
  const present = new Set(edges.flatMap((e) => [e.from, e.to]).map((f) => folderOf(f, members)));
  for (const entry of allowed) {
    const name = [...entry].sort().join(" <-> ");
    // An entry about folders this tree does not have is not this tree's to judge.
    if (!seen.has(name) && entry.every((folder) => present.has(folder))) {
      problems.push(
        `folder cycle ${name} is no longer one: remove it from FOLDER_CYCLES_ALLOWED`,
      );
    }
  }
  return problems;
}

/** Tarjan's algorithm without recursion: the strongly connected components. */
function stronglyConnected(next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const children = next.get(frame.node) ?? [];
      if (frame.child < children.length) {
        const child = children[frame.child++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** A concrete cycle inside one strongly connected component, from its first file. */
function cycleThrough(component: string[], next: ReadonlyMap<string, readonly string[]>) {
  const inside = new Set(component);
  const start = component[0]!;
  // Breadth-first from start's successors back to start: the shortest cycle through it.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const child of next.get(node) ?? []) {
      if (!inside.has(child)) continue;
      if (child === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.unshift(at);
        path.unshift(start);
        return path;
      }
      if (previous.has(child)) continue;
      previous.set(child, node);
      queue.push(child);
    }
  }
  return [...component, start];
}

/** The member folder owning `file`, else `tests` or `root`. */
/**
 * A member's test file (`*_test.ts(x)`, `_testing.ts`) importing one of the test helpers
 * every layer shares (`tests/_*.ts`: the poller, temp folders, ports, the hub): the one
 * import from a member into `tests/`. Test files are not published.
 */
export function isTestHelperImport(edge: Edge): boolean {
  return /(_test\.tsx?|(^|\/)_testing\.ts)$/.test(edge.from) && /^tests\/_[^/]+\.ts$/.test(edge.to);
}

function ownerOf(file: string, members: readonly Member[]): string {
  const member = members.find((m) => file.startsWith(`${m.dir}/`));
  if (member !== undefined) return member.dir;
  return file.startsWith("tests/") ? "tests" : "root";
}

function layerProblem(edge: Edge, member: Member | undefined): string | undefined {
  const layers = member === undefined ? undefined : LAYERS[member.dir];
  if (member === undefined || layers === undefined || edge.from.endsWith("_test.ts")) {
    return undefined;
  }
  const from = layerOf(edge.from.slice(member.dir.length + 1), layers);
  const to = layerOf(edge.to.slice(member.dir.length + 1), layers);
  if (from === -1) return `is in no layer of ${member.dir} (add it to LAYERS)`;
  if (to === -1) return `imports ${edge.to}, which is in no layer of ${member.dir}`;
  if (to <= from) return undefined;
  return `imports ${edge.to} (layer ${layers[to]!.name}) from layer ${layers[from]!.name}: ` +
    `layers import only their own layer or below`;
}

function layerOf(path: string, layers: readonly Layer[]): number {
  return layers.findIndex((layer) =>
    layer.paths.some((p) => p.endsWith("/") ? path.startsWith(p) : path === p)
  );
}

function dedupe(edges: Edge[]): Edge[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const key = `${e.from}\n${e.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/");
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch {
    throw new DoorsSetupError(`${file} cannot be read`);
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new DoorsSetupError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

interface DenoInfo {
  modules: {
    specifier: string;
    error?: string;
    dependencies?: {
      specifier: string;
      code?: Resolved;
      type?: Resolved;
    }[];
  }[];
}

interface Resolved {
  specifier?: string;
  error?: string;
  span?: { start: { line: number } };
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--root");
  const root = at === -1
    ? new URL("../..", import.meta.url).pathname.replace(/\/$/, "")
    : Deno.realPathSync(Deno.args[at + 1] ?? ".");
  let code = 0;
  try {
    const report = await checkDoors(root);
    for (const problem of report.problems) console.log(problem);
    if (report.problems.length > 0) {
      console.log(`doors: ${report.problems.length} problem(s) in ${report.files} files`);
      code = 1;
    } else {
      console.log(`doors: ${report.files} files, ${report.imports} imports, no problems`);
    }
  } catch (error) {
    if (!(error instanceof DoorsSetupError)) throw error;
    console.error(`doors: ${error.message}`);
    code = 2;
  }
  Deno.exit(code);
}
