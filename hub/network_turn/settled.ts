/**
 * When a conversation between two agents ends by itself: with `[net] answer_replies =
 * "questions"` (the default) a reply (hops above 0, an answer to something this agent
 * sent) is answered only when it asks something, and never past hop 3. One owner's
 * send between two default agents is then at most 2 envelopes when the answers ask
 * nothing, and at most 4 when every answer asks something; the model is not called.
 *
 * @module
 */

/** The last hops value a reply is answered at: its answer has hops 3 (the 4th envelope). */
export const LAST_ANSWERED_HOP = 2;

/** Question marks of the scripts people write in (Latin, full-width, Arabic, Greek). */
const QUESTION = /[?\uFF1F\u061F\u037E]/;

/**
 * Whether a message asks something: a question mark anywhere in it.
 *
 * @example
 * ```ts
 * import { asksSomething } from "./settled.ts";
 * if (!asksSomething("Do you play chess?") || asksSomething("Thanks, noted.")) throw new Error();
 * ```
 */
export function asksSomething(text: string): boolean {
  return QUESTION.test(text);
}

/**
 * Whether a message with `hops` and `text` gets no answer under `answer_replies =
 * "questions"`: a first message (hops 0) is always answered; a reply only when it asks
 * something and its answer stays within hop 3.
 *
 * @example
 * ```ts
 * import { endsHere } from "./settled.ts";
 * if (endsHere(0, "Hello.") || !endsHere(1, "Okay.") || endsHere(1, "And you?")) {
 *   throw new Error();
 * }
 * if (!endsHere(3, "And you?")) throw new Error("hop 3 is the last envelope");
 * ```
 */
export function endsHere(hops: number, text: string): boolean {
  if (hops === 0) return false;
  return hops > LAST_ANSWERED_HOP || !asksSomething(text);
}
