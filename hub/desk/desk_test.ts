import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { EventSchemas } from "@ag-ui/core/schemas";
import { loadConfig } from "../config/read.ts";
import { Logger } from "../log.ts";
import { FileSessionStore } from "../sessions/mod.ts";
import { EventLog, testDesk } from "./_testing.ts";
import { isCustom } from "./events.ts";
import { ConversationBook } from "./book.ts";
import { Desk } from "./desk.ts";
import type { CommandSpec } from "./commands.ts";

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

Deno.test("DeskConversation.cancel(): the answer ends within 200 ms, its call is in the ledger, the queue goes on", async () => {
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
    assert.ok(took < 200, `cancelled after ${took.toFixed(0)} ms`);
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

Deno.test("Desk: a listener that throws (desk-wide or of one conversation) never fails the turn; the others still hear every event", async () => {
  const t = await testDesk({ replies: [SAVE, "Saved it."] });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    const wide: string[] = [];
    t.desk.subscribe(() => {
      throw new Error("a desk-wide subscriber broke");
    });
    chat.subscribe(() => {
      throw new Error("a conversation subscriber broke");
    });
    chat.subscribe(log.listen);
    t.desk.subscribe((event) => {
      wide.push(event.type);
      if (isCustom(event, "approval.requested")) t.desk.decide(event.value.id, "once", "test");
    });
    const outcome = await chat.submit("save a note");
    assert.equal(outcome.kind, "answered");
    assert.ok(outcome.kind === "answered" && outcome.result.text === "Saved it.");
    assert.equal(await Deno.readTextFile(`${t.paths.home}/notes/x.md`), "y\n");
    assert.deepEqual(wide, log.types().map((type) => type.replace(/^CUSTOM:.*/, "CUSTOM")));
    assert.equal(log.types().at(-1), "RUN_FINISHED");
  } finally {
    await t.close();
  }
});

Deno.test("DeskConversation.snapshot(): role, model, session, budget, queue and approvals, frozen", async () => {
  const t = await testDesk({ replies: [SAVE, "Saved."], approvalTimeoutMs: 5_000 });
  try {
    const chat = await t.desk.open("chat");
    const log = new EventLog();
    chat.subscribe(log.listen);
    const idle = chat.snapshot();
    assert.deepEqual(
      { ...idle, budget: { ...idle.budget } },
      {
        key: "chat",
        channel: "chat",
        sessionId: chat.sessionId,
        role: "brain",
        provider: "fake",
        model: "fake-brain",
        budget: { spentUsd: 0, capUsd: 15, period: "month", exhausted: false, standIn: "fast" },
        busy: false,
        queue: [],
        approvals: [],
      },
    );
    assert.ok(Object.isFrozen(idle) && Object.isFrozen(idle.queue) && Object.isFrozen(idle.budget));
    assert.throws(() => (idle as { role: string }).role = "fast", TypeError);
    const first = chat.submit("save");
    const asked = await log.until((e) => isCustom(e, "approval.requested"));
    const second = chat.submit("while it waits");
    const waiting = chat.snapshot();
    assert.ok(isCustom(asked, "approval.requested"));
    assert.deepEqual(waiting.approvals.map((a) => a.id), [asked.value.id]);
    assert.deepEqual(waiting.queue.map((q) => q.text), ["while it waits"]);
    const queued = log.events.find((e) => isCustom(e, "input.queued"));
    assert.ok(queued && isCustom(queued, "input.queued"));
    assert.equal(queued.value.id, waiting.queue[0]!.id);
    assert.equal(waiting.busy, true);
    // Another conversation cannot decide this one's approval.
    const other = await t.desk.open("tui");
    assert.equal(other.decide(asked.value.id, "once"), false);
    assert.equal(chat.decide(asked.value.id, "deny", "test"), true);
    await Promise.all([first, second]);
    assert.deepEqual(chat.snapshot().queue, []);
  } finally {
    await t.close();
  }
});

Deno.test("DeskConversation: choices() lists the sessions /resume lists (20) and the roles; pick() moves to one", async () => {
  const t = await testDesk({ replies: ["A."] });
  try {
    const chat = await t.desk.open("chat");
    await chat.submit("first");
    const first = chat.sessionId;
    // 24 earlier sessions besides this one: every channel lists the same 20.
    const store = new FileSessionStore(t.paths.sessionsDir);
    for (let i = 0; i < 24; i++) await store.createSession(`chat-old-${i}`, {});
    const sessions = await chat.choices("sessions");
    assert.equal(sessions.length, 20);
    const listed = await chat.submit("/resume");
    assert.ok(listed.kind === "command");
    assert.equal(listed.outcome.choices?.length, 20);
    assert.deepEqual(listed.outcome.choices?.map((c) => c.label), sessions.map((s) => s.label));
    const roles = await chat.choices("roles");
    assert.deepEqual(roles.map((r) => [r.value, r.current === true]), [
      ["brain", true],
      ["fast", false],
      ["local", false],
    ]);
    await chat.pick("roles", "fast");
    assert.equal(chat.snapshot().role, "fast");
    await chat.submit("/new");
    assert.notEqual(chat.sessionId, first);
    await chat.pick("sessions", first);
    assert.equal(chat.sessionId, first);
    await assert.rejects(() => chat.choices("nothing"), RangeError);
  } finally {
    await t.close();
  }
});

Deno.test("Desk: a plug-in command joins /help before /help, offers its picker, and may not take a desk word", async () => {
  const t = await testDesk({ replies: [] });
  try {
    const plugin: CommandSpec = {
      word: "/ping",
      usage: "/ping",
      summary: () => "answers pong",
      run: (ctx) => Promise.resolve({ lines: [`pong from ${ctx.role}`] }),
      choices: { kind: "pings", list: () => Promise.resolve([{ value: "p", label: "P" }]) },
    };
    const options = {
      config: await loadConfig(t.paths, { lang: "en" }),
      env: {},
      paths: t.paths,
      lang: "en" as const,
      logger: new Logger({ stderr: "off" }),
      ledger: t.ledger,
      tools: [],
    };
    const desk = new Desk({ ...options, commands: [plugin] });
    const chat = await desk.open("chat");
    const help = await chat.submit("/help");
    assert.ok(help.kind === "command");
    assert.match(
      help.outcome.lines[0]!,
      /\/model \[ROLE\] · .*\n {2}\/ping · answers pong\n {2}\/help/,
    );
    const pong = await chat.submit("/ping");
    assert.ok(pong.kind === "command");
    assert.deepEqual(pong.outcome.lines, ["pong from brain"]);
    assert.deepEqual(await chat.choices("pings"), [{ value: "p", label: "P" }]);
    assert.deepEqual(desk.commands("messenger").map((c) => c.word).slice(-3), [
      "/model",
      "/ping",
      "/help",
    ]);
    await desk.close();
    assert.throws(
      () => new Desk({ ...options, commands: [{ ...plugin, word: "/new" }] }),
      TypeError,
    );
  } finally {
    await t.close();
  }
});

Deno.test("Desk: where no one can approve, a tier-2 call is refused and told (tool.refused, no_one_to_ask)", async () => {
  const t = await testDesk({ replies: [SAVE, "Saved the note."] });
  try {
    const chat = await t.desk.open("chat", { approvals: "deny" });
    const log = new EventLog();
    chat.subscribe(log.listen);
    const outcome = await chat.submit("save");
    assert.equal(outcome.kind, "answered");
    const refused = log.events.filter((e) => isCustom(e, "tool.refused"));
    assert.deepEqual(
      refused.map((e) => isCustom(e, "tool.refused") && [e.value.tool, e.value.reason]),
      [["write_note", "no_one_to_ask"]],
    );
    assert.ok(!log.events.some((e) => isCustom(e, "approval.requested")));
    await assert.rejects(Deno.stat(`${t.paths.home}/notes/x.md`));
  } finally {
    await t.close();
  }
});
