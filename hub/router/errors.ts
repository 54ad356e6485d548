/**
 * Errors that end a turn with one sentence for the user (never a stack trace).
 *
 * @module
 */

/** A turn ended before or during the model call; `sentence` is what the user reads. */
export class TurnEndedError extends Error {
  override name = "TurnEndedError";
  /** The sentence every channel shows, in the user's language. */
  readonly sentence: string;

  constructor(sentence: string, options?: ErrorOptions) {
    super(sentence, options);
    this.sentence = sentence;
  }
}

/** The role's budget (and any stand-in's) is spent; no call was made. */
export class BudgetSpentError extends TurnEndedError {
  override name = "BudgetSpentError";
}

/** A call would have passed its session's ceiling (a job's per-run cap); no call was made. */
export class CeilingError extends TurnEndedError {
  override name = "CeilingError";
}

/** The provider refused the call (missing model, bad key, throttling, an unreachable model without a stand-in). */
export class ModelCallError extends TurnEndedError {
  override name = "ModelCallError";
}

/** Where an unreachable model was: the role, its provider and model, and why. */
export interface UnreachableInfo {
  role: string;
  provider: string;
  model: string;
  reason: string;
}

/** The role's model (and any failover stand-in's) could not be reached. */
export class UnreachableError extends ModelCallError {
  override name = "UnreachableError";
  /** The last model tried: the deepest stand-in when failover chained. */
  readonly last: UnreachableInfo;

  constructor(sentence: string, last: UnreachableInfo, options?: ErrorOptions) {
    super(sentence, options);
    this.last = last;
  }
}

/**
 * A provider's stream ended without its finish event. `answered` says whether any of
 * the answer had arrived (cut short) or none had (not the provider's format at all).
 */
export class StreamCutError extends Error {
  override name = "StreamCutError";
  /** Whether part of an answer arrived before the stream stopped. */
  readonly answered: boolean;

  constructor(answered: boolean) {
    super(
      answered
        ? "the answer stopped before its end"
        : "the stream ended without a finish event and without an answer",
    );
    this.answered = answered;
  }
}
