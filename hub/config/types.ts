/**
 * The typed form of `agent.toml`, after validation and defaults. The loader
 * (`parse.ts`) produces these; every other module reads only these types.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { ProviderId } from "../credentials.ts";

/** Provider ids, as the spec names them. */
export type { ProviderId } from "../credentials.ts";

/** A budget period; calendar periods in Europe/Istanbul. */
export type Period = "day" | "week" | "month";

/** `budget` under a role. */
export interface BudgetConfig {
  /** Dollars per period; positive. */
  usd: number;
  period: Period;
  /** Another role that answers once this budget is spent, until the reset. */
  degrade_to?: string;
  /**
   * A hard cap: before each call its most possible cost is reserved in the ledger, and
   * a call that does not fit under the cap is not made (it degrades like a spent
   * budget), so concurrent calls never pass the cap. @default false
   */
  hard?: boolean;
  /**
   * The share of the cap at which the owner is warned once per period; 0 never.
   * @default 0.8 (`DEFAULT_WARN_AT`)
   */
  warn_at?: number;
}

/** `params` under a role (or a fallback). */
export interface RoleParams {
  base_url?: string;
  api_key_env?: string;
  reasoning_effort?: string;
  /** `fake` only: the replies, answered in turn (then `Okay.`). */
  replies?: string[];
  /** `fake` only: milliseconds between streamed words (to try cancelling, typing ahead). */
  word_ms?: number;
  /** `vendor-d` only: the region, instead of `VENDOR_D_REGION`. */
  region?: string;
  /**
   * `fake` only: the tokens each call reports (input, output), so a priced fake role
   * spends and budgets can be tried without a paid key. @default 0 and 0
   */
  usage?: { input?: number; output?: number };
}

/**
 * `cache` under a role; honoured by `vendor-a` and `vendor-d` (prompt caching).
 * The spec leaves the fields open; these are ours.
 */
export interface CacheConfig {
  /** Mark the system prompt (persona) as a cache prefix. @default true */
  system: boolean;
  /** Also mark the conversation so far as a cache prefix. @default true */
  messages: boolean;
  /** How long the provider keeps the prefix: `5m` or `1h`. @default "5m" */
  ttl: "5m" | "1h";
}

/** `fallback` under a role: used when the role's provider has no credentials. */
export interface FallbackConfig {
  provider: ProviderId;
  model_id: string;
  max_tokens?: number;
  params: RoleParams;
}

/** `[models.roles.<role>]` */
export interface RoleConfig {
  provider: ProviderId;
  model_id: string;
  max_tokens?: number;
  /**
   * The conversation history a turn sends at most, in estimated tokens; older turns
   * are folded into a summary. @default `defaultContextTokens(provider)`
   */
  context_tokens?: number;
  params: RoleParams;
  budget?: BudgetConfig;
  /** Name of another defined role, used when this role's model cannot be reached. */
  failover?: string;
  fallback?: FallbackConfig;
  cache?: CacheConfig;
}

/** `[models.prices.<model_id>]`, dollars per million tokens. */
export interface PriceConfig {
  input: number;
  output: number;
  /** Defaults to `input`. */
  cache_read: number;
  /** The 5-minute cache write; defaults to `input`. */
  cache_write: number;
  /** The 1-hour cache write (vendor-a and vendor-d report it apart); defaults to `cache_write`. */
  cache_write_1h: number;
}

/** `[net]` (written `[{base_url}]` in the spec). */
export interface NetConfig {
  name?: string;
  auto_reply: boolean;
  max_hops: number;
  /**
   * Which replies (hops above 0) a network turn answers: `questions` (only one that asks
   * something, and none past hop 3, so a conversation ends by itself) or `always`.
   */
  answer_replies: "questions" | "always";
  max_auto_replies_per_hour: number;
  public_note: string;
  store: "file" | "spine";
  link: "auto" | "websocket" | "poll";
  poll_timeout_seconds: number;
  /** Universe host; empty switches the universe off. */
  universe: string;
  universe_links: boolean;
  /** 5 to 1440. */
  universe_report_minutes: number;
  /** How the owner hears of network conversations: `batched` (at most one message per 10 minutes), `daily` or `off`. */
  digest: "batched" | "daily" | "off";
}

/** `[memory]`: what the agent keeps between conversations (see `docs/memory.md`). */
export interface MemoryConfig {
  /** Recall memories before each turn and offer the memory tools. @default true */
  enabled: boolean;
  /** Estimated tokens of memories found for a turn's message, at most. @default 600 */
  recall_tokens: number;
  /** Estimated tokens of pinned memories a turn carries, at most. @default 400 */
  pinned_tokens: number;
  /**
   * What the `memory` role does with a conversation once it has been quiet for
   * `quiet_minutes`: nothing (`off`), propose memories for the owner to approve (`ask`),
   * or keep them at once where that is safe (`auto`). @default "ask"
   */
  extract: "off" | "ask" | "auto";
  /** Minutes without a message after which a conversation is read for proposals. @default 10 */
  quiet_minutes: number;
}

/** `[tools.search]`: where `web_search` asks, what each call costs and how much it may spend. */
export interface SearchConfig {
  provider: "brave" | "searxng";
  /** The endpoint. @default Brave's web search API; SearXNG has none (its `url` is needed) */
  url: string;
  /** Dollars per call. @default 0.005 for Brave (its $5 per 1,000), 0 for SearXNG */
  price_per_call: number;
  /** Results a call returns at most. @default 5 */
  max_results: number;
  /** A budget like a role's (`usd`, `period`, `hard`, `warn_at`); none: no cap. */
  budget?: BudgetConfig;
}

/** `[tools.shell]`: the `shell` tool, run inside bubblewrap. */
export interface ShellConfig {
  /** Offer the tool (tier 2, every call asked). @default false */
  enabled: boolean;
  /** A command is killed after this long. @default 60 */
  timeout_seconds: number;
  /** Output kept of a command (stdout and stderr together), KB. @default 64 */
  max_output_kb: number;
}

/** `[tools]`: what the built-in tools may reach, and tools that need settings of their own. */
/** How the e-mail channel speaks to its servers: TLS from the first byte, STARTTLS, or none. */
export type EmailTls = "implicit" | "starttls" | "none";

/**
 * `[email]`: the agent's own mailbox, read over IMAP and answered over SMTP. The
 * channel runs when the table is there; `EMAIL_USERNAME` and `EMAIL_PASSWORD` live in
 * `.env`.
 */
export interface EmailConfig {
  /** The agent's mailbox address (answers come from it). */
  address: string;
  imap_host: string;
  /** @default 993 (implicit), 143 (starttls, none) */
  imap_port: number;
  smtp_host: string;
  /** @default 465 (implicit), 587 (starttls), 25 (none) */
  smtp_port: number;
  /** `none` is accepted for loopback hosts only. @default "implicit" */
  tls: EmailTls;
  /** The owner's address: mail from it is the owner's conversation. */
  owner: string;
  /** Other addresses that may write (each a person of its own; lower case). */
  allowed_senders: string[];
  /**
   * The receiving server's authserv-id: only its `Authentication-Results` count. Empty
   * only with `trust_from`.
   */
  authserv_id: string;
  /** Take the `From:` as proven (a private server the owner runs). @default false */
  trust_from: boolean;
  /** @default "INBOX" */
  folder: string;
  /** Where answered mail is moved; empty leaves it in `folder`, flagged seen. @default "" */
  done_folder: string;
  /** `idle` (IMAP IDLE, polling when the server has none) or `poll`. @default "idle" */
  mode: "idle" | "poll";
  /** Seconds between two looks in `poll` mode (and IDLE's fallback). @default 60 */
  poll_seconds: number;
  /** Mails answered per sender per hour at most. @default 20 */
  max_per_hour: number;
  /** The answer ends with the model and its cost. @default true */
  footer: boolean;
  /** The most of a text attachment (or forwarded mail) read, in kilobytes. @default 64 */
  attachment_kb: number;
}

/** `[tools]`: what the built-in tools may reach. */
export interface ToolsConfig {
  /**
   * `fetch_url` may reach private, loopback and link-local addresses (the owner's LAN);
   * off, it reaches public addresses only.
   */
  fetch_private: boolean;
  /** `web_search` is offered only with this table. */
  search?: SearchConfig;
  shell: ShellConfig;
}

/** `[mcp.servers.<name>]`: one MCP server (a `command` started over stdio, or a `url`). */
export interface McpServerConfig {
  /** The program of a stdio server. */
  command?: string;
  /** Its arguments. @default [] */
  args: string[];
  /** A Streamable HTTP server's endpoint. */
  url?: string;
  /** Names of `.env` variables the server receives (never the agent's own). @default [] */
  env: string[];
  /** HTTP headers whose values come from `.env`: header name to variable name. @default {} */
  headers_env: Record<string, string>;
  /** The server's tools to offer, by the server's names. @default every tool */
  tools?: string[];
  /** Tools lowered to tier 1 by the server's name (every other tool is tier 2). @default {} */
  tiers: Record<string, 1 | 2>;
  /** A stdio server runs inside bubblewrap. @default false */
  sandbox: boolean;
  /** Extra paths a sandboxed server may read. @default [] */
  sandbox_read: string[];
  /** A sandboxed server keeps the network. @default false */
  sandbox_network: boolean;
  /** Seconds a start, a listing or a call may take. @default 30 */
  timeout_seconds: number;
}

/** `[mcp]`: the MCP servers the owner added (`agent mcp add`). */
export interface McpConfig {
  servers: Record<string, McpServerConfig>;
}

/** `[components]`: extra components by module specifier, and names switched off. */
export interface ComponentsConfig {
  /** Module specifiers (paths relative to the home, `file:`, `npm:`), each exporting a manifest. */
  modules: string[];
  /** Component names that are installed but not used. */
  disabled: string[];
}

/** The whole validated `agent.toml`. */
export interface AgentConfig {
  models: {
    roles: Record<string, RoleConfig>;
    prices: Record<string, PriceConfig>;
  };
  ui: { lang?: Lang };
  sessions: { backend: "file" | "spine" };
  messenger: {
    /** Chat ids allowed to talk to the agent when `MESSENGER_ALLOWED_CHAT_IDS` is not set. */
    allowed_chat_ids: string[];
    /** `polling` (getUpdates, the default) or `webhook` (updates handed in; cloud mode). */
    mode: "polling" | "webhook";
    /** How long a tier-2 approval waits for a button before it counts as Deny. */
    approval_timeout_seconds: number;
  };
  hub: {
    /** Loopback port of the control API. */
    port: number;
  };
  net: NetConfig;
  memory: MemoryConfig;
  /** `[email]`, when the e-mail channel is set up. */
  email?: EmailConfig;
  tools: ToolsConfig;
  mcp: McpConfig;
  components: ComponentsConfig;
}
