/**
 * An incoming mail read into what the channel decides on and what the model may see:
 * the thread headers, the one `From:` address, the server's `Authentication-Results` in
 * order, whether a machine sent it (bounces, auto-replies, lists: never answered, so
 * two robots cannot answer each other for ever), the body without the quoted tail of
 * earlier mails, and the attachments: listed, the text ones (and forwarded mails,
 * `message/rfc822`) read up to a cap. MIME, charsets and RFC 2047 words
 * (`=?UTF-8?B?…?=`) are `mailparser`'s.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Attachment, ParsedMail } from "mailparser";

/** `mailparser`, loaded with the first mail: an idle channel does not hold it. */
async function parser(): Promise<typeof import("mailparser").simpleParser> {
  return (await import("mailparser")).simpleParser;
}

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

const PARSE = {
  skipImageLinks: true,
  skipTextLinks: true,
  skipTextToHtml: true,
  // Our own cap applies per attachment; mailparser keeps each one whole in memory.
  maxHtmlLengthToParse: 1_000_000,
} as const;

/**
 * Reads a raw mail (RFC 5322 bytes).
 *
 * @example
 * ```ts
 * import { readMail } from "./mail.ts";
 * const mail = await readMail(new TextEncoder().encode(
 *   "From: =?UTF-8?Q?Ay=C5=9Fe?= <Ayse@Example.com>\r\nSubject: =?UTF-8?B?w5bDp8O8bmPDvA==?=\r\n" +
 *     "Message-ID: <m1@example.com>\r\n\r\nMerhaba\r\n\r\nOn Mon, Bob wrote:\r\n> old\r\n",
 * ));
 * if (mail.from?.address !== "ayse@example.com" || mail.subject !== "Öçüncü") throw new Error();
 * if (mail.text !== "Merhaba") throw new Error(JSON.stringify(mail.text));
 * ```
 */
export async function readMail(
  raw: Uint8Array,
  options: ReadMailOptions = {},
): Promise<IncomingMail> {
  const cap = options.attachmentBytes ?? 65_536;
  const simpleParser = await parser();
  const parsed = await simpleParser(Buffer.from(raw), PARSE);
  const fromList = parsed.from?.value ?? [];
  const single = fromList.length === 1 && fromList[0]!.address ? fromList[0]! : undefined;
  return {
    messageId: messageIdOf(parsed.messageId),
    from: single === undefined
      ? undefined
      : { address: single.address!.trim().toLowerCase(), name: single.name ?? "" },
    subject: parsed.subject ?? "",
    inReplyTo: messageIdOf(parsed.inReplyTo),
    references:
      (Array.isArray(parsed.references)
        ? parsed.references
        : parsed.references
        ? parsed.references.split(/\s+/)
        : []).map(messageIdOf).filter((id): id is string => id !== undefined),
    authResults: headerValues(parsed, "authentication-results"),
    automatic: isAutomatic(parsed),
    text: withoutQuotedTail(bodyText(parsed)),
    attachments: await Promise.all(parsed.attachments.map((a) => attachmentOf(a, cap))),
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

/** The values of header `key` (lower case) in order, each unfolded. */
function headerValues(parsed: ParsedMail, key: string): string[] {
  return parsed.headerLines.filter((h) => h.key === key).map((h) =>
    h.line.replace(/^[^:]*:\s*/, "").replace(/\r?\n[ \t]+/g, " ").trim()
  );
}

/** Whether a machine sent the mail (RFC 3834's `Auto-Submitted`, bulk, lists, bounces). */
function isAutomatic(parsed: ParsedMail): boolean {
  const one = (key: string) => headerValues(parsed, key)[0]?.toLowerCase();
  const auto = one("auto-submitted");
  if (auto !== undefined && auto !== "no") return true;
  if (/^(bulk|junk|list|auto_reply)$/.test(one("precedence") ?? "")) return true;
  if (one("list-id") !== undefined || one("list-unsubscribe") !== undefined) return true;
  if (one("return-path") === "<>") return true;
  const local = parsed.from?.value[0]?.address?.split("@")[0]?.toLowerCase() ?? "";
  return local === "mailer-daemon" || local === "postmaster";
}

function bodyText(parsed: ParsedMail): string {
  // mailparser turns an HTML-only mail into text itself.
  return (parsed.text ?? "").replace(/\r\n/g, "\n").trim();
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

async function attachmentOf(a: Attachment, cap: number): Promise<MailAttachment> {
  const type = (a.contentType ?? "application/octet-stream").toLowerCase();
  const base: MailAttachment = { name: a.filename ?? "attachment", type, size: a.size };
  if (type === "message/rfc822") {
    const inner = await (await parser())(a.content, PARSE);
    const head = [
      `From: ${inner.from?.text ?? ""}`,
      `Date: ${inner.date?.toISOString() ?? ""}`,
      `Subject: ${inner.subject ?? ""}`,
    ].join("\n");
    const body = bodyText(inner);
    const text = `${head}\n\n${body}`;
    return {
      ...base,
      name: a.filename ?? inner.subject ?? "forwarded",
      ...capped(text, cap),
    };
  }
  if (type.startsWith("text/") || /\/(json|xml|csv|x-yaml|yaml)$/.test(type)) {
    return { ...base, ...capped(new TextDecoder().decode(a.content), cap) };
  }
  return base;
}

function capped(text: string, cap: number): { text: string; cut?: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= cap) return { text };
  // Cut on a character boundary.
  const cut = new TextDecoder().decode(bytes.slice(0, cap)).replace(/\uFFFD$/, "");
  return { text: cut, cut: true };
}
