/**
 * The reader against mail as three common clients write it (headers and structure as
 * they send them, names and addresses made up): Outlook in windows-1254, Thunderbird in
 * ISO-8859-1 with format=flowed, Gmail in base64 UTF-8. Attachments are named, not read.
 */
import assert from "node:assert/strict";
import { readMail } from "./mail.ts";

const enc = new TextEncoder();
const crlf = (lines: string[]) => enc.encode(lines.join("\r\n"));
const b64 = (t: string) => enc.encode(t).toBase64();

const w1254 = (bytes: number[]) => new Uint8Array(bytes).toBase64();
/** "Mehmet Şahin" in windows-1254, base64 (as Outlook writes a From name). */
const name = w1254([...enc.encode("Mehmet "), 0xde, ...enc.encode("ahin")]);
/** Outlook: windows-1254 quoted-printable, a Word attachment named in RFC 2047. */
const OUTLOOK = crlf([
  `From: =?windows-1254?B?${name}?= <mehmet@example.com.tr>`,
  "To: agent@example.org",
  "Subject: =?windows-1254?Q?Toplant=FD_ertelendi?=",
  "Thread-Topic: =?windows-1254?Q?Toplant=FD_ertelendi?=",
  "Date: Mon, 23 Nov 2026 09:12:44 +0000",
  "Message-ID: <VI1PR07MB6287A1B2C3@VI1PR07MB6287.eurprd07.prod.outlook.com>",
  "Content-Language: tr-TR",
  "MIME-Version: 1.0",
  "Content-Type: multipart/mixed;",
  '\tboundary="_004_VI1PR07MB6287A1B2C3_"',
  "",
  "--_004_VI1PR07MB6287A1B2C3_",
  "Content-Type: multipart/alternative;",
  '\tboundary="_000_VI1PR07MB6287A1B2C3_"',
  "",
  "--_000_VI1PR07MB6287A1B2C3_",
  'Content-Type: text/plain; charset="windows-1254"',
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "Merhaba,",
  "",
  "Yar=FDnki toplant=FD =DEubat sonuna ertelendi; g=FCndem ekte.",
  "",
  "Sayg=FDlar=FDmla,",
  "Mehmet",
  "",
  "--_000_VI1PR07MB6287A1B2C3_",
  'Content-Type: text/html; charset="windows-1254"',
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "<html><body><p>Merhaba,</p><p>Yar=FDnki toplant=FD ertelendi.</p></body></html>",
  "",
  "--_000_VI1PR07MB6287A1B2C3_--",
  "",
  "--_004_VI1PR07MB6287A1B2C3_",
  "Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document;",
  '\tname="=?windows-1254?Q?g=FCndem.docx?="',
  "Content-Description: =?windows-1254?Q?g=FCndem.docx?=",
  "Content-Disposition: attachment;",
  '\tfilename="=?windows-1254?Q?g=FCndem.docx?="; size=12;',
  "Content-Transfer-Encoding: base64",
  "",
  new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 6, 0, 8, 0, 0, 0]).toBase64(),
  "",
  "--_004_VI1PR07MB6287A1B2C3_--",
  "",
]);
/** Thunderbird: ISO-8859-1, format=flowed over quoted-printable. */
const THUNDERBIRD = crlf([
  "Message-ID: <3f1e2d4c-5b6a-7980-a1b2-c3d4e5f60718@example.de>",
  "Date: Tue, 24 Nov 2026 18:03:11 +0100",
  "MIME-Version: 1.0",
  "User-Agent: Mozilla Thunderbird",
  "Content-Language: de-DE",
  "From: =?ISO-8859-1?Q?J=FCrgen_M=FCller?= <juergen@example.de>",
  "Subject: =?ISO-8859-1?Q?Gr=FC=DFe_aus_M=FCnchen?=",
  "Content-Type: text/plain; charset=ISO-8859-1; format=flowed",
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "Hallo Zeynep,",
  "",
  "sch=F6ne Gr=FC=DFe aus M=FCnchen, das Caf=E9 ist gleich um die Ecke und =",
  "wir ",
  "treffen uns um 10 Uhr.",
  "",
  "J=FCrgen",
  "",
]);
const GMAIL_TEXT = "Merhaba, ödeme planını ekte gönderiyorum. İyi çalışmalar! ".repeat(3);
/** Gmail: base64 UTF-8 in mixed > alternative, a PDF named in RFC 2231. */
const GMAIL = crlf([
  "MIME-Version: 1.0",
  "Date: Wed, 25 Nov 2026 11:20:05 +0300",
  "Message-ID: <CAB7k9xQ+abc123DEF456@mail.gmail.com>",
  "Subject: =?UTF-8?B?w5ZkZW1lIHBsYW7EsQ==?=",
  "From: =?UTF-8?B?xLBsa2F5IMOHZWxpaw==?= <ilkay@example.com>",
  "To: agent@example.org",
  'Content-Type: multipart/mixed; boundary="000000000000a1b2c3d4e5f60718"',
  "",
  "--000000000000a1b2c3d4e5f60718",
  'Content-Type: multipart/alternative; boundary="000000000000a1b2c3d4e5f60716"',
  "",
  "--000000000000a1b2c3d4e5f60716",
  'Content-Type: text/plain; charset="UTF-8"',
  "Content-Transfer-Encoding: base64",
  "",
  ...(b64(GMAIL_TEXT).match(/.{1,76}/g) ?? []),
  "--000000000000a1b2c3d4e5f60716",
  'Content-Type: text/html; charset="UTF-8"',
  "Content-Transfer-Encoding: base64",
  "",
  b64(`<div dir="ltr">${GMAIL_TEXT}</div>`),
  "--000000000000a1b2c3d4e5f60716--",
  "--000000000000a1b2c3d4e5f60718",
  'Content-Type: application/pdf; name="=?UTF-8?B?w5ZkZW1lIHBsYW7EsS5wZGY=?="',
  "Content-Disposition: attachment; filename*=UTF-8''%C3%96deme%20plan%C4%B1.pdf",
  "Content-Transfer-Encoding: base64",
  "X-Attachment-Id: f_lmn0p1q20",
  "",
  b64("%PDF-1.7\n"),
  "--000000000000a1b2c3d4e5f60718--",
  "",
]);

Deno.test("readMail() reads Outlook's windows-1254 mail and names its Word attachment", () => {
  const mail = readMail(OUTLOOK);
  assert.deepEqual(mail.from, { address: "mehmet@example.com.tr", name: "Mehmet Şahin" });
  assert.equal(mail.subject, "Toplantı ertelendi");
  assert.equal(mail.messageId, "<VI1PR07MB6287A1B2C3@VI1PR07MB6287.eurprd07.prod.outlook.com>");
  assert.equal(
    mail.text,
    "Merhaba,\n\nYarınki toplantı Şubat sonuna ertelendi; gündem ekte.\n\nSaygılarımla,\nMehmet",
  );
  assert.deepEqual(mail.attachments, [{
    name: "gündem.docx",
    type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    size: 12,
  }]);
});

Deno.test("readMail() reads Thunderbird's ISO-8859-1 flowed mail as one paragraph", () => {
  const mail = readMail(THUNDERBIRD);
  assert.deepEqual(mail.from, { address: "juergen@example.de", name: "Jürgen Müller" });
  assert.equal(mail.subject, "Grüße aus München");
  assert.equal(
    mail.text,
    "Hallo Zeynep,\n\nschöne Grüße aus München, das Café ist gleich um die Ecke und wir treffen uns um 10 Uhr.\n\nJürgen",
  );
  assert.deepEqual(mail.attachments, []);
});

Deno.test("readMail() reads Gmail's base64 UTF-8 mail and its RFC 2231 file name", () => {
  const mail = readMail(GMAIL);
  assert.deepEqual(mail.from, { address: "ilkay@example.com", name: "İlkay Çelik" });
  assert.equal(mail.subject, "Ödeme planı");
  assert.equal(mail.text, GMAIL_TEXT.trim());
  assert.deepEqual(mail.attachments, [{
    name: "Ödeme planı.pdf",
    type: "application/pdf",
    size: 9,
  }]);
});
