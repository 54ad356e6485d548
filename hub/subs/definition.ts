/**
 * The sub-agent definition file `persona/subs/<name>.md`: a front matter block of
 * `key: value` lines between two `---` lines, then the persona text.
 *
 * ```md
 * ---
 * about: Chess openings and endgames
 * role: fast
 * public: true
 * public_note: chess-note.md
 * ---
 * You know chess openings well and explain them in two or three sentences.
 * ```
 *
 * Keys: `about` (one line, what the sub-agent does; other agents and the universe see
 * it), `role` (the model role that answers, default `brain`), `public` (`true` lets
 * contacts write to it; default `false`), `public_note` (a file in `persona/subs/`
 * that is its `## User` section in network turns; default the agent's public note).
 *
 * @module
 */

/** A sub-agent name: `^[a-z][a-z0-9-]{1,30}$`. */
export const SUB_NAME_PATTERN: RegExp = /^[a-z][a-z0-9-]{1,30}$/;

/**
 * A file name allowed in `persona/subs/` (the cloud file set's rule): no slash, no
 * leading dot, ending in `.md`.
 */
export const SUB_FILE_PATTERN: RegExp = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.md$/;

/** The front matter keys a definition may carry. */
export const DEFINITION_KEYS = ["about", "role", "public", "public_note"] as const;

/** A parsed definition file. */
export interface SubAgentDefinition {
  /** What the sub-agent does, control characters removed. */
  about: string;
  /** The model role, when the front matter names one. */
  role?: string | undefined;
  /** Whether contacts may write to it. */
  public: boolean;
  /** A file name in `persona/subs/`, when the front matter names one. */
  public_note?: string | undefined;
  /** The persona text after the front matter, trimmed. */
  persona: string;
}

/** Why a definition file is not a usable sub-agent. */
export type DefinitionProblem =
  | { code: "no_front_matter" }
  | { code: "unclosed_front_matter" }
  | { code: "bad_line"; line: number }
  | { code: "unknown_key"; key: string }
  | { code: "duplicate_key"; key: string }
  | { code: "bad_public"; value: string }
  | { code: "bad_note_name"; value: string }
  | { code: "bad_role"; value: string };

/** The outcome of {@linkcode parseSubAgentFile}. */
export type ParsedDefinition =
  | { ok: true; definition: SubAgentDefinition }
  | { ok: false; problem: DefinitionProblem };

const FENCE = /^---[ \t]*$/;
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:[ \t]*(.*)$/;
const ROLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
// Control characters, line separators and bidirectional overrides.
const CONTROLS = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu;

/**
 * Parses a definition file. The text must start with a front matter block.
 *
 * @example
 * ```ts
 * import { parseSubAgentFile } from "./definition.ts";
 * const parsed = parseSubAgentFile("---\nabout: Chess\npublic: true\n---\nYou play chess.\n");
 * if (!parsed.ok || parsed.definition.about !== "Chess" || !parsed.definition.public) {
 *   throw new Error("not parsed");
 * }
 * ```
 */
export function parseSubAgentFile(text: string): ParsedDefinition {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines.length === 0 || !FENCE.test(lines[0] ?? "")) {
    return { ok: false, problem: { code: "no_front_matter" } };
  }
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end === -1) return { ok: false, problem: { code: "unclosed_front_matter" } };
  const values = new Map<string, string>();
  for (let i = 1; i < end; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = KEY_LINE.exec(line);
    if (match === null) return { ok: false, problem: { code: "bad_line", line: i + 1 } };
    const key = match[1] ?? "";
    if (!(DEFINITION_KEYS as readonly string[]).includes(key)) {
      return { ok: false, problem: { code: "unknown_key", key } };
    }
    if (values.has(key)) return { ok: false, problem: { code: "duplicate_key", key } };
    const value = unquote((match[2] ?? "").trim());
    if (value === undefined) return { ok: false, problem: { code: "bad_line", line: i + 1 } };
    values.set(key, value);
  }
  const publicValue = values.get("public") ?? "false";
  if (publicValue !== "true" && publicValue !== "false") {
    return { ok: false, problem: { code: "bad_public", value: publicValue } };
  }
  const note = values.get("public_note");
  if (note !== undefined && note !== "" && !SUB_FILE_PATTERN.test(note)) {
    return { ok: false, problem: { code: "bad_note_name", value: note } };
  }
  const role = values.get("role");
  if (role !== undefined && role !== "" && !ROLE_NAME.test(role)) {
    return { ok: false, problem: { code: "bad_role", value: role } };
  }
  return {
    ok: true,
    definition: {
      about: cleanText(values.get("about") ?? ""),
      role: role || undefined,
      public: publicValue === "true",
      public_note: note || undefined,
      persona: lines.slice(end + 1).join("\n").trim(),
    },
  };
}

/**
 * The persona text of a file: what follows its front matter, or the whole text when
 * it has none (a persona file written by another sub-agent directory).
 *
 * @example
 * ```ts
 * import { personaBody } from "./definition.ts";
 * if (personaBody("---\nabout: x\n---\nHello.\n") !== "Hello.") throw new Error();
 * if (personaBody("Just text.") !== "Just text.") throw new Error();
 * ```
 */
export function personaBody(text: string): string {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? "")) return text.replace(/^\uFEFF/, "").trim();
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end === -1) return "";
  return lines.slice(end + 1).join("\n").trim();
}

/** Removes control characters and collapses whitespace to single spaces. */
export function cleanText(text: string): string {
  return text.replace(CONTROLS, " ").replace(/\s+/g, " ").trim();
}

function unquote(value: string): string | undefined {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === "string" ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
    return value.slice(1, -1).replaceAll("''", "'");
  }
  if (value.startsWith('"') || value.startsWith("'")) return undefined;
  return value;
}
