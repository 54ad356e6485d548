/**
 * Keyed turns: a network turn stores its exchange under the envelope's id, so a hub
 * that handles the envelope again after a crash finds what it stored instead of
 * storing the exchange twice (issue 27 S3).
 *
 * @module
 */
import type { TurnMark } from "../sessions/mod.ts";

export type { TurnMark };

/** The messages a keyed turn already stored, and its answer when all of them are there. */
export function storedTurn<M extends { turn?: TurnMark }>(
  messages: readonly M[],
  key: string | undefined,
): { parts: M[]; answer: string | undefined } {
  if (key === undefined) return { parts: [], answer: undefined };
  const parts = messages.filter((m) => m.turn?.key === key);
  const last = parts.find((m) => m.turn!.part === m.turn!.of - 1);
  const complete = last !== undefined && typeof last.turn!.answer === "string" &&
    Array.from({ length: last.turn!.of }, (_, i) => i).every((i) =>
      parts.some((m) => m.turn!.part === i)
    );
  return { parts, answer: complete ? last.turn!.answer : undefined };
}
