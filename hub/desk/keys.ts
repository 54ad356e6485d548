/**
 * Which conversation is which: a conversation on the desk is keyed by its channel and
 * its peer: `chat` and `tui` (one per process), `messenger:<chat id>`, `web:<session>`,
 * `email:<thread root Message-ID>`, `job:<name>` (a scheduled job; each run gets a
 * session of its own).
 * Keyed conversations with a peer are remembered across restarts (their session and
 * role); `chat` and `tui` pick their session from the command line each time.
 *
 * @module
 */
import type { Channel } from "../ledger/mod.ts";

/** Where a conversation happens. */
export type DeskChannel = "chat" | "tui" | "messenger" | "web" | "job" | "email";

/** A conversation's key. */
export type ConversationKey =
  | "chat"
  | "tui"
  | `messenger:${string}`
  | `web:${string}`
  | `email:${string}`
  | `job:${string}`;

/**
 * Who a conversation is with: the owner, or another person the owner lets the agent
 * talk to (`person:<id>`, an e-mail address): no tier-2 tools, their spend under their
 * name.
 */
export type ConversationPerson = "owner" | `person:${string}`;

/**
 * The channel of `key`.
 *
 * @example
 * ```ts
 * import { channelOf } from "./keys.ts";
 * if (channelOf("messenger:42") !== "messenger") throw new Error();
 * ```
 */
export function channelOf(key: ConversationKey): DeskChannel {
  return key.split(":", 1)[0] as DeskChannel;
}

/** Whether `key` has a peer and so is remembered across restarts. */
export function isRemembered(key: ConversationKey): boolean {
  return key.includes(":") && !key.startsWith("job:");
}

/** The ledger channel of a desk channel. */
export function ledgerChannel(channel: DeskChannel): Channel {
  return channel;
}

/** The prefix of new session ids in `channel` (the TUI's sessions are chat sessions). */
export function sessionKind(channel: DeskChannel): string {
  return channel === "tui" ? "chat" : channel;
}
