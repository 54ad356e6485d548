import assert from "node:assert/strict";
import { buildAgent, type BuildAgentOptions, joinUserRuns } from "../mod.ts";
import { resolvePaths } from "../base.ts";
import { ApprovalInterrupted, BUILTIN_TOOLS, type ToolRefusal } from "../mod.ts";
import { config, workspace } from "../../tests/_models.ts";

function home(replies: string[]) {
  const ws = workspace();
  const paths = resolvePaths({ home: ws.dir, env: {} });
  Deno.mkdirSync(paths.personaDir, { recursive: true });
  Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "You are a careful agent.");
  Deno.writeTextFileSync(`${paths.personaDir}/user.md`, "The owner is Ada.");
  Deno.writeTextFileSync(`${paths.personaDir}/net.md`, "Ada plays chess.");
  const cfg = config(`
[models.roles.brain]
provider = "fake"
model_id = "fake-1"
[models.roles.brain.params]
replies = ${JSON.stringify(replies)}
[models.roles.brain.budget]
usd = 5
period = "month"
`);
  return { ws, paths, cfg };
}

/** An owner's chat agent with the built-in tools over `home`'s fake model. */
function chatAgent(
  { ws, paths, cfg }: ReturnType<typeof home>,
  extra: Partial<BuildAgentOptions> = {},
) {
  return buildAgent({
    config: cfg,
    env: {},
    paths,
    channel: "chat",
    role: "brain",
    tools: BUILTIN_TOOLS,
    persona: { personaFile: `${paths.personaDir}/persona.md` },
    ledger: ws.ledger,
    logger: ws.logger,
    ...extra,
  });
}

Deno.test("buildAgent() runs a tier-2 tool after approval and stores the whole turn", async () => {
  const { ws, paths, cfg } = home([
    '/tool write_note {"name":"todo","text":"buy milk"}',
    "Saved your note.",
  ]);
  const asked: unknown[] = [];
  try {
    const agent = buildAgent({
      config: cfg,
      env: {},
      paths,
      channel: "chat",
      role: "brain",
      tools: BUILTIN_TOOLS,
      persona: {
        personaFile: `${paths.personaDir}/persona.md`,
        userFile: `${paths.personaDir}/user.md`,
      },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const streamed: string[] = [];
    const result = await agent.turn("s1", "Note: buy milk", {
      onText: (t) => streamed.push(t),
      beforeToolCall(call) {
        asked.push([call.tool.name, call.input]);
        return Promise.resolve({ allow: true });
      },
    });
    assert.deepEqual(result.reply, "Saved your note.");
    assert.deepEqual(streamed.join(""), "Saved your note.");
    assert.deepEqual(asked, [["write_note", { name: "todo", text: "buy milk" }]]);
    assert.deepEqual(Deno.readTextFileSync(`${paths.home}/notes/todo.md`), "buy milk\n");
    const history = await agent.history("s1");
    assert.deepEqual(history.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
    assert.deepEqual((await agent.sessions.getMeta("s1")).title, "Note: buy milk");
    // One ledger row per provider call (two steps), each with the session.
    assert.deepEqual(ws.rows().map((r) => [r.role, r.session_id, r.channel]), [
      ["brain", "s1", "chat"],
      ["brain", "s1", "chat"],
    ]);
    const prompt = await agent.systemPrompt();
    assert.match(prompt, /## User\n\nThe owner is Ada\./);
    assert.match(prompt, /\n- Budget: brain \$0\.00 of \$5\.00 [^\n]+\n$/);
  } finally {
    ws.close();
  }
});

Deno.test("buildAgent() ends the turn with what the hook threw (ApprovalInterrupted), keeping the call as not run", async () => {
  const { ws, paths, cfg } = home(['/tool fetch_url {"url":"http://127.0.0.1:9/"}', "never"]);
  try {
    const agent = buildAgent({
      config: cfg,
      env: {},
      paths,
      channel: "chat",
      role: "brain",
      tools: BUILTIN_TOOLS,
      persona: { personaFile: `${paths.personaDir}/persona.md` },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const error = await agent.turn("s2", "fetch it", {
      beforeToolCall: () => Promise.reject(new ApprovalInterrupted()),
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof ApprovalInterrupted);
    // What the owner wrote is kept, and the call with a result that says it did not run.
    const history = await agent.history("s2");
    assert.deepEqual(history.map((m) => m.role), ["user", "assistant", "tool"]);
    assert.deepEqual(history[2], {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: (history[1]!.content[0] as { toolCallId: string }).toolCallId,
        toolName: "fetch_url",
        output: {
          type: "error-text",
          value: "fetch_url did NOT run: the owner cancelled the turn before it could run.",
        },
        notRun: "cancelled",
      }],
    });
  } finally {
    ws.close();
  }
});

Deno.test("buildAgent() for network turns: public note instead of user.md, private Now, no budgets", async () => {
  const { ws, paths, cfg } = home(["Hello, fellow agent."]);
  try {
    const agent = buildAgent({
      config: cfg,
      env: { AGENT_PROFILE: "work" },
      paths,
      channel: "net",
      role: "brain",
      tools: [],
      persona: {
        personaFile: `${paths.personaDir}/persona.md`,
        publicNoteFile: `${paths.personaDir}/net.md`,
      },
      context: "private",
      ledger: ws.ledger,
      logger: ws.logger,
    });
    const prompt = await agent.systemPrompt();
    assert.ok(!prompt.includes("Ada."), "user.md never enters a network prompt");
    assert.match(prompt, /## User\n\nAda plays chess\./);
    // The profile is the owner's too: it stays on the machine (issue 9, defect 6).
    assert.match(
      prompt,
      /- Profile: not shared with other agents\n- Host role: not shared with other agents\n$/,
    );
    assert.ok(!prompt.includes("work"));
    const result = await agent.turn("net-1", "hi", { peer: "127.0.0.1:8787" });
    assert.deepEqual(result.text, "Hello, fellow agent.");
    assert.deepEqual(ws.rows().map((r) => [r.channel, r.peer]), [["net", "127.0.0.1:8787"]]);
  } finally {
    ws.close();
  }
});

Deno.test("buildAgent() writes a network turn's exchange once per key, whatever the crash point", async () => {
  const { ws, paths, cfg } = home(["First answer.", "Second answer."]);
  try {
    const agent = buildAgent({
      config: cfg,
      env: {},
      paths,
      channel: "net",
      role: "brain",
      tools: [],
      persona: { personaFile: `${paths.personaDir}/persona.md` },
      context: "private",
      ledger: ws.ledger,
      logger: ws.logger,
    });
    // Handled once, then again as after a kill between the session and the outbox: the
    // stored answer comes back and the model is not asked.
    const first = await agent.turn("net-1", "frame one", { turnKey: "env-1" });
    const again = await agent.turn("net-1", "frame one", { turnKey: "env-1" });
    assert.deepEqual([first.text, again.text], ["First answer.", "First answer."]);
    assert.deepEqual(ws.rows().length, 1);
    assert.deepEqual((await agent.history("net-1")).map((m) => m.role), ["user", "assistant"]);

    // A kill after the frame was written but before the answer: the next run writes over
    // that part and adds the answer, once.
    await agent.sessions.createMessage("net-1", "main", 2, {
      message_id: 2,
      created_at: new Date().toISOString(),
      role: "brain",
      message: { role: "user", content: "frame two" },
      turn: { key: "env-2", part: 0, of: 2 },
    });
    const second = await agent.turn("net-1", "frame two", { turnKey: "env-2" });
    assert.deepEqual(second.text, "Second answer.");
    const history = await agent.history("net-1");
    assert.deepEqual(history.map((m) => [m.role, m.content]), [
      ["user", "frame one"],
      ["assistant", [{ type: "text", text: "First answer." }]],
      ["user", "frame two"],
      ["assistant", [{ type: "text", text: "Second answer." }]],
    ]);
    // And a third handling of either envelope adds nothing.
    await agent.turn("net-1", "frame two", { turnKey: "env-2" });
    await agent.turn("net-1", "frame one", { turnKey: "env-1" });
    assert.deepEqual((await agent.history("net-1")).length, 4);
    assert.deepEqual(ws.rows().length, 2);
  } finally {
    ws.close();
  }
});

Deno.test("buildAgent() says Budget: unknown. when the ledger cannot be read, and the turn ends with one sentence", async () => {
  const { ws, paths, cfg } = home(["Never sent."]);
  try {
    const agent = buildAgent({
      config: cfg,
      env: {},
      paths,
      channel: "chat",
      role: "brain",
      tools: [],
      persona: { personaFile: `${paths.personaDir}/persona.md` },
      ledger: ws.ledger,
      logger: ws.logger,
    });
    ws.ledger.close();
    assert.match(await agent.systemPrompt(), /\n- Budget: unknown\.\n$/);
    const error = await agent.turn("s-1", "hi").then(() => undefined, (e) => e);
    assert.deepEqual(error?.name, "ModelCallError");
    assert.match(
      error.sentence,
      /^brain \(fake fake-1\) failed: Cannot use the spend ledger .+: it is closed$/,
    );
  } finally {
    ws.close();
  }
});

Deno.test("joinUserRuns() joins consecutive user messages and leaves the rest alone", () => {
  assert.deepEqual(
    joinUserRuns([
      { role: "user", content: "a" },
      { role: "user", content: "b" },
      { role: "assistant", content: [{ type: "text", text: "x" }] },
      { role: "user", content: "c" },
      { role: "user", content: "d" },
    ]),
    [
      { role: "user", content: "a\n\nb" },
      { role: "assistant", content: [{ type: "text", text: "x" }] },
      { role: "user", content: "c\n\nd" },
    ],
  );
});

Deno.test("buildAgent() refuses a tier-2 call with no hook, tells the caller and the model, and keeps both", async () => {
  const h = home(['/tool write_note {"name":"todo","text":"buy milk"}', "I could not save it."]);
  const { ws, paths } = h;
  try {
    const agent = chatAgent(h);
    const refused: ToolRefusal[] = [];
    const results: unknown[] = [];
    const result = await agent.turn("s3", "Note: buy milk", {
      onToolRefused: (r) => refused.push(r),
      onToolResult: (_name, output) => results.push(output),
    });
    assert.equal(result.text, "I could not save it.");
    assert.deepEqual(refused.map((r) => [r.toolName, r.reason]), [["write_note", "no_one_to_ask"]]);
    assert.deepEqual(results, [], "a refused call returned nothing");
    assert.throws(() => Deno.statSync(`${paths.home}/notes/todo.md`), Deno.errors.NotFound);
    const stored = (await agent.history("s3"))[2];
    assert.ok(stored?.role === "tool");
    assert.equal(stored.content[0]!.notRun, "no_one_to_ask");
    assert.match(JSON.stringify(stored.content[0]!.output), /write_note did NOT run/);
  } finally {
    ws.close();
  }
});

Deno.test("buildAgent() ends a reply cut by the step limit with a notice, in English and in Turkish", async () => {
  for (
    const [lang, notice] of [
      [
        "en",
        /^The agent stopped after 2 steps of tool calls \(its limit\) before it finished answering/,
      ],
      ["tr", /^Ajan, yanıtını bitirmeden 2 araç çağrısı adımından sonra durdu/],
    ] as const
  ) {
    const h = home(Array(3).fill("/tool list_notes {}"));
    const { ws } = h;
    try {
      const agent = chatAgent(h, { lang, maxSteps: 2 });
      const result = await agent.turn("s4", "List my notes forever");
      assert.equal(result.text, "");
      assert.equal(result.cut, "steps");
      assert.equal(result.notices.length, 1);
      assert.match(result.notices[0]!, notice);
      assert.equal(result.reply, result.notices[0]);
      // Both steps' calls and results are stored.
      assert.deepEqual((await agent.history("s4")).map((m) => m.role), [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
      ]);
    } finally {
      ws.close();
    }
  }
});
