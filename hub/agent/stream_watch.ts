/**
 * Watching a provider's stream on its way to the SDK's tool loop: the usage of its
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
 * `stream` with `onFinish` called with the usage of its finish event, and an error
 * part in place of a finish that says the provider stream just stopped.
 */
export function watchStream(
  stream: ReadableStream<StreamPart>,
  onFinish: (usage: FinishUsage) => void,
): ReadableStream<StreamPart> {
  let answered = false;
  return stream.pipeThrough(
    new TransformStream<StreamPart, StreamPart>({
      transform(part, controller) {
        if (part.type === "text-delta" || part.type === "tool-call") answered = true;
        if (part.type !== "finish") return controller.enqueue(part);
        // Tokens were billed either way.
        onFinish(part.usage);
        // A stream that just stops (no finish event from the provider) is not an
        // answer: a proxy's page, a wrong base_url, a connection closed mid-way.
        if (part.finishReason.unified !== "interrupted") return controller.enqueue(part);
        controller.enqueue({ type: "error", error: new StreamCutError(answered) });
      },
    }),
  );
}
