import assert from "node:assert/strict";
import type { ApprovalRequest } from "../../desk/mod.ts";
import {
  APPROVAL_DATA,
  approvalButtons,
  approvalHtml,
  argLines,
  decidedHtml,
} from "./approval_view.ts";

const REQUEST: ApprovalRequest = {
  id: "abc123",
  reason: "tool_approval",
  message: "The agent wants to send bob.example a message: “<hi> & bye”.",
  toolCallId: "c1",
  expiresAt: "2026-11-26T12:10:00.000Z",
  conversation: "messenger:1",
  tool: "net_send",
  summary: "",
  args: JSON.stringify({ to: "bob.example", text: `a\x1b[2J${"y".repeat(100)}` }),
};

Deno.test("approvalHtml() escapes the sentence, cuts arguments with … and shows the expiry", () => {
  const en = approvalHtml("en", REQUEST, 600_000, false).split("\n");
  assert.equal(
    en[0],
    "<b>The agent wants to send bob.example a message: “&lt;hi&gt; &amp; bye”.</b>",
  );
  assert.equal(en[1], "to: bob.example");
  assert.equal(en[2], `text: a [2J${"y".repeat(54)}…`);
  assert.equal(
    en[3],
    "<i>Waiting for your answer until 15:10 (10 minutes); no answer means Deny.</i>",
  );
  const tr = approvalHtml("tr", REQUEST, 30_000, true);
  assert.match(
    tr,
    /<i>Yanıtınız 15:10 saatine kadar bekleniyor \(30 saniye\); yanıt gelmezse reddedilir\.<\/i>/,
  );
  assert.match(tr, /Bağımsız değişkenlerin tamamı:\n<pre>\{\n {2}"to": "bob\.example",/);
  assert.ok(tr.includes(`"text": "a\\u001b[2J${"y".repeat(100)}"`), tr);
});

Deno.test("approvalButtons() gives Allow once, Deny, Allow for this session and Details", () => {
  const en = approvalButtons("en", "abc123", true).inline_keyboard;
  assert.deepEqual(en.map((row) => row.map((b) => b.text)), [
    ["Allow once", "Deny"],
    ["Allow for this session"],
    ["Details"],
  ]);
  for (const button of en.flat()) assert.match(button.callback_data, APPROVAL_DATA);
  const tr = approvalButtons("tr", "abc123", false).inline_keyboard;
  assert.deepEqual(tr.map((row) => row.map((b) => b.text)), [
    ["Bir kez izin ver", "Reddet"],
    ["Bu oturum için izin ver"],
  ]);
});

Deno.test("argLines() reads arguments that are not an object", () => {
  assert.deepEqual(argLines("{}"), []);
  assert.deepEqual(argLines('"just text"'), ["just text"]);
  assert.deepEqual(argLines("not json"), ["not json"]);
});

Deno.test("decidedHtml() keeps what was decided and says by whom, in English and Turkish", () => {
  const first = (lang: "en" | "tr", decision: string, by?: string) =>
    decidedHtml(
      lang,
      {
        id: "abc123",
        decision: decision as never,
        tool: "net_send",
        message: REQUEST.message,
        ...(by ? { by } : {}),
      },
      REQUEST,
      600_000,
    ).split("\n");
  const cases: [string, string | undefined, string, string][] = [
    ["once", "messenger", "Allowed once by you here:", "Bir kez izin verildi (siz, burada):"],
    [
      "session",
      "tui",
      "Allowed for this session by you (tui):",
      "Bu oturum için izin verildi (siz, tui):",
    ],
    [
      "deny",
      "messenger",
      "Denied by you here, not run:",
      "Reddedildi (siz, burada), çalıştırılmadı:",
    ],
    [
      "expired",
      undefined,
      "No answer within 10 minutes, so it was denied and not run:",
      "10 dakika içinde yanıt gelmedi; reddedildi ve çalıştırılmadı:",
    ],
    [
      "cancelled",
      undefined,
      "The answer was stopped, so this was not run:",
      "Yanıt durduruldu; bu çalıştırılmadı:",
    ],
  ];
  for (const [decision, by, en, tr] of cases) {
    const lines = first("en", decision, by);
    assert.equal(lines[0], `<b>${en}</b>`);
    assert.equal(
      lines[1],
      approvalHtml("en", REQUEST, 600_000, false).split("\n")[0]!.slice(3, -4),
    );
    assert.equal(lines[2], "to: bob.example");
    assert.equal(first("tr", decision, by)[0], `<b>${tr}</b>`);
  }
});
