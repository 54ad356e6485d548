import assert from "node:assert/strict";
import type { DeskEvent } from "../../desk/mod.ts";
import type { RefusalReason } from "../../sessions/mod.ts";
import { ChatView } from "./view.ts";

function refused(reason: RefusalReason): DeskEvent {
  return {
    type: "CUSTOM",
    name: "tool.refused",
    value: { toolCallId: "c1", tool: "write_note", reason },
    timestamp: 0,
  };
}

function view(lang: "en" | "tr", person: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const v = new ChatView({
    lang,
    person,
    write: (text) => out.push(text),
    writeError: (text) => err.push(text),
    busy: () => false,
    prompt: () => {},
  });
  return { v, out, err };
}

Deno.test("ChatView: in a pipe, a tier-2 call that did not run is one line on stderr, with its reason, in en and tr", () => {
  const reasons: RefusalReason[] = ["no_one_to_ask", "denied", "expired", "cancelled"];
  const en = view("en", false);
  for (const reason of reasons) en.v.render(refused(reason));
  assert.deepEqual(en.err, [
    "✗ write_note did not run: no one could approve it\n",
    "✗ write_note did not run: it was denied\n",
    "✗ write_note did not run: no one answered in time\n",
    "✗ write_note did not run: the answer was cancelled\n",
  ]);
  assert.deepEqual(en.out, []);
  const tr = view("tr", false);
  for (const reason of reasons) tr.v.render(refused(reason));
  assert.deepEqual(tr.err, [
    "✗ write_note çalışmadı: onaylayabilecek kimse yoktu\n",
    "✗ write_note çalışmadı: reddedildi\n",
    "✗ write_note çalışmadı: zamanında yanıt gelmedi\n",
    "✗ write_note çalışmadı: yanıt iptal edildi\n",
  ]);
  // A person at a terminal reads the tool's outcome line instead.
  const person = view("en", true);
  person.v.render(refused("denied"));
  assert.deepEqual([person.out, person.err], [[], []]);
});

Deno.test("ChatView: /resume shows the session's last 10 messages with their tool outcomes as sentences", () => {
  const { v, out } = view("en", true);
  const history = [
    { role: "user" as const, text: "old 0" },
    { role: "user" as const, text: "old 1" },
    { role: "tool" as const, tool: "list_notes", text: '{"notes":[]}' },
    ...Array.from({ length: 8 }, (_, i) => ({ role: "user" as const, text: `old ${i + 2}` })),
    { role: "user" as const, text: "save a note" },
    { role: "tool" as const, tool: "write_note", text: '{"saved":"groceries","bytes":10}' },
    { role: "assistant" as const, text: "Saved." },
  ];
  v.render({
    type: "CUSTOM",
    name: "session.changed",
    value: { sessionId: "s", role: "brain", history },
    timestamp: 0,
  });
  const lines = out.join("").split("\n").filter(Boolean);
  assert.equal(lines[1], "(2 earlier messages not shown)");
  assert.deepEqual(lines.slice(-3), [
    "› save a note",
    "  ✓ Saved the note “groceries” (10 bytes).",
    "Saved.",
  ]);
  assert.ok(
    !lines.some((l) => l.includes("Looked at the notes")),
    "an outcome of a turn not shown",
  );
  assert.equal(lines[2], "› old 2");
  assert.equal(lines.length, 2 + 10 + 1);
});

Deno.test("ChatView: a job's answer from the hub is drawn as Markdown under its first line", () => {
  const out: string[] = [];
  const v = new ChatView({
    lang: "en",
    person: true,
    write: (text) => out.push(text),
    writeError: () => {},
    columns: () => 40,
    busy: () => false,
    prompt: () => {},
  });
  v.ownerEvent({
    ts: 1,
    event_id: "1000-000001",
    type: "job.result",
    job: "news",
    slot_id: "news@x",
    usd: 0,
    deliver: "events",
    text: "Job news ($0.00):\n## Headlines\n\n- **Rain** in Istanbul",
  });
  const shown = out.join("").replaceAll("\r\x1b[2K", "");
  assert.match(shown, /Job news \(\$0\.00\):\nHeadlines\n\n• Rain in Istanbul\n/);
  assert.ok(!/##|\*\*/.test(shown), shown);
});
