/**
 * Raw test mails as a sender's mail program and a receiving server make them: the
 * headers the tests vary (From, Subject, Message-ID, References, the server's
 * `Authentication-Results` on top), a UTF-8 body, and optionally a text attachment.
 *
 * @module
 */

/** What {@linkcode mailText} writes. */
export interface TestMail {
  from: string;
  to?: string;
  /** Written as given (RFC 2047 words stay encoded). */
  subject: string;
  id: string;
  references?: string[];
  inReplyTo?: string;
  /** `Authentication-Results` values, top first. */
  authResults?: string[];
  body: string;
  attachment?: { name: string; text: string };
  /** More header lines (`Auto-Submitted: auto-replied`). */
  headers?: string[];
}

/** The mail as RFC 5322 text with CRLF line ends. */
export function mailText(m: TestMail): string {
  const head = [
    ...(m.authResults ?? []).map((a) => `Authentication-Results: ${a}`),
    `From: ${m.from}`,
    `To: ${m.to ?? "agent@example.test"}`,
    `Subject: ${m.subject}`,
    `Message-ID: ${m.id}`,
    "Date: Mon, 02 Nov 2026 09:00:00 +0300",
    ...(m.references ? [`References: ${m.references.join(" ")}`] : []),
    ...(m.inReplyTo ?? m.references?.at(-1)
      ? [`In-Reply-To: ${m.inReplyTo ?? m.references!.at(-1)}`]
      : []),
    ...(m.headers ?? []),
    "MIME-Version: 1.0",
  ];
  const body = b64(m.body);
  if (m.attachment === undefined) {
    return [
      ...head,
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      body,
      "",
    ].join("\r\n");
  }
  return [
    ...head,
    'Content-Type: multipart/mixed; boundary="b-1"',
    "",
    "--b-1",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    body,
    "--b-1",
    `Content-Type: text/plain; charset=utf-8; name="${m.attachment.name}"`,
    `Content-Disposition: attachment; filename="${m.attachment.name}"`,
    "Content-Transfer-Encoding: base64",
    "",
    b64(m.attachment.text),
    "--b-1--",
    "",
  ].join("\r\n");
}

function b64(text: string): string {
  const all = new TextEncoder().encode(text).toBase64();
  return all.match(/.{1,76}/g)?.join("\r\n") ?? "";
}
