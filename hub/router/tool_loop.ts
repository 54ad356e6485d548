/**
 * A turn's tool loop: the model answers; the tools it called run and their results go
 * back to it; again, until it answers without calling a tool or the step limit is
 * reached. Text is handed on as it streams.
 *
 * The hub's own rather than the AI SDK's `streamText`: loading the `ai` package cost a
 * hub about 23 MiB resident (its gateway, telemetry and the helpers of features the hub
 * never uses) before the first message, and a turn needs only what is here. The
 * provider packages still speak each vendor's API; this calls them through the one
 * language model interface (`doStream`) they all implement.
 *
 * @module
 */
import type { AssistantContent, ModelMessage, ToolContent } from "ai";
import { errorMessage } from "@agent/net/common";
import type { LanguageModelV4, StreamPart } from "../models/mod.ts";
import type { ModelTool, ModelTools } from "../tools/mod.ts";
import { toolDefinitions, toPrompt } from "./model_prompt.ts";

/** One turn for {@linkcode runToolLoop}. */
export interface LoopRequest {
  model: LanguageModelV4;
  /** The system prompt, or its parts in order (each becomes a system message). */
  system?: string | readonly string[] | undefined;
  messages: readonly ModelMessage[];
  tools?: ModelTools | undefined;
  /** Model calls at most. */
  maxSteps: number;
  signal?: AbortSignal | undefined;
}

/** What a turn produces, in order: text, tool calls and results, then `done`. */
export type LoopEvent =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }
  | { type: "tool-result"; toolCallId: string; toolName: string; output: unknown }
  | { type: "done"; messages: ModelMessage[] };

type ToolOutput = Extract<ToolContent[number], { type: "tool-result" }>["output"];

/**
 * Runs a turn: streams each step's text, runs the tools called (each as its call
 * arrives), and ends with the turn's new messages (the assistant's and the tools'),
 * as a session stores them.
 *
 * Throws the first error a step's stream carried (after reading it to the end, so the
 * provider's usage still reaches the ledger), or the signal's reason once it aborts.
 */
export async function* runToolLoop(request: LoopRequest): AsyncGenerator<LoopEvent> {
  const { signal } = request;
  const tools = request.tools !== undefined && Object.keys(request.tools).length > 0
    ? request.tools
    : undefined;
  const definitions = tools === undefined ? undefined : toolDefinitions(tools);
  const produced: ModelMessage[] = [];
  for (let step = 1;; step++) {
    const { stream } = await request.model.doStream({
      prompt: toPrompt(request.system, [...request.messages, ...produced]),
      ...(definitions !== undefined ? { tools: definitions, toolChoice: { type: "auto" } } : {}),
      ...(signal !== undefined ? { abortSignal: signal } : {}),
    });
    const outcome = yield* readStep(stream, tools, signal);
    produced.push(...outcome.messages);
    if (outcome.calls === 0 || step >= request.maxSteps) break;
  }
  yield { type: "done", messages: produced };
}

/** A tool call of a step on its way: what the model asked and the run's outcome. */
interface Run {
  toolCallId: string;
  toolName: string;
  outcome: Promise<{ output: unknown } | { error: string }>;
}

/** Reads one step's stream; returns its messages and how many tools it called. */
async function* readStep(
  stream: ReadableStream<StreamPart>,
  tools: ModelTools | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<LoopEvent, { messages: ModelMessage[]; calls: number }> {
  const content: Exclude<AssistantContent, string> = [];
  // A text or reasoning part by its stream id, filled in place as its deltas arrive.
  const open = new Map<string, Extract<typeof content[number], { type: "text" | "reasoning" }>>();
  const runs: Run[] = [];
  let failure: { error: unknown } | undefined;
  const reader = stream.getReader();
  // A stream that does not heed the signal is let go of: the turn ends at the abort.
  const stop = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  let ended = false;
  try {
    while (!signal?.aborted) {
      const { done, value: part } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
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
          }
          break;
        }
        case "tool-call": {
          // Tools the provider runs itself are not offered, so none come back.
          if (part.providerExecuted) break;
          const parsed = await parseCall(part.toolName, part.input, tools);
          const input = "error" in parsed
            ? (typeof parsed.input === "object" && parsed.input !== null ? parsed.input : {})
            : parsed.input;
          content.push({
            type: "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input,
            ...(part.providerMetadata !== undefined
              ? { providerOptions: part.providerMetadata }
              : {}),
          });
          yield {
            type: "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: parsed.input,
          };
          runs.push({
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            outcome: "error" in parsed
              ? Promise.resolve({ error: parsed.error })
              : runTool(parsed.tool, input, part.toolCallId, signal),
          });
          break;
        }
        case "error":
          // Read on: the finish behind an error carries the usage the ledger needs.
          failure ??= { error: streamError(part.error) };
          break;
        default:
          break;
      }
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    // Left before its end (the caller stopped reading): the call is let go, and billed.
    if (!ended) stop();
    reader.releaseLock();
  }
  if (signal?.aborted) throw signal.reason;
  if (failure !== undefined) throw failure.error;

  const messages: ModelMessage[] = [];
  const said = content.filter((p) =>
    !(p.type === "text" || p.type === "reasoning") || p.text !== "" ||
    p.providerOptions !== undefined
  );
  if (said.length > 0) messages.push({ role: "assistant", content: said });
  if (runs.length > 0) {
    const results: ToolContent = [];
    for (const run of runs) {
      const outcome = await untilAborted(run.outcome, signal);
      if ("output" in outcome) {
        yield {
          type: "tool-result",
          toolCallId: run.toolCallId,
          toolName: run.toolName,
          output: outcome.output,
        };
      }
      results.push({
        type: "tool-result",
        toolCallId: run.toolCallId,
        toolName: run.toolName,
        output: modelOutput(outcome),
      });
    }
    messages.push({ role: "tool", content: results });
  }
  return { messages, calls: runs.length };
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

/** The model's input for a tool, parsed and checked against the tool's schema. */
async function parseCall(
  name: string,
  text: string,
  tools: ModelTools | undefined,
): Promise<{ tool: ModelTool; input: unknown } | { input: unknown; error: string }> {
  let input: unknown = text;
  try {
    input = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    return { input, error: `The input for ${name} is not JSON: ${errorMessage(error)}` };
  }
  const tool = tools !== undefined && Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (tool === undefined) {
    const names = Object.keys(tools ?? {}).join(", ") || "none";
    return { input, error: `There is no tool named ${name}; the tools are: ${names}.` };
  }
  const checked = await tool.inputSchema.safeParseAsync(input);
  if (checked.success) return { tool, input: checked.data };
  const issues = checked.error.issues.map((i) =>
    `${i.path.length > 0 ? i.path.join(".") : "input"}: ${i.message}`
  );
  return { input, error: `The input for ${name} does not fit: ${issues.join("; ")}` };
}

/** Runs a tool; what it throws becomes the model's error text, never the turn's end. */
async function runTool(
  tool: ModelTool,
  input: unknown,
  toolCallId: string,
  signal: AbortSignal | undefined,
): Promise<{ output: unknown } | { error: string }> {
  try {
    return {
      output: await tool.execute(input, {
        toolCallId,
        ...(signal !== undefined ? { abortSignal: signal } : {}),
      }),
    };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

/** `promise`, or the signal's reason thrown once it aborts (a prompt left unanswered). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A tool's outcome as the model reads it: text as text, the rest as JSON. */
function modelOutput(outcome: { output: unknown } | { error: string }): ToolOutput {
  if ("error" in outcome) return { type: "error-text", value: outcome.error };
  const { output } = outcome;
  if (typeof output === "string") return { type: "text", value: output };
  const json = output === undefined ? undefined : JSON.stringify(output);
  return { type: "json", value: json === undefined ? null : JSON.parse(json) };
}
