// The desk as a channel sees it: a read-only snapshot, the choices of its pickers, its
// intents (pick, command, decide), the app's plug-ins, refusals, and listeners that fail.
import assert from "node:assert/strict";
import { loadConfig } from "../config/read.ts";
import { Logger } from "../log.ts";
import { FileSessionStore } from "../sessions/mod.ts";
import { EventLog, testDesk } from "./_testing.ts";
import { isCustom } from "./events.ts";
import { Desk } from "./desk.ts";
import type { CommandSpec } from "./commands.ts";

const SAVE = '/tool write_note {"name":"x","text":"y"}';

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
      ["memory", false],
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
