/**
 * An incoming mail read into what the channel decides on and what the model may see:
 * the thread headers, the one `From:` address, the server's `Authentication-Results` in
 * order, whether a machine sent it (bounces, auto-replies, lists: never answered, so
 * two robots cannot answer each other for ever), the body without the quoted tail of
 * earlier mails, and the attachments: listed, the text ones (and forwarded mails,
 * `message/rfc822`) read up to a cap. MIME, charsets and RFC 2047 words
 * (`=?UTF-8?B?…?=`) are read by `mime.ts`, addresses by `address.ts`.
 *
 * What is returned holds strings only, never the raw bytes, so a processed mail keeps
 * nothing of its message alive.
 *
 * @module
 */
import { parseAddresses } from "./address.ts";
import { htmlText } from "./html_text.ts";
import {
  decodedBody,
  decodeWords,
  header,
  headers,
  type MimePart,
  parseMessage,
  partText,
} from "./mime.ts";

/** An attachment as the model is told of it. */
export interface MailAttachment {
  /** The file name (or the forwarded mail's subject); `attachment` when it has none. */
  name: string;
  /** The MIME type, lower case. */
  type: string;
  /** Bytes. */
  size: number;
  /** Its text, up to the cap, when it is text or a forwarded mail; else `undefined`. */
  text?: string;
  /** The text was cut at the cap. */
  cut?: boolean;
}

/** What the channel knows of one incoming mail. */
export interface IncomingMail {
  /** `<id@host>`, or `undefined` when the mail has none. */
  messageId: string | undefined;
  /** The one sender, or `undefined` when `From:` names none or several. */
  from: { address: string; name: string } | undefined;
  subject: string;
  inReplyTo: string | undefined;
  /** `References`, oldest first. */
  references: string[];
  /** `Authentication-Results` values, top of the mail first. */
  authResults: string[];
  /** A machine sent it (a bounce, an auto-reply, a list). */
  automatic: boolean;
  /** The body as text, without the quoted tail of earlier mails. */
  text: string;
  attachments: MailAttachment[];
}

/** Options for {@linkcode readMail}. */
export interface ReadMailOptions {
  /** The most of a text attachment read, in bytes. @default 65536 */
  attachmentBytes?: number;
}

/** The most of an HTML body turned into text, in bytes. */
const HTML_BYTES = 1_000_000;

/**
 * Reads a raw mail (RFC 5322 bytes).
 *
 * @example
 * ```ts
 * import { readMail } from "./mail.ts";
 * const mail = readMail(new TextEncoder().encode(
 *   "From: =?UTF-8?Q?Ay=C5=9Fe?= <Ayse@Example.com>\r\nSubject: =?UTF-8?B?w5bDp8O8bmPDvA==?=\r\n" +
 *     "Message-ID: <m1@example.com>\r\n\r\nMerhaba\r\n\r\nOn Mon, Bob wrote:\r\n> old\r\n",
 * ));
 * if (mail.from?.address !== "ayse@example.com" || mail.subject !== "Öçüncü") throw new Error();
 * if (mail.text !== "Merhaba") throw new Error(JSON.stringify(mail.text));
 * ```
 */
export function readMail(raw: Uint8Array, options: ReadMailOptions = {}): IncomingMail {
  const cap = options.attachmentBytes ?? 65_536;
  const top = parseMessage(raw);
  const fromList = parseAddresses(header(top, "from") ?? "");
  const single = fromList.length === 1 ? fromList[0]! : undefined;
  const { body, attachments } = contents(top);
  return {
    messageId: messageIdOf(header(top, "message-id")),
    from: single === undefined
      ? undefined
      : { address: single.address.trim().toLowerCase(), name: single.name },
    subject: subjectOf(top),
    inReplyTo: messageIdsOf(header(top, "in-reply-to"))[0],
    references: messageIdsOf(header(top, "references")),
    authResults: headers(top, "authentication-results"),
    automatic: isAutomatic(top, single?.address),
    text: withoutQuotedTail(body),
    attachments: attachments.map((a) => attachmentOf(a, cap)),
  };
}

/**
 * A Message-ID as `<local@host>`, or `undefined` when it is not one (no `@`, spaces,
 * longer than 250 characters).
 *
 * @example
 * ```ts
 * import { messageIdOf } from "./mail.ts";
 * if (messageIdOf(" <a.b@c> ") !== "<a.b@c>" || messageIdOf("a@c") !== "<a@c>") throw new Error();
 * if (messageIdOf("<no id>") !== undefined) throw new Error();
 * ```
 */
export function messageIdOf(value: string | undefined): string | undefined {
  const id = value?.trim().replace(/^<(.*)>$/, "$1");
  if (id === undefined || id.length > 250 || !/^[!-~]+@[!-~]+$/.test(id) || /[<>]/.test(id)) {
    return undefined;
  }
  return `<${id}>`;
}

/** The Message-IDs in a `References` or `In-Reply-To` value, in order. */
function messageIdsOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  const bracketed = value.match(/<[^<>]*>/g);
  const ids = bracketed ?? value.split(/\s+/);
  return ids.map(messageIdOf).filter((id): id is string => id !== undefined);
}

function subjectOf(part: MimePart): string {
  return decodeWords(header(part, "subject") ?? "").replace(/[\r\n\t]+/g, " ").trim();
}

/** Whether a machine sent the mail (RFC 3834's `Auto-Submitted`, bulk, lists, bounces). */
function isAutomatic(top: MimePart, from: string | undefined): boolean {
  const one = (key: string) => header(top, key)?.toLowerCase();
  const auto = one("auto-submitted");
  if (auto !== undefined && !/^no\b/.test(auto)) return true;
  if (/^(bulk|junk|list|auto_reply)$/.test(one("precedence") ?? "")) return true;
  if (one("list-id") !== undefined || one("list-unsubscribe") !== undefined) return true;
  if (one("return-path")?.replace(/\s+/g, "") === "<>") return true;
  const local = from?.split("@")[0]?.toLowerCase() ?? "";
  return local === "mailer-daemon" || local === "postmaster";
}

/** A part the mail's reader takes for an attachment. */
function isAttachment(part: MimePart): boolean {
  if (part.type === "message/rfc822") return true;
  if (part.disposition === "attachment") return true;
  if (part.type !== "text/plain" && part.type !== "text/html") return true;
  return fileName(part) !== undefined;
}

function fileName(part: MimePart): string | undefined {
  const name = part.dispositionParams.filename ?? part.params.name;
  return name === undefined || name.trim() === "" ? undefined : name.trim();
}

/**
 * The body text and the attachments of a message: the text parts that are not
 * attachments, in order (of an alternative, the plain one, else the HTML one as text;
 * an HTML-only mail becomes text), and every other leaf part.
 */
function contents(top: MimePart): { body: string; attachments: MimePart[] } {
  const plain: string[] = [];
  const html: string[] = [];
  const attachments: MimePart[] = [];
  const walk = (part: MimePart) => {
    if (part.type === "multipart/alternative" && part.parts.length > 0) {
      const chosen = part.parts.find((p) => yieldsPlain(p)) ??
        part.parts.find((p) => !isAttachment(p) || p.type.startsWith("multipart/"));
      for (const p of part.parts) {
        if (p === chosen) walk(p);
        else if (p.type.startsWith("multipart/")) collectAttachments(p, attachments);
      }
      return;
    }
    if (part.type.startsWith("multipart/") && part.parts.length > 0) {
      for (const p of part.parts) walk(p);
      return;
    }
    if (part.type.startsWith("multipart/")) return;
    if (isAttachment(part)) attachments.push(part);
    else if (part.type === "text/html") html.push(partText(part, HTML_BYTES));
    else plain.push(partText(part));
  };
  walk(top);
  const text = plain.length > 0 ? plain.join("\n") : html.map(htmlText).join("\n");
  return { body: text.trim(), attachments };
}

/** Whether a part gives a plain-text body (itself, or a multipart holding one). */
function yieldsPlain(part: MimePart): boolean {
  if (part.type.startsWith("multipart/")) return part.parts.some(yieldsPlain);
  return part.type === "text/plain" && !isAttachment(part);
}

/** The attachments of a branch not taken (an alternative's HTML branch with its images). */
function collectAttachments(part: MimePart, into: MimePart[]): void {
  for (const p of part.parts) {
    if (p.type.startsWith("multipart/")) collectAttachments(p, into);
    else if (isAttachment(p)) into.push(p);
  }
}

/**
 * `text` without the quoted tail of an earlier mail: the trailing `>` lines and the
 * "On …, X wrote:" line before them (the session holds the earlier mails already).
 *
 * @example
 * ```ts
 * import { withoutQuotedTail } from "./mail.ts";
 * const t = withoutQuotedTail("Yes.\n\n> Can you?\n> Thanks");
 * if (t !== "Yes.") throw new Error(t);
 * if (withoutQuotedTail("> only a quote") !== "> only a quote") throw new Error();
 * ```
 */
export function withoutQuotedTail(text: string): string {
  const lines = text.split("\n");
  let end = lines.length;
  while (end > 0 && (lines[end - 1]!.startsWith(">") || lines[end - 1]!.trim() === "")) end--;
  if (end === lines.length || end === 0) return text.trim();
  // The attribution line ("On Mon, 1 Jan 2026, Ayşe wrote:", "… yazdı:") goes too.
  if (/(wrote|yazdı|schrieb|a écrit)\s*:\s*$/i.test(lines[end - 1]!)) end--;
  const kept = lines.slice(0, end).join("\n").trim();
  return kept === "" ? text.trim() : kept;
}

function attachmentOf(part: MimePart, cap: number): MailAttachment {
  const type = part.type;
  const bytes = decodedBody(part);
  const name = fileName(part);
  const base: MailAttachment = { name: name ?? "attachment", type, size: bytes.length };
  if (type === "message/rfc822") {
    const inner = parseMessage(bytes);
    const date = new Date(header(inner, "date") ?? "");
    const head = [
      `From: ${addressText(header(inner, "from") ?? "")}`,
      `Date: ${Number.isNaN(date.getTime()) ? "" : date.toISOString()}`,
      `Subject: ${subjectOf(inner)}`,
    ].join("\n");
    const text = `${head}\n\n${contents(inner).body}`;
    return { ...base, name: name ?? (subjectOf(inner) || "forwarded"), ...capped(text, cap) };
  }
  if (type.startsWith("text/") || /\/(json|xml|csv|x-yaml|yaml)$/.test(type)) {
    // Four bytes more than the cap: the cut falls on a whole character.
    return { ...base, ...capped(partText(part, cap + 4), cap, bytes.length > cap + 4) };
  }
  return base;
}

/** A `From:` value as people read it: `"Name" <address>`, comma-separated. */
function addressText(value: string): string {
  return parseAddresses(value).map((m) => m.name === "" ? m.address : `"${m.name}" <${m.address}>`)
    .join(", ");
}

function capped(text: string, cap: number, longer = false): { text: string; cut?: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= cap && !longer) return { text };
  // Cut on a character boundary.
  const cut = new TextDecoder().decode(bytes.slice(0, cap)).replace(/\uFFFD$/, "");
  return { text: cut, cut: true };
}
