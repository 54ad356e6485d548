/**
 * What a turn keeps, through real provider packages and loopback vendors: a cancel
 * after a tool ran keeps the call and its result (the next turn's request carries
 * them), parts a provider names with the same id stay apart, and an answer cut at the
 * output limit says so.
 */
import assert from "node:assert/strict";
import { buildAgent, BUILTIN_TOOLS } from "../mod.ts";
import { resolvePaths } from "../base.ts";
import { startVendorServer, type VendorServer } from "../../tests/_vendor_server.ts";
import { config, TEST_PRICE, workspace } from "../../tests/_models.ts";

function setup(provider: "vendor-a" | "local-runtime", server: VendorServer) {
  const ws = workspace();
  const paths = resolvePaths({ home: ws.dir, env: {} });
  Deno.mkdirSync(paths.personaDir, { recursive: true });
  Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "Be brief.");
  const model = provider === "vendor-a" ? "claude-test-1" : "llama3.2";
  const cfg = config(`
[models.roles.brain]
provider = "${provider}"
model_id = "${model}"
max_tokens = 400
[models.roles.brain.params]
base_url = "${provider === "vendor-a" ? `${server.url}/v1` : server.url}"
[models.roles.brain.budget]
usd = 10
period = "month"
[models.prices."${model}"]
${TEST_PRICE}`);
  const agent = buildAgent({
    config: cfg,
    env: { VENDOR_A_API_KEY: "sk-a-test" },
    paths,
    channel: "chat",
    role: "brain",
    tools: BUILTIN_TOOLS,
    persona: { personaFile: `${paths.personaDir}/persona.md` },
    ledger: ws.ledger,
    logger: ws.logger,
  });
  return { ws, paths, agent };
}

Deno.test("a cancel after a tool ran keeps the call and its result; the next turn's request carries both", async () => {
  const server = startVendorServer({ reply: "I saved a note called todo." });
  const { ws, paths, agent } = setup("vendor-a", server);
  try {
    server.script.push(
      {
        step: {
          text: "Saving it.",
          calls: [{ id: "toolu_1", name: "write_note", input: { name: "todo", text: "buy milk" } }],
        },
      },
      // The answer after the tool is slow: the owner cancels while it is on its way.
      { delayMs: 1500 },
    );
    const controller = new AbortController();
    const turn = agent.turn("s1", "Note: buy milk", {
      signal: controller.signal,
      beforeToolCall: () => Promise.resolve({ allow: true }),
    });
    while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 10));
    controller.abort(new Error("cancelled by the owner"));
    await assert.rejects(turn, /cancelled by the owner/);
    assert.equal(Deno.readTextFileSync(`${paths.home}/notes/todo.md`), "buy milk\n");
    assert.deepEqual((await agent.history("s1")).map((m) => m.role), ["user", "assistant", "tool"]);

    const next = await agent.turn("s1", "What did you do?");
    assert.equal(next.text, "I saved a note called todo.");
    const body = server.requests[2]!.body as { messages: { role: string; content: unknown }[] };
    const sent = JSON.stringify(body.messages);
    assert.match(sent, /"type":"tool_use","id":"toolu_1","name":"write_note"/);
    assert.match(
      sent,
      /"type":"tool_result","tool_use_id":"toolu_1","content":"\{\\"saved\\":\\"todo\\"/,
    );
    // Each call is in the ledger: the step, the cancelled one (estimated), the next turn.
    assert.deepEqual(ws.rows().map((r) => r.estimated), [0, 1, 0]);
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("parts the OpenAI-compatible provider names with the same ids are stored apart", async () => {
  const server = startVendorServer();
  const { ws, agent } = setup("local-runtime", server);
  try {
    server.script.push({
      step: {
        thinking: { text: "First I look.", signature: "" },
        text: "It is sunny.",
        afterthought: { thinking: "Then I check again.", text: " Still sunny." },
      },
    });
    const result = await agent.turn("s1", "Weather?");
    assert.equal(result.text, "It is sunny. Still sunny.");
    const [, answer] = await agent.history("s1");
    assert.ok(answer?.role === "assistant");
    assert.deepEqual(answer.content, [
      { type: "reasoning", text: "First I look." },
      { type: "text", text: "It is sunny." },
      { type: "reasoning", text: "Then I check again." },
      { type: "text", text: " Still sunny." },
    ]);
  } finally {
    await server.close();
    ws.close();
  }
});

/** The sentences of docs/chat.md's "Answers cut short" table. */
function documented(): string[] {
  const doc = Deno.readTextFileSync(new URL("../../docs/chat.md", import.meta.url));
  const table = doc.slice(doc.indexOf("### Answers cut short"), doc.indexOf("### Approvals"));
  return [...table.matchAll(/\| `([^`]+)` +\|$/gm)].map((m) => m[1]!);
}

Deno.test("an answer cut at the output limit or by the filter ends with the documented notice", async () => {
  const server = startVendorServer();
  const { ws, agent } = setup("vendor-a", server);
  try {
    server.script.push(
      { step: { text: "The three reasons are: first,", stop: "length" } },
      { step: { text: "I", stop: "refusal" } },
    );
    const cut = await agent.turn("s1", "Three reasons?");
    assert.equal(cut.cut, "length");
    assert.equal(
      cut.reply,
      "The three reasons are: first,\n\nThe answer was cut off: it reached the model's output limit (max_tokens).",
    );
    const filtered = await agent.turn("s1", "And a fourth?");
    assert.equal(filtered.cut, "content-filter");
    assert.equal(filtered.notices.length, 1);
    // The step limit's notice, from eight steps of tool calls with the fake provider.
    const { ws: ws8, paths } = setup("vendor-a", server);
    const looping = buildAgent({
      config: config(`
[models.roles.brain]
provider = "fake"
model_id = "fake-1"
[models.roles.brain.params]
replies = ${JSON.stringify(Array(8).fill("/tool list_notes {}"))}
`),
      env: {},
      paths,
      channel: "chat",
      role: "brain",
      tools: BUILTIN_TOOLS,
      persona: { personaFile: `${paths.personaDir}/persona.md` },
      logger: ws8.logger,
    });
    const steps = await looping.turn("s1", "List forever");
    ws8.close();
    assert.equal(steps.cut, "steps");
    assert.deepEqual(documented(), [steps.notices[0], cut.notices[0], filtered.notices[0]]);
  } finally {
    await server.close();
    ws.close();
  }
});
