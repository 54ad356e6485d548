/**
 * Memories in and out as Markdown: `agent memory export` writes a heading per scope and
 * per kind with one bullet per memory; `agent memory import` reads bullet lists, such
 * as another agent's `MEMORY.md`, taking each bullet (at any depth) as a memory and the
 * nearest heading that names a kind (Preferences, Events, Instructions; Tercihler ...)
 * as its kind. Code blocks and HTML comments are skipped.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { memoryError } from "./errors.ts";
import { kindWord } from "./lines.ts";
import { type Memory, MEMORY_KINDS, type MemoryKind } from "./types.ts";

/** The most bytes an import reads. */
export const MAX_IMPORT_BYTES = 256 * 1024;
/** The most memories one import adds. */
export const MAX_IMPORT_ITEMS = 2000;

/** One memory an import found. */
export interface ImportItem {
  text: string;
  kind: MemoryKind;
  /** Marked 📌 (as an export marks a pinned memory). */
  pinned: boolean;
}

// Heading words that name a kind, in English and Turkish (folded to lower case).
const KIND_WORDS: [RegExp, MemoryKind][] = [
  [/prefer|like|taste|tercih|sevdi/, "preference"],
  [/instruction|rule|guideline|always|never|talimat|kural/, "instruction"],
  [/event|history|timeline|log|happen|olay|gecmis|tarih/, "event"],
];

/** The kind a heading names, or `fact`. */
function headingKind(heading: string): MemoryKind {
  const folded = heading.toLowerCase().replace(/ı/g, "i").normalize("NFKD").replace(/\p{M}/gu, "");
  for (const [pattern, kind] of KIND_WORDS) if (pattern.test(folded)) return kind;
  return "fact";
}

/**
 * The memories of a Markdown text: every bullet (`-`, `*`, `+`, `1.`, a checkbox
 * stripped), its indented continuation lines joined to it, a bullet ending in `:` kept
 * as the prefix of the bullets under it.
 *
 * @example
 * ```ts
 * import { parseMemoryMarkdown } from "./markdown.ts";
 * const items = parseMemoryMarkdown("# Me\n## Preferences\n- Tea, not coffee\n- Family:\n  - Wife Ayşe\n");
 * if (items.length !== 2 || items[0]!.kind !== "preference" || items[1]!.text !== "Family: Wife Ayşe") {
 *   throw new Error(JSON.stringify(items));
 * }
 * ```
 */
export function parseMemoryMarkdown(markdown: string): ImportItem[] {
  const items: { text: string; kind: MemoryKind; indent: number }[] = [];
  // Open parents (bullets ending in ':') by indent.
  let parents: { indent: number; text: string }[] = [];
  let kind: MemoryKind = "fact";
  let fence = false;
  const text = markdown.replace(/<!--[\s\S]*?-->/g, "");
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(raw);
    if (heading) {
      kind = headingKind(heading[1]!);
      parents = [];
      continue;
    }
    const bullet = /^(\s*)(?:[-*+]|\d+[.)])\s+(?:[-*+]\s+)*(?:\[[ xX]\]\s+)?(.*)$/.exec(raw);
    if (bullet) {
      const indent = bullet[1]!.replace(/\t/g, "    ").length;
      const body = bullet[2]!.trim();
      parents = parents.filter((p) => p.indent < indent);
      if (body === "") continue;
      if (body.endsWith(":")) {
        parents.push({ indent, text: body.slice(0, -1).trim() });
        continue;
      }
      const prefix = parents.map((p) => p.text).join(": ");
      items.push({ text: prefix === "" ? body : `${prefix}: ${body}`, kind, indent });
      continue;
    }
    // A continuation line of the last bullet.
    const last = items[items.length - 1];
    if (last !== undefined && /^\s+\S/.test(raw) && raw.search(/\S/) > last.indent) {
      last.text = `${last.text} ${raw.trim()}`;
    } else if (raw.trim() === "") {
      // A blank line ends nothing: a list may go on after it.
    } else if (last !== undefined && !/^\s/.test(raw)) {
      parents = [];
    }
  }
  return items.map(({ text, kind }) => {
    const flat = text.replace(/\s+/g, " ").trim();
    const pinned = flat.endsWith("📌");
    return { text: pinned ? flat.slice(0, -2).trim() : flat, kind, pinned };
  }).filter((item) => item.text !== "");
}

/**
 * The memories of the file at `file` for an import. Throws a `MemoryError` when it
 * cannot be read, is larger than {@linkcode MAX_IMPORT_BYTES}, holds more than
 * {@linkcode MAX_IMPORT_ITEMS} memories or none at all.
 */
export async function readImportFile(file: string, lang: Lang): Promise<ImportItem[]> {
  let size: number;
  try {
    size = (await Deno.stat(file)).size;
  } catch (error) {
    throw memoryError(lang, "import_unreadable", {
      file,
      detail: error instanceof Error ? error.message : String(error),
    });
  }
  if (size > MAX_IMPORT_BYTES) {
    throw memoryError(lang, "import_too_big", {
      file,
      size: `${Math.ceil(size / 1024)} KB`,
      max: `${MAX_IMPORT_BYTES / 1024} KB`,
    });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(file));
  } catch (error) {
    throw memoryError(lang, "import_unreadable", {
      file,
      detail: error instanceof Error ? error.message : String(error),
    });
  }
  const items = parseMemoryMarkdown(text);
  if (items.length === 0) throw memoryError(lang, "import_empty", { file });
  if (items.length > MAX_IMPORT_ITEMS) {
    throw memoryError(lang, "import_too_many", {
      file,
      count: items.length,
      max: MAX_IMPORT_ITEMS,
    });
  }
  return items;
}

/**
 * The memories in force as Markdown: a heading per scope, one per kind under it, a
 * bullet per memory (pinned ones marked), readable by {@linkcode parseMemoryMarkdown}.
 */
export function memoryMarkdown(memories: readonly Memory[], lang: Lang): string {
  const lines = [`# ${t(lang, "export_title")}`];
  const scopes = [...new Set(memories.map((m) => m.scope))];
  for (const scope of scopes) {
    lines.push("", `## ${scope}`);
    for (const kind of MEMORY_KINDS) {
      const of = memories.filter((m) => m.scope === scope && m.kind === kind);
      if (of.length === 0) continue;
      lines.push("", `### ${KIND_HEADINGS[kind]} (${kindWord(lang, { kind })})`, "");
      for (const m of of) {
        lines.push(`- ${m.text.replace(/\s*\n\s*/g, " ")}${m.pinned ? " 📌" : ""}`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The export's kind headings, in the words an import knows them by. */
const KIND_HEADINGS: Record<MemoryKind, string> = {
  fact: "Facts",
  preference: "Preferences",
  event: "Events",
  instruction: "Instructions",
};
