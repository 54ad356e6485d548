/**
 * Scripted steps for the loopback vendor server (`_vendor_server.ts`): an answer with
 * thinking (and its signature), text, and several tool calls at once, streamed in each
 * vendor's real wire format, the way their services stream them:
 *
 * - vendor-a (Anthropic Messages SSE): a `thinking` block whose `thinking_delta`s are
 *   followed by a `signature_delta`, a `text` block, then one `tool_use` block per call
 *   with its input in `input_json_delta` pieces; `stop_reason` `tool_use`.
 * - vendor-b and local-runtime (OpenAI Chat Completions SSE): `delta.tool_calls` by
 *   `index`, the first chunk of each with its `id` and name, the arguments in pieces;
 *   `finish_reason` `tool_calls`. The reasoning comes as `delta.reasoning` (Ollama's
 *   `/v1` field; OpenAI's own service streams none and reports only
 *   `completion_tokens_details.reasoning_tokens`, which is sent too). Neither has a
 *   signature.
 * - vendor-c (Gemini SSE): a `thought: true` text part, then the `functionCall` parts
 *   (the first carrying the `thoughtSignature`); `finishReason` `STOP`.
 * - vendor-d (Bedrock ConverseStream): `reasoningContent` deltas (text, then
 *   `signature`), a text block, then `toolUse` blocks started by `contentBlockStart`
 *   with their input in pieces; `stopReason` `tool_use`.
 *
 * `stop` ends the answer at the output limit (`max_tokens`, `length`, `MAX_TOKENS`) or
 * at the vendor's filter (`refusal`, `content_filter`, `SAFETY`, `content_filtered`).
 *
 * @module
 */
import { converseEvent } from "./_event_stream.ts";

/** One tool call of a scripted step. */
export interface ScriptedCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** What one scripted answer holds, in order: thinking, text, calls. */
export interface StepScript {
  thinking?: { text: string; signature: string };
  text?: string;
  /**
   * OpenAI wire only: more reasoning, then more text, after the text (a model that
   * thinks again mid-answer); the OpenAI-compatible provider names these parts with the
   * same ids as the first ones.
   */
  afterthought?: { thinking: string; text: string };
  calls?: ScriptedCall[];
  /** Ends at the output limit or the filter. @default a finished answer (or tool calls) */
  stop?: "length" | "refusal";
}

/** Each wire's words for an answer cut at the output limit or by the filter. */
const STOPS = {
  anthropic: { length: "max_tokens", refusal: "refusal" },
  openai: { length: "length", refusal: "content_filter" },
  gemini: { length: "MAX_TOKENS", refusal: "SAFETY" },
  bedrock: { length: "max_tokens", refusal: "content_filtered" },
} as const;

/** The usage the vendors report, in their own fields (see `_vendor_server.ts`'s USAGE). */
export interface StepUsage {
  anthropic: Record<string, unknown>;
  openai: Record<string, unknown>;
  gemini: Record<string, unknown>;
  bedrock: Record<string, unknown>;
}

const sse = (events: string[]) =>
  new Response(events.join(""), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });

/** A call's input as JSON text, cut in two pieces as the services stream it. */
function inputPieces(input: Record<string, unknown>): [string, string] {
  const json = JSON.stringify(input);
  const half = Math.ceil(json.length / 2);
  return [json.slice(0, half), json.slice(half)];
}

/** The words of `text`, each piece with its trailing space. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** vendor-a: Anthropic Messages, streamed. */
export function anthropicStep(step: StepScript, model: string, usage: StepUsage): Response {
  const ev = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  const events = [
    ev("message_start", {
      type: "message_start",
      message: {
        id: "msg_step",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage.anthropic, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (step.thinking !== undefined) {
    events.push(
      ev("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      }),
      ...words(step.thinking.text).map((thinking) =>
        ev("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "thinking_delta", thinking },
        })
      ),
      ev("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "signature_delta", signature: step.thinking.signature },
      }),
      ev("content_block_stop", { type: "content_block_stop", index }),
    );
    index++;
  }
  if (step.text !== undefined) {
    events.push(
      ev("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }),
      ...words(step.text).map((text) =>
        ev("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text },
        })
      ),
      ev("content_block_stop", { type: "content_block_stop", index }),
    );
    index++;
  }
  for (const call of step.calls ?? []) {
    events.push(
      ev("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
      }),
      ev("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: "" },
      }),
      ...inputPieces(call.input).map((partial_json) =>
        ev("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json },
        })
      ),
      ev("content_block_stop", { type: "content_block_stop", index }),
    );
    index++;
  }
  const stop = step.stop !== undefined
    ? STOPS.anthropic[step.stop]
    : (step.calls ?? []).length > 0
    ? "tool_use"
    : "end_turn";
  events.push(
    ev("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.anthropic.output_tokens },
    }),
    ev("message_stop", { type: "message_stop" }),
  );
  return sse(events);
}

/** vendor-b and local-runtime: OpenAI Chat Completions, streamed. */
export function openaiStep(step: StepScript, model: string, usage: StepUsage): Response {
  const base = {
    id: "chatcmpl-step",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
  };
  const data = (d: unknown) => `data: ${JSON.stringify(d)}\n\n`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    data({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const events = [chunk({ role: "assistant", content: "" })];
  if (step.thinking !== undefined) {
    events.push(...words(step.thinking.text).map((reasoning) => chunk({ reasoning })));
  }
  if (step.text !== undefined) {
    events.push(...words(step.text).map((content) => chunk({ content })));
  }
  if (step.afterthought !== undefined) {
    events.push(
      ...words(step.afterthought.thinking).map((reasoning) => chunk({ reasoning })),
      ...words(step.afterthought.text).map((content) => chunk({ content })),
    );
  }
  for (const [index, call] of (step.calls ?? []).entries()) {
    events.push(chunk({
      tool_calls: [{
        index,
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: "" },
      }],
    }));
    for (const piece of inputPieces(call.input)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  const finish = step.stop !== undefined
    ? STOPS.openai[step.stop]
    : (step.calls ?? []).length > 0
    ? "tool_calls"
    : "stop";
  const reasoning = step.thinking === undefined ? 0 : words(step.thinking.text).length;
  const openai = usage.openai as {
    prompt_tokens: number;
    completion_tokens: number;
    cached: number;
  };
  events.push(
    chunk({}, finish),
    data({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: openai.prompt_tokens,
        completion_tokens: openai.completion_tokens,
        total_tokens: openai.prompt_tokens + openai.completion_tokens,
        prompt_tokens_details: { cached_tokens: openai.cached },
        completion_tokens_details: { reasoning_tokens: reasoning },
      },
    }),
    "data: [DONE]\n\n",
  );
  return sse(events);
}

/** vendor-c: Gemini `streamGenerateContent?alt=sse`. */
export function geminiStep(step: StepScript, url: URL, usage: StepUsage): Response {
  const u = usage.gemini as { promptTokenCount: number; candidatesTokenCount: number };
  const modelVersion = url.pathname.split("/").pop()?.split(":")[0];
  const chunks: Record<string, unknown>[][] = [];
  const calls = step.calls ?? [];
  if (step.thinking !== undefined) {
    chunks.push([{ text: step.thinking.text, thought: true }]);
  }
  if (step.text !== undefined) chunks.push(words(step.text).map((text) => ({ text })));
  if (calls.length > 0) {
    chunks.push(calls.map((call, i) => ({
      functionCall: { name: call.name, args: call.input },
      // The signature rides on the first call of the step (without thinking, on none).
      ...(i === 0 && step.thinking !== undefined
        ? { thoughtSignature: step.thinking.signature }
        : {}),
    })));
  } else if (step.thinking !== undefined) {
    // Without calls the signature comes on the answer's last part.
    chunks.push([{ text: "", thoughtSignature: step.thinking.signature }]);
  }
  const body = chunks.map((parts, i) => {
    const last = i === chunks.length - 1;
    return `data: ${
      JSON.stringify({
        candidates: [{
          content: { parts, role: "model" },
          ...(last
            ? { finishReason: step.stop !== undefined ? STOPS.gemini[step.stop] : "STOP" }
            : {}),
          index: 0,
        }],
        ...(last
          ? {
            usageMetadata: {
              ...u,
              totalTokenCount: u.promptTokenCount + u.candidatesTokenCount,
              ...(step.thinking !== undefined ? { thoughtsTokenCount: 7 } : {}),
            },
          }
          : {}),
        modelVersion,
      })
    }\r\n\r\n`;
  });
  return sse(body);
}

/** vendor-d: Bedrock ConverseStream, as a binary event stream. */
export function bedrockStep(step: StepScript, usage: StepUsage): Response {
  const u = usage.bedrock as Record<string, number>;
  const frames = [converseEvent("messageStart", { role: "assistant" })];
  let index = 0;
  if (step.thinking !== undefined) {
    for (const text of words(step.thinking.text)) {
      frames.push(converseEvent("contentBlockDelta", {
        contentBlockIndex: index,
        delta: { reasoningContent: { text } },
      }));
    }
    frames.push(
      converseEvent("contentBlockDelta", {
        contentBlockIndex: index,
        delta: { reasoningContent: { signature: step.thinking.signature } },
      }),
      converseEvent("contentBlockStop", { contentBlockIndex: index }),
    );
    index++;
  }
  if (step.text !== undefined) {
    for (const text of words(step.text)) {
      frames.push(
        converseEvent("contentBlockDelta", { contentBlockIndex: index, delta: { text } }),
      );
    }
    frames.push(converseEvent("contentBlockStop", { contentBlockIndex: index }));
    index++;
  }
  for (const call of step.calls ?? []) {
    frames.push(converseEvent("contentBlockStart", {
      contentBlockIndex: index,
      start: { toolUse: { toolUseId: call.id, name: call.name } },
    }));
    for (const input of inputPieces(call.input)) {
      frames.push(converseEvent("contentBlockDelta", {
        contentBlockIndex: index,
        delta: { toolUse: { input } },
      }));
    }
    frames.push(converseEvent("contentBlockStop", { contentBlockIndex: index }));
    index++;
  }
  const stopReason = step.stop !== undefined
    ? STOPS.bedrock[step.stop]
    : (step.calls ?? []).length > 0
    ? "tool_use"
    : "end_turn";
  frames.push(
    converseEvent("messageStop", { stopReason }),
    converseEvent("metadata", {
      usage: {
        ...u,
        totalTokens: u.inputTokens! + u.cacheReadInputTokens! + u.cacheWriteInputTokens! +
          u.outputTokens!,
      },
      metrics: { latencyMs: 10 },
    }),
  );
  const bytes = new Uint8Array(frames.reduce((s, f) => s + f.length, 0));
  let offset = 0;
  for (const frame of frames) {
    bytes.set(frame, offset);
    offset += frame.length;
  }
  return new Response(bytes, { headers: { "content-type": "application/vnd.amazon.eventstream" } });
}
