/**
 * The `fake` provider: a scripted language model for tests and for trying the agent
 * without a key. It answers `Okay.` or the role's `params.replies` in turn, streams
 * word by word (`params.word_ms` apart, 0 by default) and reports `params.usage` (input
 * and output tokens per call; zero by default), so a priced fake role spends.
 *
 * A reply written `/tool <name> <json>` makes the model call that tool with that
 * input instead of answering; the reply after it answers once the tool has run.
 *
 * @module
 */
import { setImmediate } from "node:timers";
import type { CallOptions, LanguageModelV4, StreamPart } from "./target.ts";
import { pause } from "../backoff.ts";

const DEFAULT_REPLY = "Okay.";
/** How many parts the stream hands over between turns of the event loop. */
const YIELD_EVERY = 64;

const TOOL_REPLY = /^\/tool\s+([A-Za-z0-9_-]+)\s*([\s\S]*)$/;

type GenerateResult = Awaited<ReturnType<LanguageModelV4["doGenerate"]>>;
type Content = GenerateResult["content"][number];

/** A language model that answers from a script; no network, no cost. */
export class FakeLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4" as const;
  readonly provider = "fake";
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  #replies: string[];
  #next = 0;
  #calls: CallOptions[] = [];
  #wordMs: number;
  #usage: { input: number; output: number };

  /**
   * A fake model answering `replies` in turn, then `Okay.`, `wordMs` between words,
   * reporting `usage` tokens for every call.
   */
  constructor(
    modelId: string,
    replies: readonly string[] = [],
    options: { wordMs?: number; usage?: { input?: number; output?: number } } = {},
  ) {
    this.modelId = modelId;
    this.#replies = [...replies];
    this.#wordMs = options.wordMs ?? 0;
    this.#usage = { input: options.usage?.input ?? 0, output: options.usage?.output ?? 0 };
  }

  /** The options of every call so far, oldest first (for tests). */
  get calls(): readonly CallOptions[] {
    return this.#calls;
  }

  /** Answers without streaming. */
  doGenerate(options: CallOptions): Promise<GenerateResult> {
    this.#calls.push(options);
    const content = this.#content(this.#take(options));
    return Promise.resolve({
      content,
      finishReason: finishReason(content),
      usage: usageOf(this.#usage),
      warnings: [],
      response: { id: crypto.randomUUID(), modelId: this.modelId, timestamp: new Date() },
    });
  }

  /** Answers as a stream: the text word by word, or one tool call. */
  doStream(options: CallOptions): Promise<{ stream: ReadableStream<StreamPart> }> {
    this.#calls.push(options);
    const content = this.#content(this.#take(options));
    const parts: StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "response-metadata", id: crypto.randomUUID(), modelId: this.modelId },
    ];
    for (const item of content) {
      if (item.type === "text") {
        parts.push({ type: "text-start", id: "t0" });
        for (const piece of item.text.match(/\S+\s*|\s+/g) ?? []) {
          parts.push({ type: "text-delta", id: "t0", delta: piece });
        }
        parts.push({ type: "text-end", id: "t0" });
      } else parts.push(item as StreamPart);
    }
    parts.push({
      type: "finish",
      usage: usageOf(this.#usage),
      finishReason: finishReason(content),
    });
    const signal = options.abortSignal;
    const wordMs = this.#wordMs;
    let next = 0;
    const stream = new ReadableStream<StreamPart>({
      async pull(controller) {
        if (wordMs > 0 && parts[next]?.type === "text-delta") await pause(wordMs, signal);
        // A stream's pulls chain as microtasks: without a turn of the event loop now and
        // then, a long answer holds off keys (Ctrl-C), signals and timers until it ends.
        // setImmediate, not setTimeout: nested timers are held to 4 ms each, which made a
        // 20,000-word answer wait over a second on its own stand-in for a provider.
        else if ((next + 1) % YIELD_EVERY === 0) await new Promise((r) => setImmediate(r));
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        // An index, not shift(): shifting a 20,000-part answer is quadratic.
        const part = parts[next++];
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    });
    return Promise.resolve({ stream });
  }

  #take(options: CallOptions): string {
    // A step that follows a tool result continues the same script.
    void options;
    const reply = this.#replies[this.#next];
    if (reply === undefined) return DEFAULT_REPLY;
    this.#next++;
    return reply;
  }

  #content(reply: string): Content[] {
    const tool = TOOL_REPLY.exec(reply.trim());
    if (tool === null) return [{ type: "text", text: reply }];
    const input = tool[2]?.trim() || "{}";
    return [{
      type: "tool-call",
      toolCallId: `call_${crypto.randomUUID().slice(0, 8)}`,
      toolName: tool[1] ?? "",
      input,
    }];
  }
}

function finishReason(content: Content[]): GenerateResult["finishReason"] {
  const tools = content.some((c) => c.type === "tool-call");
  return tools ? { unified: "tool-calls", raw: "tool_use" } : { unified: "stop", raw: "stop" };
}

function usageOf(usage: { input: number; output: number }): GenerateResult["usage"] {
  return {
    inputTokens: { total: usage.input, noCache: usage.input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: usage.output, text: usage.output, reasoning: 0 },
  };
}
