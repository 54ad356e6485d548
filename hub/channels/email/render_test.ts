import assert from "node:assert/strict";
import { readMail } from "./mail.ts";
import { decodeCharset, decodedBody, header, parseMessage } from "./mime.ts";
import { renderAnswer } from "./render.ts";

const dec = new TextDecoder();

/** An answer to a Turkish mail three deep in its thread, with the footer on. */
function turkishAnswer(text = "**Evet**, toplantı perşembe saat 14:00'te.\n\n- gündem\n- çay") {
  return renderAnswer({
    from: "agent@example.org",
    to: "ayse@example.com",
    messageId: "<answer.0123456789abcdef@example.org>",
    mail: {
      messageId: "<c3@example.com>",
      inReplyTo: "<b2@example.org>",
      references: ["<a1@example.com>", "<b2@example.org>"],
      subject: "Şirket toplantısı: gündem, saat ve yer hakkında ayrıntılı bilgi (önemli)",
    },
    text,
    lang: "tr",
    cost: { model: "model-1", usd: 0.0123 },
    date: new Date(Date.UTC(2026, 10, 29, 7, 0, 0)),
  });
}

Deno.test("renderAnswer() writes 7-bit lines within 78 characters", () => {
  const raw = turkishAnswer(`${"Uzun bir satır: ğüşıöç ".repeat(30)}\n${"x".repeat(300)}`);
  for (const byte of raw) assert.ok(byte < 0x80, "a byte outside ASCII");
  for (const line of dec.decode(raw).split("\r\n")) assert.ok(line.length <= 78, line);
  assert.ok(!/[^\r]\n/.test(dec.decode(raw)), "every line ends in CR LF");
});

Deno.test("renderAnswer() keeps the thread: In-Reply-To, References, a Re: subject in Turkish", () => {
  const raw = turkishAnswer();
  const mail = readMail(raw);
  assert.equal(mail.messageId, "<answer.0123456789abcdef@example.org>");
  assert.equal(mail.inReplyTo, "<c3@example.com>");
  assert.deepEqual(mail.references, ["<a1@example.com>", "<b2@example.org>", "<c3@example.com>"]);
  assert.equal(
    mail.subject,
    "Re: Şirket toplantısı: gündem, saat ve yer hakkında ayrıntılı bilgi (önemli)",
  );
  const top = parseMessage(raw);
  assert.equal(header(top, "auto-submitted"), "auto-replied");
  assert.equal(header(top, "date"), "Sun, 29 Nov 2026 07:00:00 +0000");
  assert.equal(header(top, "from"), "agent@example.org");
  assert.equal(header(top, "to"), "ayse@example.com");
});

Deno.test("renderAnswer() sends text and HTML as multipart/alternative, the footer in both", () => {
  const top = parseMessage(turkishAnswer());
  assert.equal(top.type, "multipart/alternative");
  assert.deepEqual(top.parts.map((p) => p.type), ["text/plain", "text/html"]);
  const [plain, html] = top.parts.map((p) => decodeCharset(decodedBody(p), p.params.charset));
  assert.match(plain!, /^\*\*Evet\*\*, toplantı perşembe saat 14:00'te\.\r\n/);
  assert.match(plain!, /\r\n-- \r\nmodel-1 .*\$0,012\.\r\n$/);
  assert.match(html!, /<b>Evet<\/b>, toplantı perşembe/);
  assert.match(html!, /model-1/);
  // What a person's mail program shows as the plain text: the answer, footer cut.
  assert.match(readMail(turkishAnswer()).text, /^\*\*Evet\*\*/);
});

Deno.test("renderAnswer() without a cost has no footer; a mail with no Message-ID gets no In-Reply-To", () => {
  const raw = renderAnswer({
    from: "agent@example.org",
    to: "me@example.com",
    messageId: "<answer.1@example.org>",
    mail: { messageId: undefined, inReplyTo: undefined, references: [], subject: "" },
    text: "Done.",
    lang: "en",
  });
  const text = dec.decode(raw);
  assert.doesNotMatch(text, /^In-Reply-To:/m);
  assert.doesNotMatch(text, /^References:/m);
  assert.match(text, /^Subject: Re:\r$/m);
  assert.doesNotMatch(text, /\r\n-- \r\n/);
});
