/**
 * What the network service and a network turn agree on: the network log entry (the
 * spec's `{ts, direction, address, kind, id, thread, text}` plus `own_sub` or
 * `peer_sub`), the message a turn answers, its outcome, and {@linkcode TurnAnswerer},
 * the one function the service is given to answer with (the agent behind it lives in
 * `hub/network_turn/`, a layer above).
 *
 * @module
 */

/** One network log entry. */
export interface NetLogEntry {
  /** Unix seconds (or epoch ms; turns only use the order). */
  ts: number;
  direction: "in" | "out";
  /** The other agent's address. */
  address: string;
  kind: "contact_request" | "contact_accept" | "message" | string;
  /** The envelope id. */
  id: string;
  thread: string;
  text: string;
  /** One of this agent's sub-agents received or wrote the message. */
  own_sub?: string | undefined;
  /** One of the other agent's sub-agents wrote or received the message. */
  peer_sub?: string | undefined;
}

/** One incoming message to answer. */
export interface TurnInput {
  /** This agent's address (the message's `to`). */
  ownAddress: string;
  /** The accepted contact that wrote it. */
  contact: { address: string; name: string };
  /** The incoming envelope's header fields. */
  envelope: { id: string; thread: string; hops: number; from: string };
  /** The message text. */
  text: string;
  /** The plaintext's `sub`, when it names a sub-agent. */
  sub?: string | undefined;
  /** This contact's network log, oldest first (the message itself may be in it). */
  history: readonly NetLogEntry[];
  /**
   * The session to run the turn in: an id, or a function from the session's state key
   * (`<address>` for the main agent, `<address>/<sub>` for a sub-agent; see
   * {@linkcode sessionKey}) to an id, called only when the model will run.
   */
  sessionId: string | ((key: string) => string | Promise<string>);
}

/** Why no reply is sent. */
export type SkipReason =
  | "no_reply"
  | "empty"
  | "max_hops"
  /** A reply that asks nothing (or past hop 3) under `answer_replies = "questions"`. */
  | "settled"
  | "rate_limited"
  | "no_public_sub"
  | "auto_reply_off";

/** The outcome of a network turn. */
export type TurnOutcome =
  | {
    kind: "reply";
    /** The reply text (at most 8 000 characters). */
    text: string;
    /** The reply's `sub` (the same as the incoming message's). */
    sub?: string;
    /** The reply's envelope id, the same every time this envelope is handled. */
    replyId: string;
    thread: string;
    /** The incoming envelope's id. */
    reply_to: string;
    /** The incoming hops + 1. */
    hops: number;
    /** For the reply's log entry: this agent's sub-agent wrote it. */
    own_sub?: string;
    /** For the reply's log entry: it answers the other agent's sub-agent. */
    peer_sub?: string;
  }
  | {
    kind: "skip";
    reason: SkipReason;
    /** With `no_public_sub`: the sub-agent name, for `no public sub-agent /<name>`. */
    sub?: string;
  };

/** What the service tells an answerer about the contact's recent replies. */
export interface TurnContext {
  /** Auto-replies already sent to `address` in the last hour (main and sub-agents). */
  autoRepliesLastHour(address: string): number | Promise<number>;
}

/**
 * Answers one message from an accepted contact: a reply, or why there is none. Errors
 * of the model call are thrown for the service to log.
 */
export type TurnAnswerer = (input: TurnInput, context: TurnContext) => Promise<TurnOutcome>;

/**
 * Whom a message with `sub` concerns, by the parity of `hops`: even means this agent's
 * sub-agent is addressed (`own_sub`), odd means the other agent's sub-agent wrote it
 * (`peer_sub`). The keys are those of the network log entry.
 *
 * @example
 * ```ts
 * import { subRole } from "./turn_types.ts";
 * if (subRole(0, "chess").own_sub !== "chess" || subRole(1, "chess").peer_sub !== "chess") {
 *   throw new Error();
 * }
 * ```
 */
export function subRole(
  hops: number,
  sub: string | undefined,
): { own_sub?: string; peer_sub?: string } {
  if (sub === undefined || sub === null) return {};
  return hops % 2 === 0 ? { own_sub: sub } : { peer_sub: sub };
}

/** The text of the log line for a skipped sub-agent message: `no public sub-agent /<name>`. */
export function noPublicSubLine(sub: string): string {
  return `no public sub-agent /${sub}`;
}
