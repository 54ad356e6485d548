import assert from "node:assert/strict";
import { z } from "zod";
import type { ModelMessage } from "ai";
import { FakeLanguageModel } from "../models/fake.ts";
import type { CallOptions, LanguageModelV4, StreamPart } from "../models/mod.ts";
import type { ModelTools } from "../tools/mod.ts";
import { type LoopEvent, runToolLoop, streamError } from "./tool_loop.ts";
import { toPrompt } from "./model_prompt.ts";

async function collect(events: AsyncIterable<LoopEvent>): Promise<LoopEvent[]> {
  const out: LoopEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function adder(runs: unknown[]): ModelTools {
  return {
    add: {
      description: "Adds two numbers.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: (input) => {
        runs.push(input);
        const { a, b } = input as { a: number; b: number };
        return Promise.resolve({ sum: a + b });
      },
    },
  };
}

/** A model whose every call streams `parts` (then a finish). */
function scripted(...steps: StreamPart[][]): LanguageModelV4 & { calls: CallOptions[] } {
  const calls: CallOptions[] = [];
  return {
    specificationVersion: "v4",
    provider: "test",
    modelId: "scripted",
    supportedUrls: {},
    calls,
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream(options: CallOptions) {
      calls.push(options);
      const parts = steps[calls.length - 1] ?? [];
      return Promise.resolve({
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      });
    },
  } as LanguageModelV4 & { calls: CallOptions[] };
}

const finish = (unified: "stop" | "tool-calls" = "stop"): StreamPart => ({
  type: "finish",
  finishReason: { unified, raw: unified },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  },
});

Deno.test("runToolLoop() runs a tool call, sends its result back and streams the answer", async () => {
  const runs: unknown[] = [];
  const model = new FakeLanguageModel("m", ['/tool add {"a": 2, "b": 3}', "The sum is 5."]);
  const events = await collect(runToolLoop({
    model,
    system: ["You are kind.", "## Now"],
    messages: [{ role: "user", content: "What is 2 + 3?" }],
    tools: adder(runs),
    maxSteps: 8,
  }));
  assert.deepEqual(runs, [{ a: 2, b: 3 }]);
  const call = events.find((e) => e.type === "tool-call");
  assert.ok(call?.type === "tool-call" && call.toolName === "add");
  assert.deepEqual(events.find((e) => e.type === "tool-result"), {
    type: "tool-result",
    toolCallId: call.toolCallId,
    toolName: "add",
    output: { sum: 5 },
  });
  const text = events.flatMap((e) => e.type === "text" ? [e.text] : []).join("");
  assert.equal(text, "The sum is 5.");
  // The second step saw the call and its result, after both system parts.
  assert.equal(model.calls.length, 2);
  const second = model.calls[1]!.prompt;
  assert.deepEqual(second.slice(0, 2), [
    { role: "system", content: "You are kind." },
    { role: "system", content: "## Now" },
  ]);
  assert.deepEqual(second.at(-1), {
    role: "tool",
    content: [{
      type: "tool-result",
      toolCallId: call.toolCallId,
      toolName: "add",
      output: { type: "json", value: { sum: 5 } },
    }],
  });
  // The tool was offered with its JSON schema, closed to other properties.
  const offered = model.calls[0]!.tools?.[0];
  assert.ok(offered?.type === "function");
  assert.equal(offered.name, "add");
  assert.equal(offered.description, "Adds two numbers.");
  assert.equal(
    (offered.inputSchema as { additionalProperties?: unknown }).additionalProperties,
    false,
  );
  // The turn's messages, as a session stores them.
  const done = events.at(-1);
  assert.ok(done?.type === "done");
  assert.deepEqual(done.messages.map((m) => m.role), ["assistant", "tool", "assistant"]);
  assert.deepEqual(done.messages[2], {
    role: "assistant",
    content: [{ type: "text", text: "The sum is 5." }],
  });
});

Deno.test("runToolLoop() tells the model what was wrong with a call instead of running it", async () => {
  const runs: unknown[] = [];
  const model = new FakeLanguageModel("m", [
    '/tool add {"a": "two"}',
    "/tool subtract {}",
    "/tool add {not json",
    "Sorry.",
  ]);
  const events = await collect(runToolLoop({
    model,
    messages: [{ role: "user", content: "Add." }],
    tools: adder(runs),
    maxSteps: 8,
  }));
  assert.deepEqual(runs, []);
  assert.equal(events.filter((e) => e.type === "tool-result").length, 0);
  const errors = model.calls.slice(1).map((c) => {
    const last = c.prompt.at(-1)!;
    assert.equal(last.role, "tool");
    const part = (last.content as { output: { type: string; value: string } }[])[0]!;
    assert.equal(part.output.type, "error-text");
    return part.output.value;
  });
  assert.match(errors[0]!, /The input for add does not fit: a: .*number.*; b: /);
  assert.equal(errors[1], "There is no tool named subtract; the tools are: add.");
  assert.match(errors[2]!, /The input for add is not JSON/);
});

Deno.test("runToolLoop() stops at maxSteps even when the model keeps calling tools", async () => {
  const runs: unknown[] = [];
  const model = new FakeLanguageModel("m", Array(5).fill('/tool add {"a": 1, "b": 1}'));
  const events = await collect(runToolLoop({
    model,
    messages: [{ role: "user", content: "Loop." }],
    tools: adder(runs),
    maxSteps: 3,
  }));
  assert.equal(model.calls.length, 3);
  assert.equal(runs.length, 3);
  assert.equal(events.at(-1)?.type, "done");
});

Deno.test("runToolLoop() reads a step to its end, then throws its first error as an Error", async () => {
  const model = scripted([
    { type: "text-start", id: "0" },
    { type: "text-delta", id: "0", delta: "Hal" },
    { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    finish(),
  ]);
  const seen: LoopEvent[] = [];
  await assert.rejects(
    async () => {
      for await (const e of runToolLoop({ model, messages: [], maxSteps: 8 })) seen.push(e);
    },
    (error: Error) => error.message === "Overloaded" && error.name === "ProviderStreamError",
  );
  assert.deepEqual(seen, [{ type: "text", text: "Hal" }]);
});

Deno.test("runToolLoop() ends at the abort with the signal's reason, also with a tool waiting", async () => {
  const controller = new AbortController();
  const tools: ModelTools = {
    wait: {
      inputSchema: z.object({}),
      execute: () => new Promise(() => {}),
    },
  };
  const model = new FakeLanguageModel("m", ["/tool wait {}"]);
  const reason = new Error("the owner stopped it");
  const events: LoopEvent[] = [];
  await assert.rejects(async () => {
    for await (
      const e of runToolLoop({
        model,
        messages: [],
        tools,
        maxSteps: 8,
        signal: controller.signal,
      })
    ) {
      events.push(e);
      if (e.type === "tool-call") setTimeout(() => controller.abort(reason), 10);
    }
  }, (error) => error === reason);
  assert.deepEqual(events.map((e) => e.type), ["tool-call"]);
});

Deno.test("runToolLoop() keeps reasoning and its signature for the next step", async () => {
  const model = scripted([
    { type: "reasoning-start", id: "r" },
    { type: "reasoning-delta", id: "r", delta: "Think." },
    {
      type: "reasoning-delta",
      id: "r",
      delta: "",
      providerMetadata: { anthropic: { signature: "sig" } },
    },
    { type: "reasoning-end", id: "r" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Done." },
    { type: "text-end", id: "t" },
    finish(),
  ]);
  const events = await collect(runToolLoop({ model, messages: [], maxSteps: 8 }));
  const done = events.at(-1);
  assert.ok(done?.type === "done");
  assert.deepEqual(done.messages, [{
    role: "assistant",
    content: [
      { type: "reasoning", text: "Think.", providerOptions: { anthropic: { signature: "sig" } } },
      { type: "text", text: "Done." },
    ],
  }]);
});

Deno.test("toPrompt() joins tool messages, keeps a stored custom part and drops empty text", () => {
  const messages: ModelMessage[] = [
    { role: "user", content: [{ type: "text", text: "" }, { type: "text", text: "Hi" }] },
    {
      role: "assistant",
      content: [
        { type: "custom", kind: "anthropic.message_start", providerOptions: { anthropic: {} } },
        { type: "text", text: "" },
        { type: "tool-call", toolCallId: "c1", toolName: "t", input: {} },
        { type: "tool-call", toolCallId: "c2", toolName: "t", input: {} },
      ],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c1",
        toolName: "t",
        output: { type: "text", value: "a" },
      }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c2",
        toolName: "t",
        output: { type: "text", value: "b" },
      }],
    },
  ];
  const prompt = toPrompt("Sys.", messages);
  assert.deepEqual(prompt.map((m) => m.role), ["system", "user", "assistant", "tool"]);
  assert.deepEqual(prompt[1]!.content, [{ type: "text", text: "Hi" }]);
  assert.deepEqual((prompt[2]!.content as { type: string }[]).map((p) => p.type), [
    "custom",
    "tool-call",
    "tool-call",
  ]);
  assert.equal(prompt[3]!.content.length, 2);
});

Deno.test("streamError() keeps Errors and words a vendor's error data", () => {
  const e = new Error("x");
  assert.equal(streamError(e), e);
  assert.equal(streamError("plain"), "plain");
  const worded = streamError({ error: { message: "Too busy", status: 503 } }) as Error & {
    statusCode?: number;
  };
  assert.equal(worded.message, "Too busy");
  assert.equal(worded.statusCode, 503);
});

Deno.test("runToolLoop() lets the provider's stream go when its reader stops early", async () => {
  let cancelled = false;
  const model = {
    specificationVersion: "v4",
    provider: "test",
    modelId: "endless",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream: () =>
      Promise.resolve({
        stream: new ReadableStream<StreamPart>({
          pull(controller) {
            controller.enqueue({ type: "text-delta", id: "t", delta: "more " });
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
  } as unknown as LanguageModelV4;
  for await (const event of runToolLoop({ model, messages: [], maxSteps: 1 })) {
    if (event.type === "text") break;
  }
  assert.ok(cancelled);
});
