/**
 * A stored session as the web chat shows it when it is opened again: each question,
 * the tool steps its answer took (a refused tier-2 call with the reason, as it was said
 * live), the answer, and under each answer what it cost (model, tokens, dollars, from
 * the ledger rows between its question and the next), so a reopened conversation reads
 * as it did while it ran.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { deskSentence } from "../desk/mod.ts";
import type { StoredMessage } from "../sessions/message.ts";
import type { TurnUsage } from "../spend/chart.ts";
import { t } from "./_messages.ts";

/** One entry of a reopened transcript. */
export type TranscriptEntry =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; usage?: TurnUsage[] }
  | { role: "tool"; text: string; ran: boolean };

/** Options for {@linkcode transcriptEntries}. */
export interface TranscriptOptions {
  lang: Lang;
  /** The ledger's calls between two moments (ms), by model. */
  usage?: (sinceMs: number, untilMs: number) => TurnUsage[];
}

/**
 * The entries of `stored`, oldest first; the last answer of each turn carries its usage.
 *
 * @example
 * ```ts
 * import { transcriptEntries } from "./transcript.ts";
 * const at = (m: number) => new Date(m).toISOString();
 * const question = { role: "user" as const, content: "hi" };
 * const answer = { role: "assistant" as const, content: [{ type: "text" as const, text: "Hello." }] };
 * const cost = { model_id: "m", calls: 1, input_tokens: 3, output_tokens: 2, usd: 0.01, estimated_calls: 0 };
 * const entries = transcriptEntries([
 *   { version: 2, message_id: 1, created_at: at(1000), message: question },
 *   { version: 2, message_id: 2, created_at: at(2000), message: answer },
 * ], { lang: "en", usage: () => [cost] });
 * if (entries[1]?.role !== "assistant" || entries[1].usage?.[0]?.usd !== 0.01) throw new Error();
 * ```
 */
export function transcriptEntries(
  stored: readonly StoredMessage[],
  options: TranscriptOptions,
): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  // Each turn's span: from its question to the next question (the last one: open ended).
  const starts = stored.filter((s) => s.message.role === "user").map((s) =>
    Date.parse(s.created_at)
  );
  let turn = -1;
  let lastAnswer: Extract<TranscriptEntry, { role: "assistant" }> | undefined;
  const closeTurn = () => {
    if (lastAnswer !== undefined && options.usage !== undefined && turn >= 0) {
      const usage = options.usage(starts[turn]!, starts[turn + 1] ?? Number.MAX_SAFE_INTEGER);
      if (usage.length > 0) lastAnswer.usage = usage;
    }
    lastAnswer = undefined;
  };
  for (const { message } of stored) {
    if (message.role === "user") {
      closeTurn();
      turn++;
      if (message.content.trim() !== "") {
        entries.push({ role: "user", text: message.content.trim() });
      }
    } else if (message.role === "assistant") {
      const text = message.content.map((p) => p.type === "text" ? p.text : "").join("").trim();
      if (text !== "") {
        lastAnswer = { role: "assistant", text };
        entries.push(lastAnswer);
      }
    } else {
      for (const part of message.content) {
        entries.push(
          part.notRun === undefined
            ? {
              role: "tool",
              ran: true,
              text: t(options.lang, "tool_ran", { tool: part.toolName }),
            }
            : {
              role: "tool",
              ran: false,
              text: deskSentence(options.lang, "refused", {
                tool: part.toolName,
                reason: deskSentence(options.lang, `refused_${part.notRun}`),
              }),
            },
        );
      }
    }
  }
  closeTurn();
  return entries;
}
