/**
 * Watching a provider's stream on its way to the turn's tool loop: the usage of its
 * finish event goes to the ledger, and a stream that stops without one becomes an
 * error instead of an empty or half answer passed off as complete.
 *
 * @module
 */
import type { StreamPart } from "../models/mod.ts";
import { StreamCutError } from "./errors.ts";

/** The usage a provider's finish event carries. */
export type FinishUsage = Extract<StreamPart, { type: "finish" }>["usage"];

/**
 * `stream` with `onFinish` called with the usage of its finish event (`complete` false
 * for the usage a vendor reported before the stream broke), `onText` with the length of
 * each text delta (for an estimate when the call is cancelled), `onEnd` once the stream
 * is over however it ended (finished, broken, cancelled), and an error part in place of
 * a finish that says the provider stream just stopped.
 */
export function watchStream(
  stream: ReadableStream<StreamPart>,
  onFinish: (usage: FinishUsage, complete: boolean) => void,
  onText?: (chars: number) => void,
  onEnd?: () => void,
): ReadableStream<StreamPart> {
  let answered = false;
  // A provider's error mid-way is held back until its finish event, so whoever reads
  // only up to an error still lets through the finish behind it: its usage (billed
  // either way) is what the ledger must get.
  let failed: StreamPart | undefined;
  let finished = false;
  // What the vendor reported before any finish (vendor-a's message_start), in case the
  // stream fails before its finish event.
  let reported: FinishUsage | undefined;
  return stream.pipeThrough(
    new TransformStream<StreamPart, StreamPart>({
      transform(part, controller) {
        if (part.type === "raw") {
          reported = reportedUsage(part.rawValue) ?? reported;
          return;
        }
        if (part.type === "text-delta" || part.type === "tool-call") answered = true;
        if (part.type === "text-delta") onText?.(part.delta.length);
        if (part.type === "error" && failed === undefined) {
          failed = part;
          return;
        }
        if (part.type !== "finish") return controller.enqueue(part);
        // Tokens were billed either way.
        finished = true;
        onFinish(part.usage, true);
        if (failed !== undefined) {
          controller.enqueue(failed);
          failed = undefined;
          return controller.enqueue(part);
        }
        // A stream that just stops (no finish event from the provider) is not an
        // answer: a proxy's page, a wrong base_url, a connection closed mid-way.
        if (part.finishReason.unified !== "interrupted") return controller.enqueue(part);
        controller.enqueue({ type: "error", error: new StreamCutError(answered) });
      },
      flush(controller) {
        if (!finished && reported !== undefined) onFinish(reported, false);
        if (failed !== undefined) controller.enqueue(failed);
        // No finish event at all (a proxy's page read as an empty stream): not an answer.
        else if (!finished) {
          controller.enqueue({ type: "error", error: new StreamCutError(answered) });
        }
        onEnd?.();
      },
      // The connection was lost (the provider's stream errored) or the reader gave up:
      // the call still ends, and its row is written from what came so far.
      cancel() {
        if (!finished && reported !== undefined) onFinish(reported, false);
        onEnd?.();
      },
    } as Transformer<StreamPart, StreamPart>),
  );
}

/**
 * The usage in a raw provider chunk that reports it before the finish: vendor-a's
 * `message_start` (input and cache counts, and the output so far).
 */
export function reportedUsage(raw: unknown): FinishUsage | undefined {
  const chunk = raw as { type?: unknown; message?: { usage?: Record<string, unknown> } };
  if (chunk?.type !== "message_start") return undefined;
  const usage = chunk.message?.usage;
  if (usage === undefined) return undefined;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  const noCache = n(usage.input_tokens);
  const cacheRead = n(usage.cache_read_input_tokens);
  const cacheWrite = n(usage.cache_creation_input_tokens);
  const output = n(usage.output_tokens);
  return {
    inputTokens: { total: noCache + cacheRead + cacheWrite, noCache, cacheRead, cacheWrite },
    outputTokens: { total: output, text: output, reasoning: undefined },
    // Kept for the 1-hour cache writes (`cache_creation`), which only the raw usage has.
    raw: usage,
  } as FinishUsage;
}
