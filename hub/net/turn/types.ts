/**
 * The shapes a network turn reads: the network log entry (the spec's `{ts, direction,
 * address, kind, id, thread, text}` plus `own_sub` or `peer_sub`).
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
