/**
 * The link check of the documentation: every relative link and `#anchor` in
 * `README.md`, `CONTRIBUTING.md` and `docs/` must resolve, the way GitHub renders them,
 * so a page moved or a heading renamed fails a test instead of a reader.
 *
 * - A relative link names a file or folder that exists (from the linking file's
 *   folder; a leading `/` is the repository's root), inside the repository.
 * - An anchor names a heading of the target Markdown file (or of the same file for
 *   `#anchor`), by GitHub's slug: lowercase, punctuation dropped, each space a `-`,
 *   repeated headings `-1`, `-2`. Into another kind of file only a line anchor
 *   (`#L12`, `#L12-L20`) is accepted.
 * - An `http(s)` link is checked for its syntax only: nothing reaches the network.
 *
 * Inline links and images, reference definitions and `<https://…>` autolinks are read;
 * fenced code blocks and inline code are not. Only ATX headings (`## …`) are anchors.
 *
 * Run it alone as `deno run --allow-read tests/docs/links.ts [ROOT]`: one line per
 * broken link, exit 1 when there is any.
 *
 * @module
 */
import { docFiles, lineAt, proseLines, proseText } from "./_markdown.ts";

/** One link as written, with its 1-based line. */
export interface Link {
  line: number;
  target: string;
}

/**
 * GitHub's anchor for a heading's text: the rendered text lowercased, every character
 * but letters, marks, digits, `_`, `-` and spaces dropped, each space made a `-`.
 *
 * @example
 * ```ts
 * import { githubSlug } from "./links.ts";
 * if (githubSlug("Configuration: `agent.toml`") !== "configuration-agenttoml") throw new Error();
 * ```
 */
export function githubSlug(heading: string): string {
  return renderedText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The text a heading renders to: code, links and emphasis reduced to their words. */
function renderedText(heading: string): string {
  const parts = heading.split(/(`+[^`]*`+)/);
  return parts.map((part, i) => {
    if (i % 2 === 1) return part.replace(/^`+|`+$/g, "");
    return part
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "")
      .replace(/\\([!-/:-@[-`{-~])/g, "$1")
      .replace(/[*~]+/g, "")
      .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, "$1");
  }).join("").trim();
}

/** Every anchor the headings of `markdown` get on GitHub, duplicates numbered. */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = text.match(/^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/);
    if (!heading) continue;
    const base = githubSlug(heading[1] ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

const INLINE =
  /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*(<[^>\n]*>|\S+)/gm;
const AUTOLINK = /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]*)>/gi;

/** Every link target in `markdown` outside code, in order of appearance. */
export function findLinks(markdown: string): Link[] {
  const text = proseText(markdown);
  const found: { offset: number; target: string }[] = [];
  for (const pattern of [INLINE, DEFINITION, AUTOLINK]) {
    for (const match of text.matchAll(pattern)) {
      const raw = match[1] ?? "";
      const target = raw.startsWith("<") && raw.endsWith(">") ? raw.slice(1, -1) : raw;
      found.push({ offset: match.index, target });
    }
  }
  return found.sort((a, b) => a.offset - b.offset)
    .map(({ offset, target }) => ({ line: lineAt(text, offset), target }));
}

/** What is wrong with one link of `file` (relative to `root`), or `undefined`. */
async function problemOf(
  root: string,
  file: string,
  target: string,
  slugsOf: (path: string) => Promise<Set<string>>,
): Promise<string | undefined> {
  if (target === "") return "an empty link";
  const scheme = target.match(/^([a-z][a-z0-9+.-]*):/i)?.[1]?.toLowerCase();
  if (scheme === "http" || scheme === "https") {
    return /\s/.test(target) || !URL.canParse(target) || new URL(target).hostname === ""
      ? "not a valid URL"
      : undefined;
  }
  if (scheme === "mailto") {
    return /^mailto:[^\s@]+@[^\s@]+$/i.test(target) ? undefined : "not a valid address";
  }
  if (scheme !== undefined) {
    return `a '${scheme}:' link, which a reader of the repository cannot open`;
  }
  const hash = target.indexOf("#");
  const pathPart = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : target.slice(hash + 1);
  let path: string;
  try {
    path = decodeURIComponent(pathPart.replace(/\?.*$/, ""));
  } catch {
    return "not a valid path";
  }
  const resolved = path === ""
    ? file
    : normalize(path.startsWith("/") ? path.slice(1) : `${dirname(file)}${path}`);
  if (resolved === undefined) return "outside the repository";
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(resolved === "" ? root : `${root}/${resolved}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "no such file";
    throw error;
  }
  if (anchor === undefined) return undefined;
  if (anchor === "") return "an empty anchor";
  if (!info.isFile) return "an anchor into a folder";
  if (!resolved.endsWith(".md")) {
    return /^L\d+(-L\d+)?$/.test(anchor) ? undefined : `no line anchor '#${anchor}'`;
  }
  let wanted: string;
  try {
    wanted = decodeURIComponent(anchor);
  } catch {
    return "not a valid anchor";
  }
  return (await slugsOf(resolved)).has(wanted)
    ? undefined
    : `no heading '#${wanted}' in ${resolved}`;
}

function dirname(file: string): string {
  const slash = file.lastIndexOf("/");
  return slash === -1 ? "" : file.slice(0, slash + 1);
}

/** `path` with `.` and `..` resolved, or `undefined` when it climbs above the root. */
function normalize(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

/**
 * Checks every link of the documentation under `root` (or of `files`, relative to
 * it): one line per broken link, `file:line: target: why`; empty when all resolve.
 */
export async function checkLinks(root: string, files?: readonly string[]): Promise<string[]> {
  const cache = new Map<string, Set<string>>();
  async function slugsOf(path: string): Promise<Set<string>> {
    let slugs = cache.get(path);
    if (slugs === undefined) {
      slugs = headingSlugs(await Deno.readTextFile(`${root}/${path}`));
      cache.set(path, slugs);
    }
    return slugs;
  }
  const problems: string[] = [];
  for (const file of files ?? await docFiles(root)) {
    const markdown = await Deno.readTextFile(`${root}/${file}`);
    for (const { line, target } of findLinks(markdown)) {
      const problem = await problemOf(root, file, target, slugsOf);
      if (problem !== undefined) problems.push(`${file}:${line}: ${target}: ${problem}`);
    }
  }
  return problems;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
  const problems = await checkLinks(root);
  for (const problem of problems) console.log(problem);
  Deno.exit(problems.length === 0 ? 0 : 1);
}
