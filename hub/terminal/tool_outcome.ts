/**
 * The line a terminal shows after a tool call: whether it ran, was denied or failed,
 * and what it returned in short. Chat and the TUI print the same line, from the desk's
 * `TOOL_CALL_RESULT` event (its content is the tool's output as JSON).
 *
 * @module
 */
import { catalogue, type Lang } from "../i18n.ts";
import { oneLine } from "../text.ts";

const t = catalogue({
  ran: "  ✓ {tool} ran{result}",
  denied: "  ✗ {tool} denied: it did not run",
  failed: "  ✗ {tool} failed: {error}",
}, {
  ran: "  ✓ {tool} çalıştı{result}",
  denied: "  ✗ {tool} reddedildi: çalışmadı",
  failed: "  ✗ {tool} başarısız: {error}",
});

/** How many characters of a result the line keeps. */
const SHORT = 60;

/**
 * The outcome line of `tool` from its result `content` (JSON text): `{declined: true}`
 * is a denial, `{error}` a failure, anything else ran (with its result in short).
 *
 * @example
 * ```ts
 * import { toolOutcomeLine } from "./tool_outcome.ts";
 * const line = toolOutcomeLine("en", "shell", '{"error":"exit 1"}');
 * if (line !== "  ✗ shell failed: exit 1") throw new Error(line);
 * ```
 */
export function toolOutcomeLine(lang: Lang, tool: string, content: string): string {
  let output: unknown;
  try {
    output = JSON.parse(content);
  } catch {
    output = content;
  }
  if (typeof output === "object" && output !== null && !Array.isArray(output)) {
    const o = output as Record<string, unknown>;
    if (o.declined === true) return t(lang, "denied", { tool });
    if (typeof o.error === "string") {
      return t(lang, "failed", { tool, error: oneLine(o.error, { max: SHORT, ellipsis: true }) });
    }
  }
  const short = summary(output);
  return t(lang, "ran", { tool, result: short === "" ? "" : `: ${short}` });
}

function summary(output: unknown): string {
  if (output === undefined || output === null) return "";
  const text = typeof output === "string" ? output : JSON.stringify(output) ?? "";
  return oneLine(text, { max: SHORT, ellipsis: true });
}
