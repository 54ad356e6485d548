/**
 * A turn's tool loop: the model answers; the tools it called run and their results go
 * back to it; again, until it answers without calling a tool or the step limit is
 * reached. Text is handed on as it streams, and what happened is handed on as it
 * happens: each step's assistant message when its stream ends, then each tool result
 * as it comes (`step` events), so a cancel or a crash after a tool ran keeps the call
 * and its result. A step cut by a cancel keeps what was complete, and its calls still
 * open get a result that says they were cut.
 *
 * The hub's own rather than the AI SDK's `streamText`: the `ai` package (its gateway,
 * telemetry and the helpers of features the hub never uses) cost a running hub about
 * 12 MiB resident by `docs/performance.md`'s soak runs before and after, and a turn
 * needs only what is here. The provider packages still speak each
 * vendor's API; this calls them through the one language model interface (`doStream`)
 * they all implement.
 *
 * @module
 */
import type {
  AssistantPart,
  ReasoningPart,
  RefusalReason,
  SessionMessage,
  TextPart,
} from "../sessions/mod.ts";
import type { LanguageModelV4, StreamPart } from "../models/mod.ts";
import type { ModelTools } from "../tools/mod.ts";
import { toolDefinitions, toPrompt } from "./model_prompt.ts";
import { type LoopApproval, StepCalls } from "./tool_calls.ts";

export type { LoopApproval, LoopToolCall } from "./tool_calls.ts";

/** One turn for {@linkcode runToolLoop}. */
export interface LoopRequest {
  model: LanguageModelV4;
  /** The system prompt, or its parts in order (each becomes a system message). */
  system?: string | readonly string[] | undefined;
  messages: readonly SessionMessage[];
  tools?: ModelTools | undefined;
  /** Model calls at most. */
  maxSteps: number;
  signal?: AbortSignal | undefined;
  /**
   * Asked before each call of a tool that needs approval, one call at a time in call
   * order. Without it such a call is refused (`no_one_to_ask`).
   */
  approve?: LoopApproval | undefined;
}

/**
 * Why an answer stopped short: the step limit came while the model still called tools,
 * or the last step ended at the output limit (`length`) or at the provider's filter.
 */
export type LoopCut = "steps" | "length" | "content-filter";

/** What a turn produces, in order: text, tool calls and results, steps, then `done`. */
export type LoopEvent =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }
  | { type: "tool-result"; toolCallId: string; toolName: string; output: unknown }
  /** A call that ran and failed (it threw, or a cancel cut it while it ran). */
  | { type: "tool-error"; toolCallId: string; toolName: string; error: string }
  /** A tier-2 call that did not run (refused by the hook, or cut before it ran). */
  | { type: "tool-refused"; toolCallId: string; toolName: string; reason: RefusalReason }
  /** Messages the turn completed, to be stored now: the assistant's, then each result. */
  | { type: "step"; messages: SessionMessage[] }
  | { type: "done"; messages: SessionMessage[]; cut?: LoopCut };

/**
 * Runs a turn: streams each step's text, runs the tools called (each as its call
 * arrives, at most four at a time), hands on each completed message as a `step`, and
 * ends with the turn's new messages (the assistant's and the tools') and why it was
 * cut, if it was.
 *
 * Throws the first error a step's stream carried (after reading it to the end, so the
 * provider's usage still reaches the ledger, and after handing on what was complete),
 * or the signal's reason once it aborts.
 */
export async function* runToolLoop(request: LoopRequest): AsyncGenerator<LoopEvent> {
  const { signal } = request;
  const tools = request.tools !== undefined && Object.keys(request.tools).length > 0
    ? request.tools
    : undefined;
  const produced: SessionMessage[] = [];
  let cut: LoopCut | undefined;
  for (let step = 1;; step++) {
    // Read before every step: `find_tools` may have added definitions to the set.
    const definitions = tools === undefined ? undefined : toolDefinitions(tools);
    const { stream } = await request.model.doStream({
      prompt: toPrompt(request.system, [...request.messages, ...produced]),
      ...(definitions !== undefined ? { tools: definitions, toolChoice: { type: "auto" } } : {}),
      ...(signal !== undefined ? { abortSignal: signal } : {}),
    });
    const outcome = yield* readStep(stream, { tools, signal, approve: request.approve });
    produced.push(...outcome.messages);
    if (outcome.calls === 0) {
      if (outcome.finish === "length" || outcome.finish === "content-filter") cut = outcome.finish;
      break;
    }
    if (step >= request.maxSteps) {
      cut = "steps";
      break;
    }
  }
  yield { type: "done", messages: produced, ...(cut === undefined ? {} : { cut }) };
}

interface StepOptions {
  tools: ModelTools | undefined;
  signal: AbortSignal | undefined;
  approve: LoopApproval | undefined;
}

interface StepOutcome {
  messages: SessionMessage[];
  calls: number;
  /** The finish reason the provider gave. */
  finish: string | undefined;
}

/** Reads one step's stream, runs its calls; returns its messages and how many calls it made. */
async function* readStep(
  stream: ReadableStream<StreamPart>,
  options: StepOptions,
): AsyncGenerator<LoopEvent, StepOutcome> {
  const content: AssistantPart[] = [];
  // A text or reasoning part by its stream id, filled in place as its deltas arrive,
  // until its end event: the same id after that starts a new part (the OpenAI-compatible
  // provider names every text part `txt-0` and every reasoning part `reasoning-0`).
  const open = new Map<string, TextPart | ReasoningPart>();
  const complete = new Set<AssistantPart>();
  // The step ends at the turn's cancel, or when the approval hook throws.
  const step = new AbortController();
  const outer = options.signal;
  const onOuter = () => step.abort(outer!.reason);
  if (outer?.aborted) onOuter();
  outer?.addEventListener("abort", onOuter, { once: true });
  const calls = new StepCalls({
    tools: options.tools,
    approve: options.approve,
    signal: step.signal,
    fail: (reason) => step.abort(reason),
  });
  let failure: { error: unknown } | undefined;
  let finish: string | undefined;
  const reader = stream.getReader();
  // A stream that does not heed the signal is let go of: the turn ends at the abort.
  const stop = () => void reader.cancel(step.signal.reason).catch(() => {});
  step.signal.addEventListener("abort", stop, { once: true });
  let ended = false;
  try {
    while (!step.signal.aborted) {
      let read: ReadableStreamReadResult<StreamPart>;
      try {
        read = await reader.read();
      } catch (error) {
        if (!step.signal.aborted) failure ??= { error };
        break;
      }
      if (read.done) {
        ended = true;
        break;
      }
      const part = read.value;
      switch (part.type) {
        case "text-start":
        case "reasoning-start":
        case "text-delta":
        case "reasoning-delta":
        case "text-end":
        case "reasoning-end": {
          const kind = part.type.startsWith("text") ? "text" : "reasoning";
          const key = `${kind}:${part.id}`;
          let piece = open.get(key);
          if (piece === undefined) {
            piece = kind === "text" ? { type: "text", text: "" } : { type: "reasoning", text: "" };
            open.set(key, piece);
            content.push(piece);
          }
          if (part.providerMetadata !== undefined) {
            piece.providerOptions = { ...piece.providerOptions, ...part.providerMetadata };
          }
          if (part.type === "text-delta" || part.type === "reasoning-delta") {
            piece.text += part.delta;
            if (kind === "text" && part.delta.length > 0) yield { type: "text", text: part.delta };
          } else if (part.type === "text-end" || part.type === "reasoning-end") {
            open.delete(key);
            complete.add(piece);
          }
          break;
        }
        case "tool-call": {
          // Tools the provider runs itself are not offered, so none come back.
          if (part.providerExecuted) break;
          const call = await calls.add(part);
          const stored: AssistantPart = {
            type: "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: call.storedInput,
            ...(part.providerMetadata !== undefined
              ? { providerOptions: part.providerMetadata }
              : {}),
          };
          content.push(stored);
          complete.add(stored);
          yield {
            type: "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: call.input,
          };
          calls.start(call);
          break;
        }
        case "finish":
          finish = part.finishReason.unified;
          break;
        case "error":
          // Read on: the finish behind an error carries the usage the ledger needs.
          failure ??= { error: streamError(part.error) };
          break;
        default:
          break;
      }
    }
  } finally {
    step.signal.removeEventListener("abort", stop);
    // Left before its end (the caller stopped reading): the call is let go, and billed.
    if (!ended) stop();
    reader.releaseLock();
  }
  try {
    // A step cut short keeps only what was complete: a half-streamed reasoning part
    // has no signature, and a provider refuses it back.
    const whole = !step.signal.aborted && failure === undefined;
    const said = content.filter((p) =>
      (whole || complete.has(p)) &&
      (p.type === "tool-call" || p.text !== "" || p.providerOptions !== undefined)
    );
    const messages: SessionMessage[] = [];
    if (said.length > 0) {
      const assistant: SessionMessage = { role: "assistant", content: said };
      messages.push(assistant);
      yield { type: "step", messages: [assistant] };
    }
    // A broken stream starts no more calls; the ones running are waited for.
    if (failure !== undefined) calls.stopStarting();
    for await (const { call, outcome, part } of calls.results()) {
      if (outcome.kind === "output") {
        yield {
          type: "tool-result",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: outcome.output,
        };
      } else if (outcome.kind === "error") {
        yield {
          type: "tool-error",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          error: outcome.error,
        };
      } else if (outcome.kind === "refused") {
        yield {
          type: "tool-refused",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          reason: outcome.reason,
        };
      }
      const result: SessionMessage = { role: "tool", content: [part] };
      messages.push(result);
      yield { type: "step", messages: [result] };
    }
    if (step.signal.aborted) throw step.signal.reason;
    if (failure !== undefined) throw failure.error;
    return { messages, calls: calls.size, finish };
  } finally {
    outer?.removeEventListener("abort", onOuter);
  }
}

/**
 * A stream's error as an `Error`: vendors send theirs as data (vendor-a's
 * `{type: "overloaded_error", message: "Overloaded"}`), which would otherwise reach the
 * owner as "[object Object]". The vendor's words and status, where it gave one, are kept.
 */
export function streamError(error: unknown): unknown {
  if (error instanceof Error || typeof error !== "object" || error === null) return error;
  const outer = error as Record<string, unknown>;
  const inner = typeof outer.error === "object" && outer.error !== null
    ? outer.error as Record<string, unknown>
    : outer;
  const message = inner.message ?? outer.message;
  if (typeof message !== "string") return error;
  const status = [inner.status, outer.status, inner.statusCode, outer.statusCode, inner.code]
    .find((v) => typeof v === "number" && Number.isInteger(v) && v >= 400 && v <= 599);
  return Object.assign(new Error(message, { cause: error }), {
    name: "ProviderStreamError",
    ...(status !== undefined ? { statusCode: status } : {}),
  });
}
