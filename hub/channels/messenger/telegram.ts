/**
 * What the Bot API asks of every message: HTML with everything escaped, at most 4,096
 * characters a message, and errors that never carry the token. Pure functions.
 *
 * @module
 */

/** The Bot API's longest message text, in UTF-16 units as Telegram counts them. */
export const MESSAGE_MAX = 4096;

/**
 * Escapes text for `parse_mode: "HTML"`: `&`, `<` and `>` (quotes need no escape
 * outside attributes). The text then has no entities for Telegram to refuse.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./telegram.ts";
 * if (escapeHtml("a<b> & c") !== "a&lt;b&gt; &amp; c") throw new Error();
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Splits `text` into messages of at most `max` characters once escaped, preferring a
 * paragraph break, then a line break, then a space, and cutting a word only when a
 * single one is longer than a message. Surrogate pairs are never split.
 *
 * @example
 * ```ts
 * import { splitMessage } from "./telegram.ts";
 * const parts = splitMessage("aaaa\n\nbbbb", 6);
 * if (parts.join("|") !== "aaaa|bbbb") throw new Error(parts.join("|"));
 * ```
 */
export function splitMessage(text: string, max = MESSAGE_MAX): string[] {
  return splitParts(text, max).map((part) => part.text);
}

/** A part of a text split by {@linkcode splitParts}. */
export interface SplitPart {
  text: string;
  /**
   * The cut after it fell inside a line (a line longer than a message): the next part
   * goes on with the same line, so a mark open at the cut runs on into it.
   */
  cutsLine: boolean;
}

/**
 * {@linkcode splitMessage}'s parts, each with whether the cut after it fell inside a
 * line.
 *
 * @example
 * ```ts
 * import { splitParts } from "./telegram.ts";
 * const [a, b, c] = splitParts("aaaa bbbb\ncccc", 6);
 * if (a!.text !== "aaaa" || !a!.cutsLine || b!.cutsLine || c!.text !== "cccc") throw new Error();
 * ```
 */
export function splitParts(text: string, max = MESSAGE_MAX): SplitPart[] {
  const parts: SplitPart[] = [];
  let rest = text.trim();
  while (rest !== "") {
    if (escapeHtml(rest).length <= max) {
      parts.push({ text: rest, cutsLine: false });
      break;
    }
    const cut = cutAt(rest, max);
    const head = rest.slice(0, cut);
    const tail = rest.slice(cut);
    // The white space the cut drops: a line break in it means the cut was between lines.
    const gap = head.slice(head.trimEnd().length) +
      tail.slice(0, tail.length - tail.trimStart().length);
    parts.push({ text: head.trimEnd(), cutsLine: !gap.includes("\n") });
    rest = tail.trimStart();
  }
  return parts;
}

/** Where to cut `text` so its head, escaped, fits `max`. */
function cutAt(text: string, max: number): number {
  // The longest head that fits once escaped.
  let fit = 0;
  let size = 0;
  for (const ch of text) {
    const grow = ch === "&" ? 5 : ch === "<" || ch === ">" ? 4 : ch.length;
    if (size + grow > max) break;
    size += grow;
    fit += ch.length;
  }
  const head = text.slice(0, fit);
  for (const boundary of ["\n\n", "\n", " "]) {
    const at = head.lastIndexOf(boundary);
    // A break in the first fifth would leave a tiny message: look for a smaller one.
    if (at > fit / 5) return at + boundary.length;
  }
  return Math.max(fit, 1);
}

/**
 * Removes the bot token from a text (grammY's errors carry the request URL, which
 * holds it).
 */
export function scrubToken(text: string, token: string): string {
  if (token === "") return text;
  return text.split(token).join("<token>");
}

/** What the Bot API said about a failed call, from a grammY error or anything else. */
export interface BotApiFailure {
  /** The HTTP-like code (`error_code`); 0 when the request never got an answer. */
  code: number;
  /** Telegram's description, or the error's message, without the token. */
  description: string;
  /** Seconds to wait (`parameters.retry_after` of a 429). */
  retryAfter?: number;
}

/** Reads a thrown value as a {@linkcode BotApiFailure}. */
export function botApiFailure(error: unknown, token: string): BotApiFailure {
  const e = error as {
    error_code?: unknown;
    description?: unknown;
    parameters?: { retry_after?: unknown };
    message?: unknown;
  };
  if (typeof e?.error_code === "number") {
    const retry = e.parameters?.retry_after;
    return {
      code: e.error_code,
      description: scrubToken(String(e.description ?? ""), token),
      ...(typeof retry === "number" ? { retryAfter: retry } : {}),
    };
  }
  const message = typeof e?.message === "string" ? e.message : String(error);
  return { code: 0, description: scrubToken(message.split("\n")[0] ?? "", token) };
}

/** Telegram refused the text's entities (HTML it could not parse). */
export function refusedEntities(failure: BotApiFailure): boolean {
  return failure.code === 400 && /can't parse entities/i.test(failure.description);
}

/** An edit that would not change the message. */
export function notModified(failure: BotApiFailure): boolean {
  return failure.code === 400 && /message is not modified/i.test(failure.description);
}

// C0 controls but newline, DEL, C1 controls, and the bidi embeddings, overrides and
// isolates: a chat shows none of them.
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Text from someone else (a peer's note, a name, a quoted message) as a chat shows it:
 * control characters become spaces (a phone shows no escapes), and with `max` it is
 * cut to that many characters, ending with "…" when cut.
 *
 * @example
 * ```ts
 * import { chatText } from "./telegram.ts";
 * if (chatText("hi\x1b[2J") !== "hi [2J") throw new Error();
 * if (chatText("abcdef", 4) !== "abc…") throw new Error();
 * ```
 */
export function chatText(text: string, max?: number): string {
  const clean = text.replace(CONTROLS, " ");
  if (max === undefined) return clean;
  const chars = Array.from(clean);
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/**
 * Escapes `text` for HTML, showing each `` `code` `` span of a line as `<code>`
 * (commands the owner may type elsewhere) instead of literal backticks. An unpaired
 * backtick stays as it is.
 *
 * @example
 * ```ts
 * import { htmlWithCode } from "./telegram.ts";
 * const html = htmlWithCode("run `agent tui` & see");
 * if (html !== "run <code>agent tui</code> &amp; see") throw new Error(html);
 * ```
 */
export function htmlWithCode(text: string): string {
  return text.split("\n").map((line) =>
    line.split(/(`[^`\n]+`)/).map((piece) =>
      piece.length > 2 && piece.startsWith("`") && piece.endsWith("`")
        ? `<code>${escapeHtml(piece.slice(1, -1))}</code>`
        : escapeHtml(piece)
    ).join("")
  ).join("\n");
}
