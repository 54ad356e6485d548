/**
 * Address lists (`From:`, `To:`; RFC 5322 section 3.4) read into names and addresses.
 * The trust decision rests on the address, so the list is split before any RFC 2047
 * word is decoded: an encoded `<` or `,` in a display name stays part of the name and
 * can never add an address.
 *
 * @module
 */
import { decodeWords } from "./mime.ts";

/** One mailbox of an address list. */
export interface Mailbox {
  /** The display name, decoded; `""` when there is none. */
  name: string;
  /** `local@domain` as written (no angle brackets). */
  address: string;
}

/**
 * The mailboxes of an address list; groups (`Team: a@x, b@y;`) give their members, and
 * an item without an `@` is left out.
 *
 * @example
 * ```ts
 * import { parseAddresses } from "./address.ts";
 * const [a, b] = parseAddresses(
 *   '"Yılmaz, Ayşe" <ayse@example.com>, bob@example.org (Bob)',
 * );
 * if (a?.name !== "Yılmaz, Ayşe" || a.address !== "ayse@example.com") throw new Error();
 * if (b?.name !== "Bob" || b.address !== "bob@example.org") throw new Error();
 * ```
 */
export function parseAddresses(text: string): Mailbox[] {
  const out: Mailbox[] = [];
  for (const item of splitItems(text)) {
    const mailbox = readMailbox(item);
    if (mailbox !== undefined) out.push(mailbox);
  }
  return out;
}

/** The list split on commas (and a group's `:` and `;`) outside quotes, angles and comments. */
function splitItems(text: string): string[] {
  const items: string[] = [];
  let current = "";
  let quoted = false;
  let angle = false;
  let comment = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ((quoted || comment > 0) && c === "\\" && i + 1 < text.length) {
      current += c + text[++i];
      continue;
    }
    if (comment > 0) {
      if (c === "(") comment++;
      if (c === ")") comment--;
      current += c;
      continue;
    }
    if (quoted) {
      if (c === '"') quoted = false;
      current += c;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === "(") comment = 1;
    else if (c === "<") angle = true;
    else if (c === ">") angle = false;
    else if (!angle && (c === "," || c === ";")) {
      items.push(current);
      current = "";
      continue;
    } else if (!angle && c === ":") {
      // A group's name: its members follow.
      current = "";
      continue;
    }
    current += c;
  }
  items.push(current);
  return items.map((s) => s.trim()).filter((s) => s !== "");
}

function readMailbox(item: string): Mailbox | undefined {
  const { outside, comments, angle } = scan(item);
  const address = (angle ?? outside).replace(/\s+/g, "");
  if (!/^[^@\s]+@[^@\s]+$/.test(address)) return undefined;
  const rawName = angle === undefined ? comments : outside;
  return { name: displayName(rawName), address };
}

/** The text outside angle brackets and comments, the comments, and the last `<…>`. */
function scan(item: string): { outside: string; comments: string; angle: string | undefined } {
  let outside = "";
  let comments = "";
  let angle: string | undefined;
  let quoted = false;
  let comment = 0;
  for (let i = 0; i < item.length; i++) {
    const c = item[i]!;
    if ((quoted || comment > 0) && c === "\\" && i + 1 < item.length) {
      const next = item[++i]!;
      if (comment > 0) comments += next;
      else outside += c + next;
      continue;
    }
    if (comment > 0) {
      if (c === "(") comment++;
      if (c === ")") comment--;
      if (comment > 0) comments += c;
      else comments += " ";
      continue;
    }
    if (quoted) {
      if (c === '"') quoted = false;
      outside += c;
      continue;
    }
    if (c === '"') {
      quoted = true;
      outside += c;
    } else if (c === "(") comment = 1;
    else if (c === "<") {
      const end = item.indexOf(">", i);
      angle = item.slice(i + 1, end < 0 ? item.length : end).trim();
      i = end < 0 ? item.length : end;
    } else outside += c;
  }
  return { outside: outside.trim(), comments: comments.trim(), angle };
}

/** A display name unquoted, its RFC 2047 words decoded, its spaces tidied. */
function displayName(raw: string): string {
  const unquoted = raw.replace(/"((?:[^"\\]|\\.)*)"/g, (_, q: string) => q.replace(/\\(.)/g, "$1"));
  return decodeWords(unquoted).replace(/\s+/g, " ").trim();
}
