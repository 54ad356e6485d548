/**
 * What the docs checks read of a Markdown file: its prose, with fenced code blocks and
 * inline code spans blanked out (so a link or a `|` shown as code is not taken for the
 * real thing), its line numbers kept.
 *
 * @module
 */

/** Lines outside fenced code blocks, with their 1-based numbers. */
export function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((text, index) => {
    const marker = text.match(/^ {0,3}(`{3,}|~{3,})/)?.[1];
    if (fence === undefined) {
      if (marker !== undefined) fence = marker;
      else out.push({ line: index + 1, text });
    } else if (
      marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length &&
      text.trim() === marker
    ) {
      fence = undefined;
    }
  });
  return out;
}

/**
 * The file's prose as one text: fenced code blocks become empty lines and inline code
 * spans become spaces, so offsets still map to the same lines.
 */
export function proseText(markdown: string): string {
  const lines = markdown.split("\n").map(() => "");
  for (const { line, text } of proseLines(markdown)) lines[line - 1] = text;
  return blankCodeSpans(lines.join("\n"));
}

/**
 * `text` with each inline code span made spaces: a run of backticks up to the next run
 * of the same length within the paragraph (an unmatched run stays as it is).
 */
export function blankCodeSpans(text: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\\" && text[i + 1] === "`") {
      out.push("\\`");
      i += 2;
      continue;
    }
    if (ch !== "`") {
      out.push(ch);
      i++;
      continue;
    }
    let run = 0;
    while (text[i + run] === "`") run++;
    const end = closingRun(text, i + run, run);
    if (end === undefined) {
      out.push("`".repeat(run));
      i += run;
    } else {
      out.push(text.slice(i, end + run).replace(/[^\n]/g, " "));
      i = end + run;
    }
  }
  return out.join("");
}

/** Where the next run of exactly `run` backticks starts, before a blank line. */
function closingRun(text: string, from: number, run: number): number | undefined {
  let i = from;
  while (i < text.length) {
    if (text[i] === "\n" && /^\n[ \t]*(\n|$)/.test(text.slice(i, i + 80))) return undefined;
    if (text[i] !== "`") {
      i++;
      continue;
    }
    let length = 0;
    while (text[i + length] === "`") length++;
    if (length === run) return i;
    i += length;
  }
  return undefined;
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The Markdown files the docs checks read, relative to `root`: `README.md`,
 * `CONTRIBUTING.md` and every `.md` under `docs/`, sorted.
 */
export async function docFiles(root: string): Promise<string[]> {
  const files: string[] = [];
  for (const name of ["README.md", "CONTRIBUTING.md"]) {
    if (await isFile(`${root}/${name}`)) files.push(name);
  }
  async function walk(dir: string): Promise<void> {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(`${root}/${dir}`));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && entry.name.endsWith(".md")) files.push(path);
    }
  }
  await walk("docs");
  return files.sort();
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
