/**
 * The tables of `CONTRIBUTING.md` that restate code, checked against it: the hub's
 * layer table against `LAYERS` in `_tools/doors/doors.ts` (the layers top down, each
 * with its folders and files), and the member table against the workspace's
 * `deno.json` files (each member, its package name and its exports). A restated table
 * drifts; these name the row and what differs.
 *
 * @module
 */
import type { Layer } from "../../_tools/doors/doors.ts";
import { tableCells } from "./tables.ts";

/** One member as its `deno.json` says: folder, package name and export keys. */
export interface MemberConfig {
  dir: string;
  name: string;
  /** The keys of `exports` (`.`, `./base`); a string `exports` is `.`. */
  exports: string[];
}

/**
 * The rows of the first table of `markdown` whose header row starts with `header`
 * (its first cells), as cells, with their 1-based lines.
 */
export function tableRows(
  markdown: string,
  header: readonly string[],
): { line: number; cells: string[] }[] | undefined {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => {
    const cells = line.trim().startsWith("|") ? tableCells(line) : [];
    return header.every((h, i) => cells[i] === h);
  });
  if (start === -1) return undefined;
  const rows: { line: number; cells: string[] }[] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.trim().startsWith("|"); i++) {
    rows.push({ line: i + 1, cells: tableCells(lines[i]!) });
  }
  return rows;
}

/**
 * The code spans of `cell` outside parentheses, so a row's own words (`startHub()`,
 * `ModelRouter`) in its notes do not count as its folders.
 */
export function namedSpans(cell: string): string[] {
  let outside = "";
  let depth = 0;
  let inCode = false;
  for (const ch of cell) {
    if (ch === "`") inCode = !inCode;
    if (!inCode && ch === "(") depth++;
    if (depth === 0) outside += ch;
    if (!inCode && ch === ")" && depth > 0) depth--;
  }
  return [...outside.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** What differs between the layer table of `markdown` and `layers` (lowest first). */
export function layerTableProblems(markdown: string, layers: readonly Layer[]): string[] {
  const rows = tableRows(markdown, ["Layer", "Folders and files"]);
  if (rows === undefined) return ["no table with the header | Layer | Folders and files |"];
  const problems: string[] = [];
  const topDown = [...layers].reverse();
  const names = rows.map((r) => r.cells[0] ?? "");
  const wanted = topDown.map((l) => l.name);
  if (names.join(",") !== wanted.join(",")) {
    problems.push(`the layers are ${names.join(", ")}; LAYERS has ${wanted.join(", ")}`);
  }
  for (const row of rows) {
    const layer = layers.find((l) => l.name === row.cells[0]);
    if (layer === undefined) continue;
    const listed = namedSpans(row.cells[1] ?? "");
    const missing = layer.paths.filter((p) => !listed.includes(p));
    const extra = listed.filter((p) => !layer.paths.includes(p));
    if (missing.length > 0) {
      problems.push(`line ${row.line}: ${layer.name} lacks ${missing.join(", ")} (in LAYERS)`);
    }
    if (extra.length > 0) {
      problems.push(`line ${row.line}: ${layer.name} lists ${extra.join(", ")} (not in LAYERS)`);
    }
  }
  return problems;
}

/** What differs between the member table of `markdown` and the members' `deno.json`. */
export function memberTableProblems(
  markdown: string,
  members: readonly MemberConfig[],
): string[] {
  const rows = tableRows(markdown, ["Member", "Package"]);
  if (rows === undefined) return ["no table with the header | Member | Package | ... |"];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const dir = (row.cells[0] ?? "").replace(/^`|\/`$/g, "");
    seen.add(dir);
    const member = members.find((m) => m.dir === dir);
    if (member === undefined) {
      problems.push(`line ${row.line}: ${dir}/ is no workspace member`);
      continue;
    }
    const name = (row.cells[1] ?? "").replace(/`/g, "");
    if (name !== member.name) {
      problems.push(`line ${row.line}: ${dir}/ is ${member.name}, not ${name}`);
    }
    // The exports are the code spans `.` and `./name` of the last cell.
    const listed = namedSpans(row.cells.at(-1) ?? "").filter((s) => /^\.(\/[\w.-]+)?$/.test(s));
    const missing = member.exports.filter((e) => !listed.includes(e));
    const extra = listed.filter((e) => !member.exports.includes(e));
    if (missing.length > 0) {
      problems.push(`line ${row.line}: ${dir}/ lacks the export ${missing.join(", ")}`);
    }
    if (extra.length > 0) {
      problems.push(`line ${row.line}: ${dir}/ lists ${extra.join(", ")}, not an export`);
    }
  }
  for (const member of members) {
    if (!seen.has(member.dir)) problems.push(`the member table lacks ${member.dir}/`);
  }
  return problems;
}

/** The workspace members of `root` with their export keys. */
export async function readMemberConfigs(root: string): Promise<MemberConfig[]> {
  const workspace = JSON.parse(await Deno.readTextFile(`${root}/deno.json`)).workspace as string[];
  const out: MemberConfig[] = [];
  for (const entry of workspace) {
    const dir = entry.replace(/^\.\//, "").replace(/\/$/, "");
    const config = JSON.parse(await Deno.readTextFile(`${root}/${dir}/deno.json`));
    const exports = typeof config.exports === "string" ? ["."] : Object.keys(config.exports ?? {});
    out.push({ dir, name: config.name, exports });
  }
  return out;
}
