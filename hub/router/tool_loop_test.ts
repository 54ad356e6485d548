import assert from "node:assert/strict";
import { z } from "zod";
import { FakeLanguageModel } from "../models/fake.ts";
import type { CallOptions, LanguageModelV4, StreamPart } from "../models/mod.ts";
import type { SessionMessage } from "../sessions/mod.ts";
import type { ModelTools } from "../tools/mod.ts";
import { type LoopEvent, runToolLoop, streamError } from "./tool_loop.ts";
import { NO_RESULT, toPrompt } from "./model_prompt.ts";

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

type Unified = Extract<StreamPart, { type: "finish" }>["finishReason"]["unified"];

const finish = (unified: Unified = "stop"): StreamPart => ({
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
  // The call is kept, with a result that says it was cut while it ran, told live too.
  assert.deepEqual(events.map((e) => e.type), ["tool-call", "step", "tool-error", "step"]);
  const told = events[2];
  assert.ok(told?.type === "tool-error" && /cancelled while this ran/.test(told.error));
  const cut = events[3];
  assert.ok(cut?.type === "step" && cut.messages[0]?.role === "tool");
  assert.match(
    JSON.stringify(cut.messages[0].content[0]!.output),
    /cancelled while this ran; its result never came/,
  );
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

Deno.test("toPrompt() puts results in call order, answers a call left without one and drops empty text", () => {
  const call = (id: string) => ({
    type: "tool-call" as const,
    toolCallId: id,
    toolName: "t",
    input: {},
  });
  const result = (id: string, value: string): SessionMessage => ({
    role: "tool",
    content: [{
      type: "tool-result",
      toolCallId: id,
      toolName: "t",
      output: { type: "text", value },
    }],
  });
  const messages: SessionMessage[] = [
    { role: "user", content: "Hi" },
    {
      role: "assistant",
      content: [{ type: "text", text: "" }, call("c1"), call("c2"), call("c3")],
    },
    // Settled in another order than called; c3's result never came (a crash).
    result("c2", "b"),
    result("c1", "a"),
    // A result with no call before it is left out.
    result("stray", "x"),
    { role: "assistant", content: [] },
    { role: "user", content: "Again" },
  ];
  const prompt = toPrompt("Sys.", messages);
  assert.deepEqual(prompt.map((m) => m.role), ["system", "user", "assistant", "tool", "user"]);
  assert.deepEqual((prompt[2]!.content as { type: string }[]).map((p) => p.type), [
    "tool-call",
    "tool-call",
    "tool-call",
  ]);
  const results = prompt[3]!.content as { toolCallId: string; output: unknown }[];
  assert.deepEqual(results.map((r) => r.toolCallId), ["c1", "c2", "c3"]);
  assert.deepEqual(results[2]!.output, { type: "error-text", value: NO_RESULT });
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

const toolCall = (id: string, name: string, input: unknown): StreamPart => ({
  type: "tool-call",
  toolCallId: id,
  toolName: name,
  input: JSON.stringify(input),
});

function noter(written: string[], wait?: Promise<void>): ModelTools {
  return {
    write_note: {
      inputSchema: z.object({ text: z.string() }),
      execute: async (input) => {
        await wait;
        written.push((input as { text: string }).text);
        return { saved: true };
      },
    },
  };
}

Deno.test("runToolLoop() hands on a step as it completes, so a cancel after a tool ran keeps the call and its result", async () => {
  const written: string[] = [];
  const controller = new AbortController();
  // Step 1 calls the tool; step 2 streams until the owner cancels.
  const model = scripted(
    [
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Saving." },
      { type: "text-end", id: "t" },
      toolCall("c1", "write_note", { text: "buy milk" }),
      finish("tool-calls"),
    ],
    [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Now I" }],
  );
  const steps: SessionMessage[] = [];
  const reason = new Error("cancelled by the owner");
  await assert.rejects(async () => {
    for await (
      const e of runToolLoop({
        model,
        messages: [{ role: "user", content: "Note: buy milk" }],
        tools: noter(written),
        maxSteps: 8,
        signal: controller.signal,
      })
    ) {
      if (e.type === "step") steps.push(...e.messages);
      if (e.type === "text" && e.text === "Now I") controller.abort(reason);
    }
  }, (error) => error === reason);
  assert.deepEqual(written, ["buy milk"]);
  assert.deepEqual(steps, [
    {
      role: "assistant",
      content: [
        { type: "text", text: "Saving." },
        {
          type: "tool-call",
          toolCallId: "c1",
          toolName: "write_note",
          input: { text: "buy milk" },
        },
      ],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c1",
        toolName: "write_note",
        output: { type: "json", value: { saved: true } },
      }],
    },
  ]);
});

Deno.test("runToolLoop() keeps a tool's result when the stream breaks after the call, then throws", async () => {
  const written: string[] = [];
  let release = () => {};
  const wait = new Promise<void>((r) => release = r);
  const model = scripted([
    toolCall("c1", "write_note", { text: "a" }),
    { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    finish("error"),
  ]);
  const steps: SessionMessage[] = [];
  setTimeout(release, 20);
  await assert.rejects(async () => {
    for await (
      const e of runToolLoop({ model, messages: [], tools: noter(written, wait), maxSteps: 8 })
    ) {
      if (e.type === "step") steps.push(...e.messages);
    }
  }, /Overloaded/);
  // The tool was running when the stream broke: it is waited for and its result kept.
  assert.deepEqual(written, ["a"]);
  assert.deepEqual(steps.map((m) => m.role), ["assistant", "tool"]);
  assert.deepEqual((steps[1]!.content[0] as { output: unknown }).output, {
    type: "json",
    value: { saved: true },
  });
});

Deno.test("runToolLoop() keeps parts apart when a provider reuses their ids after their end", async () => {
  // The OpenAI-compatible provider names every reasoning part reasoning-0 and every text
  // part txt-0, ending one before the other starts.
  const model = scripted([
    { type: "reasoning-start", id: "reasoning-0" },
    { type: "reasoning-delta", id: "reasoning-0", delta: "First thought." },
    { type: "reasoning-end", id: "reasoning-0" },
    { type: "text-start", id: "txt-0" },
    { type: "text-delta", id: "txt-0", delta: "Hello." },
    { type: "text-end", id: "txt-0" },
    { type: "reasoning-start", id: "reasoning-0" },
    { type: "reasoning-delta", id: "reasoning-0", delta: "Second thought." },
    { type: "reasoning-end", id: "reasoning-0" },
    { type: "text-start", id: "txt-0" },
    { type: "text-delta", id: "txt-0", delta: " Bye." },
    { type: "text-end", id: "txt-0" },
    finish(),
  ]);
  const events = await collect(runToolLoop({ model, messages: [], maxSteps: 8 }));
  const done = events.at(-1);
  assert.ok(done?.type === "done");
  assert.deepEqual(done.messages, [{
    role: "assistant",
    content: [
      { type: "reasoning", text: "First thought." },
      { type: "text", text: "Hello." },
      { type: "reasoning", text: "Second thought." },
      { type: "text", text: " Bye." },
    ],
  }]);
});

Deno.test("runToolLoop() says why an answer stopped short: the step limit, the length or the filter", async () => {
  const looping = new FakeLanguageModel("m", Array(5).fill('/tool add {"a": 1, "b": 1}'));
  const steps = await collect(
    runToolLoop({ model: looping, messages: [], tools: adder([]), maxSteps: 2 }),
  );
  assert.deepEqual(steps.at(-1), { ...steps.at(-1), cut: "steps" });
  for (const unified of ["length", "content-filter"] as const) {
    const model = scripted([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "The answer is" },
      { type: "text-end", id: "t" },
      finish(unified),
    ]);
    const done = (await collect(runToolLoop({ model, messages: [], maxSteps: 8 }))).at(-1);
    assert.ok(done?.type === "done");
    assert.equal(done.cut, unified);
  }
  const answered = (await collect(
    runToolLoop({ model: new FakeLanguageModel("m"), messages: [], maxSteps: 8 }),
  )).at(-1);
  assert.ok(answered?.type === "done");
  assert.equal(answered.cut, undefined);
});
