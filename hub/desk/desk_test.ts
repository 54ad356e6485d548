import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { EventSchemas } from "@ag-ui/core/schemas";
import { EventLog, testDesk } from "./_testing.ts";
import { isCustom } from "./events.ts";
import { ConversationBook } from "./book.ts";
import { loadConfig } from "../config/read.ts";
import { openSessionStore } from "../sessions/mod.ts";

const SAVE = '/tool write_note {"name":"x","text":"y"}';

Deno.test("Desk: a turn's events are AG-UI events that AG-UI's own schemas accept", async () => {
  const t = await testDesk({ replies: [SAVE, "Saved it."] });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    t.desk.subscribe((event) => {
      if (isCustom(event, "approval.requested")) t.desk.decide(event.value.id, "once", "test");
    });
    const outcome = await chat.submit("save a note");
    assert.equal(outcome.kind, "answered");
    assert.deepEqual(log.types(), [
      "RUN_STARTED",
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "CUSTOM:approval.requested",
      "CUSTOM:approval.decided",
      "TOOL_CALL_RESULT",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    for (const event of log.events) {
      const parsed = EventSchemas.safeParse(event);
      assert.ok(parsed.success, `${event.type}: ${JSON.stringify(parsed.error?.issues)}`);
    }
    const start = log.events[1]!;
    const result = log.events.find((e) => e.type === "TOOL_CALL_RESULT")!;
    assert.ok(start.type === "TOOL_CALL_START" && result.type === "TOOL_CALL_RESULT");
    assert.equal(start.toolCallName, "write_note");
    assert.equal(result.toolCallId, start.toolCallId);
    assert.equal(await Deno.readTextFile(`${t.paths.home}/notes/x.md`), "y\n");
  } finally {
    await t.close();
  }
});

Deno.test("DeskConversation: a message sent during an answer is queued, told, and answered after it, in order", async () => {
  const t = await testDesk({
    replies: ["First answer, slowly streamed.", "Second.", "Third."],
    wordMs: 30,
  });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    const first = chat.submit("one");
    await log.until((e) => e.type === "TEXT_MESSAGE_CONTENT");
    const second = chat.submit("two");
    const third = chat.submit("/status");
    const fourth = chat.submit("three");
    assert.equal(chat.waiting, 3);
    const queued = log.events.filter((e) => isCustom(e, "input.queued"));
    assert.deepEqual(
      queued.map((e) => isCustom(e, "input.queued") && [e.value.position, e.value.text]),
      [[1, "two"], [2, "/status"], [3, "three"]],
    );
    const outcomes = await Promise.all([first, second, third, fourth]);
    assert.deepEqual(outcomes.map((o) => o.kind), ["answered", "answered", "command", "answered"]);
    const runs = log.events.filter((e) => e.type === "RUN_STARTED");
    assert.deepEqual(runs.map((e) => e.type === "RUN_STARTED" && e.metadata.text), [
      "one",
      "two",
      "three",
    ]);
    const history = await chat.history();
    assert.deepEqual(history.map((h) => h.text), [
      "one",
      "First answer, slowly streamed.",
      "two",
      "Second.",
      "three",
      "Third.",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("Desk: an approval is decided exactly once: allowed, denied, expired or cancelled", async () => {
  const t = await testDesk({
    replies: [SAVE, "Saved.", SAVE, "Not saved.", SAVE, "Expired."],
    approvalTimeoutMs: 300,
  });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    // Allowed once; a second decision of the same approval finds it closed.
    let answered = chat.submit("save");
    let asked = await log.until((e) => isCustom(e, "approval.requested"));
    assert.ok(isCustom(asked, "approval.requested"));
    assert.equal(asked.value.message, "The agent wants to save the note “x” (1 character).");
    assert.equal(asked.value.summary, "name: x · text: y");
    assert.deepEqual(t.desk.approvals().map((a) => a.id), [asked.value.id]);
    assert.equal(t.desk.decide(asked.value.id, "once", "test"), true);
    assert.equal(t.desk.decide(asked.value.id, "deny", "test"), false);
    await answered;
    await Deno.remove(`${t.paths.home}/notes/x.md`);
    // Denied.
    answered = chat.submit("save again");
    asked = await log.until((e) => isCustom(e, "approval.requested"));
    assert.ok(isCustom(asked, "approval.requested"));
    t.desk.decide(asked.value.id, "deny", "test");
    await answered;
    await assert.rejects(Deno.stat(`${t.paths.home}/notes/x.md`));
    // Nobody answers: it expires and counts as denied.
    const started = Date.now();
    await chat.submit("and again");
    assert.ok(Date.now() - started >= 290);
    await assert.rejects(Deno.stat(`${t.paths.home}/notes/x.md`));
    const decided = log.events.filter((e) => isCustom(e, "approval.decided"));
    assert.deepEqual(
      decided.map((e) => isCustom(e, "approval.decided") && [e.value.decision, e.value.by]),
      [["once", "test"], ["deny", "test"], ["expired", undefined]],
    );
    assert.deepEqual(t.desk.approvals(), []);
  } finally {
    await t.close();
  }
});

Deno.test("Desk: 'allow for this session' stops asking for that tool until the session changes", async () => {
  const t = await testDesk({ replies: [SAVE, "One.", SAVE, "Two.", SAVE, "Three."] });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    t.desk.subscribe((event) => {
      if (isCustom(event, "approval.requested")) t.desk.decide(event.value.id, "session");
    });
    await chat.submit("save");
    await chat.submit("save");
    const asked = () => log.events.filter((e) => isCustom(e, "approval.requested")).length;
    assert.equal(asked(), 1);
    await chat.submit("/new");
    await chat.submit("save");
    assert.equal(asked(), 2);
  } finally {
    await t.close();
  }
});

Deno.test("Desk: 'allow for this session' on fetch_url allows the host it named, not every host", async () => {
  const fetch = (url: string) => `/tool fetch_url {"url":"${url}"}`;
  const t = await testDesk({
    replies: [
      fetch("http://127.0.0.1:9/a"),
      "One.",
      fetch("http://127.0.0.1:9/b"),
      "Two.",
      fetch("http://localhost:9/c"),
      "Three.",
    ],
  });
  try {
    const chat = await t.desk.open("chat");
    const hosts: string[] = [];
    t.desk.subscribe((event) => {
      if (!isCustom(event, "approval.requested")) return;
      hosts.push(event.value.message);
      t.desk.decide(event.value.id, "session");
    });
    await chat.submit("fetch a");
    await chat.submit("fetch b");
    assert.equal(hosts.length, 1, hosts.join("\n"));
    await chat.submit("fetch c");
    assert.equal(hosts.length, 2);
    assert.match(hosts[1]!, /localhost/);
  } finally {
    await t.close();
  }
});

Deno.test("DeskConversation.cancel(): the 4 s answer ends at once, its call is in the ledger, the queue goes on", async () => {
  const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
  const t = await testDesk({ replies: [long, "After the cancel."], wordMs: 20 });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    const first = chat.submit("talk a lot");
    const next = chat.submit("then this");
    await log.until((e) => e.type === "TEXT_MESSAGE_CONTENT");
    await new Promise((r) => setTimeout(r, 100));
    const at = performance.now();
    assert.equal(chat.cancel(), true);
    const finished = await log.until((e) => e.type === "RUN_FINISHED");
    const took = performance.now() - at;
    assert.ok(finished.type === "RUN_FINISHED" && finished.outcome.type === "cancelled");
    // At once, not when the answer's last words were due (~3.9 s later); the bound leaves room
    // for a saturated 2-core machine (the unit layer once ran beside the others).
    assert.ok(took < 1_000, `cancelled after ${took.toFixed(0)} ms`);
    assert.equal((await first).kind, "cancelled");
    assert.equal((await next).kind, "answered");
    const db = new DatabaseSync(t.paths.ledgerFile, { readOnly: true });
    const rows = db.prepare("SELECT input_tokens, output_tokens FROM calls ORDER BY id").all() as {
      input_tokens: number;
      output_tokens: number;
    }[];
    db.close();
    assert.equal(rows.length, 2, "the cancelled call and the next one");
    assert.ok(rows[0]!.input_tokens > 0, "the cancelled call's prompt is counted");
    assert.ok(rows[0]!.output_tokens > 0, "and what streamed before the cancel");
    assert.equal(chat.cancel(), false);
  } finally {
    await t.close();
  }
});

Deno.test("DeskConversation: /stop is handled at once, not queued behind the answer", async () => {
  const long = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");
  const t = await testDesk({ replies: [long], wordMs: 20 });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    const first = chat.submit("talk");
    await log.until((e) => e.type === "TEXT_MESSAGE_CONTENT");
    const stop = await chat.submit("/stop");
    assert.deepEqual(stop, { kind: "command", outcome: { lines: [] } });
    assert.equal((await first).kind, "cancelled");
    const none = await chat.submit("/stop");
    assert.ok(none.kind === "command");
    assert.deepEqual(none.outcome.lines, ["Nothing is being answered now."]);
    assert.ok(!log.events.some((e) => isCustom(e, "input.queued")));
  } finally {
    await t.close();
  }
});

Deno.test("DeskConversation: /resume ID moves to the session and tells its history", async () => {
  const t = await testDesk({ replies: ["Answer one.", "Answer two."] });
  try {
    const chat = await t.desk.open("chat");
    await chat.submit("first session message");
    const first = chat.sessionId;
    await chat.submit("/new");
    assert.notEqual(chat.sessionId, first);
    await chat.submit("second session message");
    const log = new EventLog();
    chat.subscribe(log.listen);
    await chat.submit(`/resume ${first}`);
    assert.equal(chat.sessionId, first);
    const changed = log.events.find((e) => isCustom(e, "session.changed"));
    assert.ok(changed && isCustom(changed, "session.changed"));
    assert.deepEqual(changed.value.history, [
      { role: "user", text: "first session message" },
      { role: "assistant", text: "Answer one." },
    ]);
    const result = log.events.find((e) => isCustom(e, "command.result"));
    assert.ok(result && isCustom(result, "command.result"));
    assert.deepEqual(result.value.lines, [`Session ${first} (2 messages).`]);
  } finally {
    await t.close();
  }
});

Deno.test("DeskConversation: /resume and /model take no member of every object for a role (issue 34, D2)", async () => {
  const t = await testDesk({ replies: ["Answer one.", "Answer two."] });
  try {
    const chat = await t.desk.open("chat");
    await chat.submit("first session message");
    const first = chat.sessionId;
    // A session file that remembers a role agent.toml does not have, by an Object name.
    const sessions = openSessionStore(await loadConfig(t.paths), {}, t.paths);
    await sessions.patchMeta(first, { role: "constructor" });
    await chat.submit("/new");
    const log = new EventLog();
    chat.subscribe(log.listen);
    await chat.submit(`/resume ${first}`);
    assert.equal(chat.sessionId, first);
    assert.equal(chat.snapshot().role, "brain", "the remembered 'constructor' is no role");
    await chat.submit("/model toString");
    assert.equal(chat.snapshot().role, "brain");
    const lines = log.events.flatMap((e) => isCustom(e, "command.result") ? e.value.lines : []);
    assert.deepEqual(lines.slice(-1), ["There is no role 'toString' in agent.toml."]);
    const outcome = await chat.submit("still answered");
    assert.equal(outcome.kind, "answered");
  } finally {
    await t.close();
  }
});

Deno.test("Desk: a budget past its warning share is told before the answer, once per period", async () => {
  const t = await testDesk({ replies: ["A.", "B."] });
  try {
    t.ledger.record({
      ts: Date.now(),
      role: "brain",
      provider: "fake",
      model_id: "fake-brain",
      input_tokens: 1,
      output_tokens: 1,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      usd: 13,
      channel: "cli",
      session_id: null,
      peer: null,
    });
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    await chat.submit("one");
    await chat.submit("two");
    const notices = log.events.filter((e) => isCustom(e, "notice"));
    assert.equal(notices.length, 1);
    assert.deepEqual(log.types().slice(0, 2), ["RUN_STARTED", "CUSTOM:notice"]);
    assert.ok(isCustom(notices[0]!, "notice"));
    assert.match(notices[0].value.text, /brain/);
  } finally {
    await t.close();
  }
});

Deno.test("Desk: a keyed conversation keeps its session across desks; the messenger's old state is taken over", async () => {
  const t = await testDesk({ replies: ["Hi."] });
  try {
    const chat = await t.desk.open("messenger:42");
    await chat.submit("hello");
    await chat.submit("/model fast");
    const again = await new ConversationBook(t.paths.dataDir).get("messenger:42");
    assert.deepEqual(again, { session_id: chat.sessionId, role: "fast" });
    // A data folder written before the desk: the messenger's state file had the chats.
    const old = await Deno.makeTempDir({ prefix: "agent-desk-legacy-" });
    try {
      await Deno.mkdir(`${old}/messenger`);
      await Deno.writeTextFile(
        `${old}/messenger/state.json`,
        JSON.stringify({ chats: { "7": { session_id: "messenger-20260101-000000-abcd" } } }),
      );
      assert.deepEqual(await new ConversationBook(old).get("messenger:7"), {
        session_id: "messenger-20260101-000000-abcd",
      });
    } finally {
      await Deno.remove(old, { recursive: true });
    }
  } finally {
    await t.close();
  }
});

Deno.test("Desk: a conversation with another person gets no tier-2 tool, and its spend is theirs", async () => {
  const t = await testDesk({ replies: [SAVE, "I cannot save notes for you."] });
  try {
    const mail = await t.desk.open("email:<root@example.org>", {
      person: "person:bob@example.org",
    });
    const log = new EventLog();
    mail.subscribe(log.listen);
    const outcome = await mail.submit("save a note for me");
    assert.equal(outcome.kind, "answered");
    // Nothing was asked, and the tool did not run.
    assert.ok(!log.types().includes("CUSTOM:approval.requested"), log.types().join());
    await assert.rejects(Deno.stat(`${t.paths.home}/notes/x.md`));
    const db = new DatabaseSync(t.paths.ledgerFile, { readOnly: true });
    try {
      const rows = db.prepare("SELECT channel, peer FROM calls").all() as {
        channel: string;
        peer: string | null;
      }[];
      assert.ok(rows.length >= 1);
      for (const row of rows) {
        assert.deepEqual({ ...row }, { channel: "email", peer: "bob@example.org" });
      }
    } finally {
      db.close();
    }
  } finally {
    await t.close();
  }
});

Deno.test("Desk: a tool that fails still tells its result, as {error}, as a resumed session does", async () => {
  const t = await testDesk({ replies: ["/tool read_file {}", "Not there."] });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    const outcome = await chat.submit("read my note");
    assert.equal(outcome.kind, "answered");
    const result = log.events.find((e) => e.type === "TOOL_CALL_RESULT");
    assert.ok(result?.type === "TOOL_CALL_RESULT", log.types().join(" "));
    const content = JSON.parse(result.content) as { error?: unknown };
    assert.equal(typeof content.error, "string", result.content);
    assert.ok(EventSchemas.safeParse(result).success);
  } finally {
    await t.close();
  }
});
