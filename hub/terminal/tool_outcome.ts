/**
 * The line a terminal shows after a tool call: one sentence a person reads, per tool
 * (“Saved the note “groceries” (10 bytes).”), never the tool's raw JSON. A call that did
 * not run says why, a failure says what failed, and a tool this file does not know (an
 * MCP server's, a plug-in's) gets a short sentence with its name and how much it
 * returned. Chat and the TUI print the same line, from the desk's `TOOL_CALL_RESULT`
 * event (its content is the tool's output as JSON), and again for each outcome of a
 * resumed session.
 *
 * @module
 */
import { formatTime, type Lang } from "../i18n.ts";
import { formatCount } from "../numbers.ts";
import { oneLine, printable } from "../text.ts";
import { t } from "./_messages.ts";

/** How many characters of a value from a result a sentence keeps. */
const SHORT = 60;

type Output = Record<string, unknown>;
type Say = (lang: Lang, o: Output, tool: string) => string | undefined;

/**
 * The outcome line of `tool` from its result `content` (JSON text): `{declined: true}`
 * did not run (with its `reason`), `{error}` failed, anything else ran, said in the
 * tool's own sentence.
 *
 * @example
 * ```ts
 * import { toolOutcomeLine } from "./tool_outcome.ts";
 * const line = toolOutcomeLine("en", "write_note", '{"saved":"groceries","bytes":10}');
 * if (line !== "  ✓ Saved the note “groceries” (10 bytes).") throw new Error(line);
 * ```
 */
export function toolOutcomeLine(lang: Lang, tool: string, content: string): string {
  let output: unknown;
  try {
    output = JSON.parse(content);
  } catch {
    output = content;
  }
  const name = short(tool);
  if (isObject(output)) {
    if (output.declined === true) {
      const reason = REASONS.includes(output.reason as string) ? output.reason as string : "denied";
      return t(lang, reason as "denied", { tool: name });
    }
    if (typeof output.error === "string") {
      return t(lang, "failed", { tool: name, error: short(output.error) });
    }
    const said = (SENTENCES[tool] ?? mcpSentence)(lang, output, tool);
    if (said !== undefined) return said;
  }
  return generic(lang, name, output);
}

/** Why a call did not run, as the tool loop names it. */
const REASONS = ["denied", "expired", "cancelled", "no_one_to_ask"];

/** Each built-in tool's sentence; `undefined` when its result is not the usual shape. */
const SENTENCES: Record<string, Say> = {
  current_time(lang, o) {
    if (typeof o.utc !== "string" || typeof o.time_zone !== "string") return undefined;
    const time = typeof o.formatted === "string"
      ? o.formatted
      : typeof o.local === "string"
      ? o.local.replace("T", " ")
      : formatTime(Date.parse(o.utc));
    return t(lang, "time", { time: short(time), zone: short(o.time_zone) });
  },
  read_file(lang, o) {
    if (typeof o.path !== "string" || typeof o.text !== "string") return undefined;
    const chars = count(lang, "chars", [...o.text].length);
    return t(lang, o.truncated === true ? "read_file_cut" : "read_file", {
      path: short(o.path),
      chars,
    });
  },
  list_notes(lang, o) {
    if (!Array.isArray(o.notes)) return undefined;
    return t(lang, "list_notes", { count: count(lang, "notes", o.notes.length) });
  },
  read_note(lang, o) {
    if (typeof o.name !== "string" || typeof o.text !== "string") return undefined;
    return t(lang, "read_note", {
      name: short(o.name),
      chars: count(lang, "chars", [...o.text].length),
    });
  },
  write_note(lang, o) {
    if (typeof o.saved !== "string" || typeof o.bytes !== "number") return undefined;
    return t(lang, "write_note", { name: short(o.saved), bytes: count(lang, "bytes", o.bytes) });
  },
  fetch_url(lang, o) {
    if (typeof o.url !== "string") return undefined;
    const url = short(o.url);
    if (typeof o.status === "number" && o.status >= 400) {
      return t(lang, "fetch_url_status", { url, status: o.status });
    }
    const chars = count(lang, "chars", typeof o.text === "string" ? [...o.text].length : 0);
    return typeof o.title === "string" && o.title.trim() !== ""
      ? t(lang, "fetch_url_title", { title: short(o.title), url, chars })
      : t(lang, "fetch_url", { url, chars });
  },
  shell(lang, o) {
    if (typeof o.exit_code !== "number" && o.exit_code !== null) return undefined;
    const text = typeof o.text === "string" ? o.text.replace(/\n$/, "") : "";
    const lines = count(lang, "lines", text === "" ? 0 : text.split("\n").length);
    if (o.timed_out !== undefined) return t(lang, "shell_timeout", { lines });
    return o.exit_code === 0
      ? t(lang, "shell_ok", { lines })
      : t(lang, "shell_exit", { code: String(o.exit_code), lines });
  },
  web_search(lang, o) {
    if (typeof o.query !== "string") return undefined;
    const hits = typeof o.text === "string" ? (o.text.match(/^\d+\. /gm) ?? []).length : 0;
    return t(lang, "web_search", { query: short(o.query), results: count(lang, "results", hits) });
  },
  net_send(lang, o) {
    if (o.sent !== true || typeof o.to !== "string") return undefined;
    return t(lang, o.delivered === false ? "net_later" : "net_sent", { to: short(o.to) });
  },
  recall(lang, o) {
    if (!Array.isArray(o.memories)) return undefined;
    return t(lang, "recall", { memories: count(lang, "memories", o.memories.length) });
  },
  remember(lang, o) {
    if (typeof o.pending === "number") return t(lang, "remember_pending", { id: o.pending });
    if (typeof o.remembered !== "number") return undefined;
    return typeof o.replaces === "number"
      ? t(lang, "remember_replaces", { id: o.remembered, old: o.replaces })
      : t(lang, "remember", { id: o.remembered });
  },
  forget(lang, o) {
    if (!Array.isArray(o.forgotten)) return undefined;
    const missing = Array.isArray(o.not_found) ? o.not_found : [];
    if (o.forgotten.length === 0) return t(lang, "forget_none", { missing: ids(lang, missing) });
    const gone = ids(lang, o.forgotten);
    return missing.length === 0
      ? t(lang, "forget", { ids: gone })
      : t(lang, "forget_missing", { ids: gone, missing: ids(lang, missing) });
  },
};

/** An MCP server's tool (`server__tool`, its result an untrusted text): what it answered. */
function mcpSentence(lang: Lang, o: Output, tool: string): string | undefined {
  const at = tool.indexOf("__");
  if (at <= 0 || typeof o.text !== "string") return undefined;
  const vars = { tool: short(tool.slice(at + 2)), server: short(tool.slice(0, at)) };
  if (o.is_error === true) return t(lang, "mcp_error", { ...vars, text: short(o.text) });
  return t(lang, "mcp_ran", { ...vars, chars: count(lang, "chars", [...o.text].length) });
}

/** A tool of unknown shape: its name, and how much it returned. */
function generic(lang: Lang, tool: string, output: unknown): string {
  if (output === undefined || output === null || output === "") return t(lang, "ran", { tool });
  const text = typeof output === "string"
    ? output
    : isObject(output) && typeof output.text === "string"
    ? output.text
    : JSON.stringify(output) ?? "";
  return t(lang, "ran_text", { tool, chars: count(lang, "chars", [...text].length) });
}

/** Things counted with a word for none (`no output`). */
type Counted = "lines" | "notes" | "results" | "memories";
/** Things measured (`0 bytes`). */
type Measured = "chars" | "bytes";

/** `n` things in words: `1 byte`, `10 bytes`, `no output`. */
function count(lang: Lang, what: Counted | Measured, n: number): string {
  if (n === 0 && what !== "chars" && what !== "bytes") return t(lang, `${what}_none`);
  return n === 1 ? t(lang, `${what}_one`) : t(lang, `${what}_many`, { n: formatCount(n, lang) });
}

/** Memory ids as a sentence names them: `memory #4`, `memories #4, #7`. */
function ids(lang: Lang, list: readonly unknown[]): string {
  const shown = list.map((id) => `#${short(String(id))}`);
  return shown.length === 1
    ? t(lang, "memory_one", { id: shown[0]!.slice(1) })
    : t(lang, "memory_many", { ids: shown.join(", ") });
}

/** A value from a result, fit for a sentence: one line, printable, cut with "…". */
function short(value: string): string {
  return oneLine(printable(value), { max: SHORT, ellipsis: true });
}

function isObject(value: unknown): value is Output {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
