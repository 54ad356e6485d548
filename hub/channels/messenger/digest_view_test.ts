import assert from "node:assert/strict";
import type { DigestConversation } from "../../events/mod.ts";
import { DIGEST_DATA, digestMessage, openText } from "./digest_view.ts";

function conversation(i: number, extra: Partial<DigestConversation> = {}): DigestConversation {
  return {
    address: `peer${i}.example`,
    name: `Peer ${i}`,
    thread: `t${i}`,
    asked: `Question <${i}>?`,
    answered: `Answer ${i}.`,
    turns: 1,
    first_ts: 1,
    last_ts: 1,
    ...extra,
  };
}

Deno.test("digestMessage() shows each conversation (controls as spaces) and a Block / Remove / Open row per peer (en, tr)", () => {
  const event = {
    more: 0,
    conversations: [
      conversation(1, { turns: 2, name: "Bob\x1b[2J" }),
      conversation(1, { thread: "t9" }),
      conversation(2),
    ],
  };
  let n = 0;
  const en = digestMessage("en", event, () => `id${++n}`);
  assert.equal(
    en.html,
    "Your agent answered 3 conversation(s) with other agents:\n\n" +
      "Bob [2J (peer1.example)\nasked: Question &lt;1&gt;?\nanswered: Answer 1. (2 messages)\n\n" +
      "Peer 1 (peer1.example)\nasked: Question &lt;1&gt;?\nanswered: Answer 1.\n\n" +
      "Peer 2 (peer2.example)\nasked: Question &lt;2&gt;?\nanswered: Answer 2.",
  );
  // One row per peer, not per conversation.
  assert.deepEqual(en.keyboard.map((row) => row.map((b) => b.text)), [
    ["Block Bob [2J", "Remove Bob [2J", "Open Bob [2J"],
    ["Block Peer 2", "Remove Peer 2", "Open Peer 2"],
  ]);
  assert.deepEqual(en.keyboard[1]!.map((b) => b.callback_data), [
    "nd:id2:b",
    "nd:id2:r",
    "nd:id2:o",
  ]);
  assert.ok(en.keyboard.flat().every((b) => DIGEST_DATA.test(b.callback_data)));

  const tr = digestMessage("tr", { more: 0, conversations: [conversation(2)] }, () => "x");
  assert.equal(
    tr.html,
    "Ajanınız diğer ajanlarla 1 konuşmayı yanıtladı:\n\n" +
      "Peer 2 (peer2.example)\nsordu: Question &lt;2&gt;?\nyanıtladı: Answer 2.",
  );
  assert.deepEqual(tr.keyboard[0]!.map((b) => b.text), [
    "Engelle: Peer 2",
    "Kaldır: Peer 2",
    "Aç: Peer 2",
  ]);
});

Deno.test("digestMessage() fits a busy digest into one Telegram message", () => {
  const conversations = Array.from(
    { length: 20 },
    (_, i) => conversation(i, { asked: "q".repeat(160), answered: "a".repeat(160) }),
  );
  const m = digestMessage("en", { more: 80, conversations }, () => "id");
  assert.ok(m.html.length <= 4096, String(m.html.length));
  assert.ok(m.html.startsWith("Your agent answered 100 conversation(s)"));
  assert.ok(m.html.endsWith("…and 92 more (agent net log)."));
  assert.equal(m.keyboard.length, 8);
  const tr = digestMessage("tr", { more: 80, conversations }, () => "id");
  assert.ok(tr.html.endsWith("…ve 92 tane daha (agent net log)."));
});

Deno.test("openText() shows the last messages with a peer, both ways (en, tr)", () => {
  const log = [
    {
      ts: 1,
      direction: "in" as const,
      address: "b.example",
      kind: "message",
      id: "1",
      thread: "t",
      text: "Tea\u202e?",
    },
    {
      ts: 2,
      direction: "out" as const,
      address: "b.example",
      kind: "message",
      id: "2",
      thread: "t",
      text: "Yes.",
    },
    {
      ts: 3,
      direction: "in" as const,
      address: "c.example",
      kind: "message",
      id: "3",
      thread: "u",
      text: "Other",
    },
  ];
  assert.equal(
    openText("en", "b.example", log),
    "Last messages with b.example:\nthey: Tea ?\nyour agent: Yes.",
  );
  assert.equal(
    openText("tr", "b.example", log),
    "b.example ile son mesajlar:\no: Tea ?\najanınız: Yes.",
  );
  assert.equal(openText("en", "d.example", log), "No messages with d.example in the network log.");
  assert.equal(openText("tr", "d.example", log), "Ağ kaydında d.example ile mesaj yok.");
});
