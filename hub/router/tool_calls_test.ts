import assert from "node:assert/strict";
import { z } from "zod";
import type { CallOptions, LanguageModelV4, StreamPart } from "../models/mod.ts";
import type { SessionMessage, ToolResultPart } from "../sessions/mod.ts";
import { type ModelTools, refusalText } from "../tools/mod.ts";
import { type LoopEvent, type LoopToolCall, runToolLoop } from "./tool_loop.ts";
import { MAX_PARALLEL_CALLS } from "./tool_calls.ts";

/** A model whose first call streams `parts` (then a finish) and whose second answers "Done." */
function calling(parts: StreamPart[]): LanguageModelV4 & { calls: CallOptions[] } {
  const calls: CallOptions[] = [];
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  return {
    specificationVersion: "v4",
    provider: "test",
    modelId: "calling",
    supportedUrls: {},
    calls,
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream(options: CallOptions) {
      calls.push(options);
      const step: StreamPart[] = calls.length === 1
        ? [...parts, { type: "finish", finishReason: { unified: "tool-calls", raw: "" }, usage }]
        : [
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Done." },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "" }, usage },
        ];
      return Promise.resolve({
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of step) controller.enqueue(part);
            controller.close();
          },
        }),
      });
    },
  } as LanguageModelV4 & { calls: CallOptions[] };
}

const call = (id: string, name: string, input: unknown = {}): StreamPart => ({
  type: "tool-call",
  toolCallId: id,
  toolName: name,
  input: JSON.stringify(input),
});

async function collect(events: AsyncIterable<LoopEvent>): Promise<LoopEvent[]> {
  const out: LoopEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function results(events: LoopEvent[]): ToolResultPart[] {
  return events.flatMap((e) =>
    e.type === "step" ? e.messages.flatMap((m) => m.role === "tool" ? m.content : []) : []
  );
}

/** A tool whose runs wait until released, counting how many run at once. */
function gated() {
  let running = 0;
  let most = 0;
  const started: string[] = [];
  const waiting: (() => void)[] = [];
  const tools: ModelTools = {
    slow: {
      inputSchema: z.object({ n: z.number() }),
      async execute(input) {
        const { n } = input as { n: number };
        started.push(`#${n}`);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => waiting.push(resolve));
        running--;
        return `ran #${n}`;
      },
    },
  };
  return { tools, started, waiting, most: () => most };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

Deno.test("runToolLoop() runs at most four calls of a step at a time; a fifth waits for a slot", async () => {
  const g = gated();
  const model = calling([1, 2, 3, 4, 5].map((n) => call(`c${n}`, "slow", { n })));
  const run = collect(runToolLoop({ model, messages: [], tools: g.tools, maxSteps: 8 }));
  while (g.started.length < MAX_PARALLEL_CALLS) await tick();
  await tick();
  assert.deepEqual(g.started, ["#1", "#2", "#3", "#4"], "the fifth waits");
  g.waiting.shift()!();
  while (g.started.length < 5) await tick();
  assert.deepEqual(g.started, ["#1", "#2", "#3", "#4", "#5"]);
  while (g.waiting.length > 0 || g.started.length < 5) {
    g.waiting.shift()?.();
    await tick();
  }
  const events = await run;
  assert.equal(g.most(), 4);
  assert.deepEqual(
    results(events).map((r) => r.output),
    [1, 2, 3, 4, 5].map((n) => ({ type: "text", value: `ran #${n}` })),
  );
});

Deno.test("runToolLoop() asks approvals one at a time, in call order, never two at once", async () => {
  const ran: string[] = [];
  const tools: ModelTools = {
    send: {
      needsApproval: true,
      inputSchema: z.object({ to: z.string() }),
      execute: (input) => {
        ran.push((input as { to: string }).to);
        return Promise.resolve("sent");
      },
    },
    look: { inputSchema: z.object({}), execute: () => Promise.resolve("looked") },
  };
  const asked: string[] = [];
  let open = 0;
  let most = 0;
  const pending: (() => void)[] = [];
  const approve = async (c: LoopToolCall) => {
    asked.push(`${c.toolCallId}:${(c.input as { to: string }).to}`);
    open++;
    most = Math.max(most, open);
    await new Promise<void>((resolve) => pending.push(resolve));
    open--;
    return c.toolCallId === "c3"
      ? { allow: false as const, reason: "denied" as const }
      : { allow: true as const };
  };
  const model = calling([
    call("c1", "send", { to: "ada" }),
    call("c2", "look"),
    call("c3", "send", { to: "bob" }),
    call("c4", "send", { to: "cem" }),
  ]);
  const run = collect(runToolLoop({ model, messages: [], tools, maxSteps: 8, approve }));
  while (pending.length === 0) await tick();
  await tick();
  assert.deepEqual(asked, ["c1:ada"], "the next approval waits for this one");
  while (asked.length < 3 || pending.length > 0) {
    pending.shift()?.();
    await tick();
  }
  const events = await run;
  assert.deepEqual(asked, ["c1:ada", "c3:bob", "c4:cem"]);
  assert.equal(most, 1);
  assert.deepEqual(ran.sort(), ["ada", "cem"]);
  const refused = events.filter((e) => e.type === "tool-refused");
  assert.deepEqual(refused, [{
    type: "tool-refused",
    toolCallId: "c3",
    toolName: "send",
    reason: "denied",
  }]);
  const bob = results(events).find((r) => r.toolCallId === "c3");
  assert.deepEqual(bob, {
    type: "tool-result",
    toolCallId: "c3",
    toolName: "send",
    output: { type: "error-text", value: refusalText("send", "denied") },
    notRun: "denied",
  });
});

Deno.test("runToolLoop() refuses a tier-2 call when no one can be asked, and tells the model it did NOT run", async () => {
  let ran = false;
  const tools: ModelTools = {
    write_note: {
      needsApproval: true,
      inputSchema: z.object({}),
      execute: () => {
        ran = true;
        return Promise.resolve("saved");
      },
    },
  };
  const model = calling([call("c1", "write_note")]);
  const events = await collect(runToolLoop({ model, messages: [], tools, maxSteps: 8 }));
  assert.equal(ran, false);
  assert.ok(events.some((e) => e.type === "tool-refused" && e.reason === "no_one_to_ask"));
  assert.ok(!events.some((e) => e.type === "tool-result"));
  // What the model read in the next step.
  const sent = model.calls[1]!.prompt.at(-1)!;
  assert.equal(sent.role, "tool");
  assert.deepEqual((sent.content[0] as { output: unknown }).output, {
    type: "error-text",
    value:
      "write_note did NOT run: it needs the owner's approval and no one could be asked here. Do not say it ran; tell the owner it did not run.",
  });
});

Deno.test("runToolLoop() ends the turn with what the hook threw, keeping the call as not run", async () => {
  const tools: ModelTools = {
    write_note: {
      needsApproval: true,
      inputSchema: z.object({}),
      execute: () => Promise.resolve(1),
    },
  };
  const thrown = new Error("Ctrl-C at the prompt");
  const steps: SessionMessage[] = [];
  await assert.rejects(async () => {
    for await (
      const e of runToolLoop({
        model: calling([call("c1", "write_note")]),
        messages: [],
        tools,
        maxSteps: 8,
        approve: () => Promise.reject(thrown),
      })
    ) {
      if (e.type === "step") steps.push(...e.messages);
    }
  }, (error) => error === thrown);
  assert.deepEqual(steps.map((m) => m.role), ["assistant", "tool"]);
  assert.equal((steps[1]!.content[0] as ToolResultPart).notRun, "cancelled");
});

Deno.test("runToolLoop() stops waiting for an approval at a cancel: the call did not run, the hook's signal ends", async () => {
  const tools: ModelTools = {
    write_note: {
      needsApproval: true,
      inputSchema: z.object({}),
      execute: () => Promise.resolve(1),
    },
  };
  const controller = new AbortController();
  let hookSignal: AbortSignal | undefined;
  const steps: SessionMessage[] = [];
  await assert.rejects(async () => {
    for await (
      const e of runToolLoop({
        model: calling([call("c1", "write_note")]),
        messages: [],
        tools,
        maxSteps: 8,
        signal: controller.signal,
        approve: (c) => {
          hookSignal = c.signal;
          setTimeout(() => controller.abort(new Error("stop")), 5);
          return new Promise(() => {});
        },
      })
    ) {
      if (e.type === "step") steps.push(...e.messages);
    }
  }, /stop/);
  assert.equal(hookSignal?.aborted, true);
  const result = steps[1]!.content[0] as ToolResultPart;
  assert.equal(result.notRun, "cancelled");
  assert.deepEqual(result.output, {
    type: "error-text",
    value: refusalText("write_note", "cancelled"),
  });
});
