/**
 * Which conversation is which: a conversation on the desk is keyed by its channel and
 * its peer: `chat` and `tui` (one per process), `messenger:<chat id>`, `web:<session>`,
 * `job:<name>` (a scheduled job; each run gets a session of its own).
 * Keyed conversations with a peer are remembered across restarts (their session and
 * role); `chat` and `tui` pick their session from the command line each time.
 *
 * @module
 */
import type { Channel } from "../ledger/mod.ts";

/** Where a conversation happens. */
export type DeskChannel = "chat" | "tui" | "messenger" | "web" | "job";

/** A conversation's key. */
export type ConversationKey =
  | "chat"
  | "tui"
  | `messenger:${string}`
  | `web:${string}`
  | `job:${string}`;

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
