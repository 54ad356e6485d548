/**
 * The defaults `agent.toml` falls back to, as plain data so that a command can read
 * them without loading the TOML parser or the schema.
 *
 * @module
 */
import type { MemoryConfig, NetConfig } from "./types.ts";

/** The defaults of `[net]`. */
export const NET_DEFAULTS: Readonly<NetConfig> = {
  auto_reply: true,
  max_hops: 6,
  answer_replies: "questions",
  max_auto_replies_per_hour: 20,
  public_note: "net.md",
  store: "file",
  link: "auto",
  poll_timeout_seconds: 25,
  universe: "",
  universe_links: true,
  universe_report_minutes: 60,
  digest: "batched",
};

/** The defaults of `[memory]`. */
export const MEMORY_DEFAULTS: Readonly<MemoryConfig> = {
  enabled: true,
  recall_tokens: 600,
  pinned_tokens: 400,
  extract: "ask",
  quiet_minutes: 10,
};

/** The default `[hub] port` of the loopback control API. */
export const DEFAULT_HUB_PORT = 8790;

/** A budget's `warn_at` when `agent.toml` gives none: warn once at 80% of the cap. */
export const DEFAULT_WARN_AT = 0.8;

/**
 * A role's `context_tokens` when `agent.toml` gives none: what a turn sends of the
 * conversation at most. Small enough that a long chat costs about the same per message
 * in its tenth week as in its first, and inside every shipped model's window; a local
 * model server's window is smaller.
 */
export function defaultContextTokens(provider: string): number {
  return provider === "local-runtime" ? 8_000 : 32_000;
}

/** An MCP server's name: what `agent mcp add NAME` takes and its tools are prefixed with. */
export const SERVER_NAME: RegExp = /^[a-z][a-z0-9_-]{0,31}$/;
