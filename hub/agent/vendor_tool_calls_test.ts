/**
 * Two tool calls in one step, through the real hub tool loop (`buildAgent` → the call
 * chain → the provider package → a loopback server speaking the vendor's wire format),
 * for every provider: the model thinks (with a signature where the format has one),
 * says a word, calls two tools at once; both run, and the next request carries the
 * thinking with its signature, both calls and both results, in the vendor's own shape.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { type AgentTool, buildAgent } from "../mod.ts";
import { resolvePaths } from "../base.ts";
import {
  startVendorServer,
  type StepScript,
  type VendorServer,
} from "../../tests/_vendor_server.ts";
import { config, TEST_PRICE, workspace } from "../../tests/_models.ts";

type Body = Record<string, unknown>;

interface Case {
  provider: string;
  model: string;
  env: Record<string, string>;
  base: (s: VendorServer) => string;
  /** The parts the session keeps of the step (the Chat Completions wire has no reasoning). */
  parts: string[];
  /** Checks the request after the calls: thinking, both calls and both results. */
  check(body: Body, step: StepScript): void;
}

const STEP: StepScript = {
  thinking: { text: "The owner wants both the weather and the time.", signature: "sig-Ek5" },
  text: "Checking both.",
  calls: [
    { id: "call_w1", name: "weather", input: { city: "Istanbul" } },
    { id: "call_t2", name: "local_time", input: { zone: "Europe/Istanbul" } },
  ],
};

const RESULTS = ['{"city":"Istanbul","sky":"clear"}', "12:00 in Europe/Istanbul"];

const CASES: Case[] = [
  {
    provider: "vendor-a",
    parts: ["reasoning", "text", "tool-call", "tool-call"],
    model: "claude-test-1",
    env: { VENDOR_A_API_KEY: "sk-a-test" },
    base: (s) => `${s.url}/v1`,
    check(body, step) {
      const messages = body.messages as { role: string; content: Body[] }[];
      assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "user"]);
      assert.deepEqual(messages[1]!.content.map(({ cache_control: _, ...p }) => p), [
        { type: "thinking", thinking: step.thinking!.text, signature: "sig-Ek5" },
        { type: "text", text: "Checking both." },
        { type: "tool_use", id: "call_w1", name: "weather", input: { city: "Istanbul" } },
        {
          type: "tool_use",
          id: "call_t2",
          name: "local_time",
          input: { zone: "Europe/Istanbul" },
        },
      ]);
      const results = messages[2]!.content;
      assert.deepEqual(results.map((r) => [r.type, r.tool_use_id]), [
        ["tool_result", "call_w1"],
        ["tool_result", "call_t2"],
      ]);
      assert.deepEqual(results.map((r) => r.content), RESULTS);
    },
  },
  {
    provider: "vendor-b",
    parts: ["text", "tool-call", "tool-call"],
    model: "gpt-test-1",
    env: { VENDOR_B_API_KEY: "sk-b-test" },
    base: (s) => `${s.url}/v1`,
    check(body) {
      const messages = (body.messages as Body[]).filter((m) => m.role !== "system");
      assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "tool", "tool"]);
      assert.equal(messages[1]!.content, "Checking both.");
      assert.deepEqual(messages[1]!.tool_calls, [
        {
          id: "call_w1",
          type: "function",
          function: { name: "weather", arguments: '{"city":"Istanbul"}' },
        },
        {
          id: "call_t2",
          type: "function",
          function: { name: "local_time", arguments: '{"zone":"Europe/Istanbul"}' },
        },
      ]);
      assert.deepEqual(messages.slice(2).map((m) => [m.tool_call_id, m.content]), [
        ["call_w1", RESULTS[0]],
        ["call_t2", RESULTS[1]],
      ]);
    },
  },
  {
    provider: "vendor-c",
    parts: ["reasoning", "text", "tool-call", "tool-call"],
    model: "gemini-test-1",
    env: { VENDOR_C_API_KEY: "c-key" },
    base: (s) => `${s.url}/v1beta`,
    check(body, step) {
      const contents = body.contents as { role: string; parts: Body[] }[];
      assert.deepEqual(contents.map((c) => c.role), ["user", "model", "user"]);
      // Gemini names no call ids; the provider makes its own and sends them back.
      const parts = contents[1]!.parts.map((p) => {
        if (p.functionCall === undefined) return p;
        const { id: _, ...call } = p.functionCall as Body;
        return { ...p, functionCall: call };
      });
      assert.deepEqual(parts, [
        { text: step.thinking!.text, thought: true },
        { text: "Checking both." },
        {
          functionCall: { name: "weather", args: { city: "Istanbul" } },
          thoughtSignature: "sig-Ek5",
        },
        { functionCall: { name: "local_time", args: { zone: "Europe/Istanbul" } } },
      ]);
      const responses = contents[2]!.parts.map((p) => p.functionResponse as Body);
      assert.deepEqual(responses.map((r) => r.name), ["weather", "local_time"]);
      assert.deepEqual(
        responses.map((r) => JSON.stringify(r.response)),
        [
          JSON.stringify({ name: "weather", content: JSON.parse(RESULTS[0]!) }),
          JSON.stringify({ name: "local_time", content: RESULTS[1] }),
        ],
      );
    },
  },
  {
    provider: "vendor-d",
    parts: ["reasoning", "text", "tool-call", "tool-call"],
    model: "global.test-model-v1:0",
    env: { VENDOR_D_REGION: "eu-west-1", VENDOR_D_BEARER_TOKEN: "bedrock-token" },
    base: (s) => s.url,
    check(body, step) {
      const messages = body.messages as { role: string; content: Body[] }[];
      assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "user"]);
      assert.deepEqual(messages[1]!.content, [
        {
          reasoningContent: { reasoningText: { text: step.thinking!.text, signature: "sig-Ek5" } },
        },
        { text: "Checking both." },
        { toolUse: { toolUseId: "call_w1", name: "weather", input: { city: "Istanbul" } } },
        {
          toolUse: { toolUseId: "call_t2", name: "local_time", input: { zone: "Europe/Istanbul" } },
        },
      ]);
      const results = messages[2]!.content.map((c) => c.toolResult as Body);
      assert.deepEqual(results.map((r) => r.toolUseId), ["call_w1", "call_t2"]);
      assert.deepEqual(results.map((r) => JSON.stringify(r.content)), [
        JSON.stringify([{ text: RESULTS[0] }]),
        JSON.stringify([{ text: RESULTS[1] }]),
      ]);
    },
  },
  {
    provider: "local-runtime",
    parts: ["reasoning", "text", "tool-call", "tool-call"],
    model: "llama3.2",
    env: {},
    base: (s) => s.url,
    check(body, step) {
      const messages = (body.messages as Body[]).filter((m) => m.role !== "system");
      assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "tool", "tool"]);
      // No signature on this wire; the reasoning goes back as reasoning_content.
      assert.equal(messages[1]!.reasoning_content, step.thinking!.text);
      assert.equal(messages[1]!.content, "Checking both.");
      assert.deepEqual(
        (messages[1]!.tool_calls as { id: string; function: { name: string } }[]).map((
          c,
        ) => [c.id, c.function.name]),
        [["call_w1", "weather"], ["call_t2", "local_time"]],
      );
      assert.deepEqual(messages.slice(2).map((m) => [m.tool_call_id, m.content]), [
        ["call_w1", RESULTS[0]],
        ["call_t2", RESULTS[1]],
      ]);
    },
  },
];

/** Two tier-1 tools that note when they start and finish. */
function twoTools(log: string[]): AgentTool[] {
  const weather: AgentTool<z.ZodObject<{ city: z.ZodString }>> = {
    name: "weather",
    tier: 1,
    description: "The weather in a city now.",
    inputSchema: z.object({ city: z.string() }),
    async execute({ city }) {
      log.push(`weather start ${city}`);
      await new Promise((r) => setTimeout(r, 30));
      log.push("weather end");
      return { city, sky: "clear" };
    },
  };
  const time: AgentTool<z.ZodObject<{ zone: z.ZodString }>> = {
    name: "local_time",
    tier: 1,
    description: "The local time in a time zone.",
    inputSchema: z.object({ zone: z.string() }),
    async execute({ zone }) {
      log.push(`time start ${zone}`);
      await new Promise((r) => setTimeout(r, 30));
      log.push("time end");
      return `12:00 in ${zone}`;
    },
  };
  return [weather as AgentTool, time as AgentTool];
}

function setup(c: Case, server: VendorServer) {
  const ws = workspace();
  const paths = resolvePaths({ home: ws.dir, env: {} });
  Deno.mkdirSync(paths.personaDir, { recursive: true });
  Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "Be brief.");
  const cfg = config(`
[models.roles.brain]
provider = "${c.provider}"
model_id = "${c.model}"
max_tokens = 400
[models.roles.brain.params]
base_url = "${c.base(server)}"
[models.roles.brain.budget]
usd = 10
period = "month"
[models.prices."${c.model}"]
${TEST_PRICE}`);
  return { ws, paths, cfg };
}

for (const c of CASES) {
  Deno.test(`the tool loop runs ${c.provider}'s two calls of one step and sends the step back whole (thinking where the wire has it, both calls, both results)`, async () => {
    const server = startVendorServer({ reply: "Clear skies, and it is noon." });
    const { ws, paths, cfg } = setup(c, server);
    try {
      server.script.push({ step: STEP });
      const log: string[] = [];
      const agent = buildAgent({
        config: cfg,
        env: c.env,
        paths,
        channel: "chat",
        role: "brain",
        tools: twoTools(log),
        persona: { personaFile: `${paths.personaDir}/persona.md` },
        ledger: ws.ledger,
        logger: ws.logger,
      });
      const calls: string[] = [];
      const result = await agent.turn("s1", "Weather and time in Istanbul?", {
        onToolCall: (name, _input, id) => calls.push(`${id} ${name}`),
      });
      assert.equal(result.reply, "Checking both.Clear skies, and it is noon.");
      assert.deepEqual(calls.map((x) => x.split(" ")[1]), ["weather", "local_time"]);
      // Both ran at once: the second started before the first ended.
      assert.deepEqual(log.slice(0, 2).map((x) => x.split(" ")[0]), ["weather", "time"]);
      assert.equal(log.length, 4);
      assert.equal(server.requests.length, 2);
      c.check(server.requests[1]!.body!, STEP);
      // The session keeps the step: thinking (signed where the wire signs), text, both calls.
      const history = await agent.history("s1");
      assert.deepEqual(history.map((m) => m.role), [
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
      ]);
      const step = history[1]!;
      assert.ok(step.role === "assistant");
      assert.deepEqual(step.content.map((p) => p.type), c.parts);
      assert.equal(ws.rows().length, 2);
    } finally {
      await server.close();
      ws.close();
    }
  });
}
