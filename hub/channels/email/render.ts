/**
 * An answer as a mail: one message however long, in the thread of the mail it answers
 * (`In-Reply-To`, `References`, `Re:`), with a text part (the Markdown as the model
 * wrote it, which reads well as text) and an HTML part rendered from it by the
 * messenger's Markdown renderer (every character escaped, only its own tags), the model
 * and the cost in a short footer the owner can turn off (`[email] footer`). It says
 * `Auto-Submitted: auto-replied` (RFC 3834), so another robot does not answer it.
 * The bytes are built once and kept in the outbox: every try sends the same message.
 * The MIME is written by `mime_write.ts`.
 *
 * @module
 */
import type { Lang } from "../../i18n.ts";
import { markdownHtml } from "../messenger/markdown_html.ts";
import { escapeHtml } from "../messenger/telegram.ts";
import { formatUsd } from "../../spend/usd_format.ts";
import { t } from "./_messages.ts";
import type { IncomingMail } from "./mail.ts";
import {
  encodeHeaderText,
  encodeQuotedPrintable,
  headerLine,
  mailDate,
  newBoundary,
} from "./mime_write.ts";
import { replyReferences, replySubject } from "./thread.ts";

/** What an answer cost, for its footer. */
export interface AnswerCost {
  /** The model that answered (the last one when several did). */
  model: string;
  /** Dollars; `null` when the model has no price. */
  usd: number | null;
}

/** What {@linkcode renderAnswer} needs. */
export interface AnswerMail {
  /** The agent's address (the answer's `From:`). */
  from: string;
  /** The mail answered. */
  mail: Pick<IncomingMail, "messageId" | "references" | "inReplyTo" | "subject">;
  /** Who gets the answer. */
  to: string;
  /** The answer's own Message-ID (derived from the mail's). */
  messageId: string;
  /** The answer, Markdown. */
  text: string;
  lang: Lang;
  /** The footer's figures; none when the owner turned the footer off. */
  cost?: AnswerCost | undefined;
  /** @default now */
  date?: Date;
}

/** The footer line: the model and the cost. */
export function footerLine(lang: Lang, cost: AnswerCost): string {
  return cost.usd === null
    ? t(lang, "footer_unpriced", { model: cost.model })
    : t(lang, "footer", { model: cost.model, usd: formatUsd(cost.usd, lang) });
}

/**
 * The answer as RFC 5322 bytes.
 *
 * @example
 * ```ts
 * import { renderAnswer } from "./render.ts";
 * const raw = new TextDecoder().decode(renderAnswer({
 *   from: "agent@example.org", to: "me@example.com", messageId: "<answer.1@example.org>",
 *   mail: { messageId: "<q@example.com>", references: [], inReplyTo: undefined, subject: "Hi" },
 *   text: "**Yes** <b>", lang: "en", cost: { model: "m-1", usd: 0.0021 },
 * }));
 * if (!raw.includes("In-Reply-To: <q@example.com>") || !raw.includes("Subject: Re: Hi")) {
 *   throw new Error(raw);
 * }
 * // The HTML part is quoted-printable: its soft line breaks joined, it reads as written.
 * if (!raw.replace(/=\r?\n/g, "").includes("<b>Yes</b> &lt;b&gt;")) throw new Error(raw);
 * ```
 */
export function renderAnswer(answer: AnswerMail): Uint8Array {
  const footer = answer.cost === undefined ? undefined : footerLine(answer.lang, answer.cost);
  const text = footer === undefined ? answer.text : `${answer.text.trimEnd()}\n\n-- \n${footer}\n`;
  const html = [
    `<!doctype html><html lang="${answer.lang}"><head><meta charset="utf-8"></head><body>`,
    `<div style="white-space:pre-wrap;font-family:sans-serif">${markdownHtml(answer.text)}</div>`,
    footer === undefined
      ? ""
      : `<p style="color:#666;font-size:smaller;font-family:sans-serif">${escapeHtml(footer)}</p>`,
    "</body></html>",
  ].join("");
  const references = replyReferences(answer.mail);
  const boundary = newBoundary();
  const head = [
    headerLine("From", answer.from),
    headerLine("To", answer.to),
    headerLine("Subject", encodeHeaderText(replySubject(answer.mail.subject))),
    headerLine("Message-ID", answer.messageId),
    ...(answer.mail.messageId === undefined
      ? []
      : [headerLine("In-Reply-To", answer.mail.messageId)]),
    ...(references.length === 0 ? [] : [headerLine("References", references.join(" "))]),
    headerLine("Date", mailDate(answer.date ?? new Date())),
    "Auto-Submitted: auto-replied",
    "MIME-Version: 1.0",
    headerLine("Content-Type", `multipart/alternative; boundary="${boundary}"`),
  ];
  const part = (type: string, body: string) => [
    `--${boundary}`,
    `Content-Type: ${type}; charset=utf-8`,
    "Content-Transfer-Encoding: quoted-printable",
    "",
    encodeQuotedPrintable(body),
  ];
  return new TextEncoder().encode(
    [
      ...head,
      "",
      ...part("text/plain", text),
      ...part("text/html", html),
      `--${boundary}--`,
      "",
    ].join("\r\n"),
  );
}
