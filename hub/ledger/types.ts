/**
 * What the spend ledger stores and reports: one call's record (checked before it is
 * written), a role's totals, the per-channel breakdown, and the ledger's error.
 *
 * @module
 */
import type { ProviderId } from "../config/types.ts";
import { errorMessage } from "@agent/net/common";

/** A paid tool's provider (`[tools.search] provider`), beside the model providers. */
export type ToolProviderId = "brave" | "searxng";

/** Who was called: a model provider, or a paid tool's provider. */
export type CallProvider = ProviderId | ToolProviderId;

/** Where a call came from. */
export type Channel = "chat" | "tui" | "messenger" | "web" | "net" | "cli" | "job" | "email";

/** Every channel, in a stable order. */
export const CHANNELS: readonly Channel[] = [
  "chat",
  "tui",
  "messenger",
  "web",
  "net",
  "cli",
  "job",
  "email",
];

/**
 * What a call was for: an answer, a summary of a long session's oldest turns (the
 * context budget's fold), a paid tool (`web_search`: its provider and price, no
 * tokens), or memory (the memory role proposing memories from a quiet conversation,
 * consolidating them, or an embedding), which `agent spend --by purpose` shows apart.
 */
export type CallPurpose = "turn" | "compaction" | "tool" | "memory";

/** Every purpose, in a stable order. */
export const PURPOSES: readonly CallPurpose[] = ["turn", "compaction", "tool", "memory"];

/** One model call, as the ledger stores it. */
export interface CallRecord {
  /** When the answer finished, epoch ms. */
  ts: number;
  role: string;
  provider: CallProvider;
  model_id: string;
  /** Input tokens without cache reads and writes. */
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** Dollars; `null` when the model has no price (counts as $0). */
  usd: number | null;
  channel: Channel;
  session_id: string | null;
  /** The other agent's address, for network turns. */
  peer: string | null;
  /** @default "turn" */
  purpose?: CallPurpose | undefined;
  /**
   * The tokens were estimated: the call ended (cancelled, timed out, connection lost,
   * process stopped) before the provider reported its usage. @default false
   */
  estimated?: boolean;
  /** The call's id; a row with an id already in the ledger is not written again. */
  call_id?: string | null;
  /** Estimated tokens of the tool definitions the call sent. @default 0 */
  tool_tokens?: number | undefined;
  /** Estimated tokens of recalled memories the call's prompt carried. @default 0 */
  recall_tokens?: number | undefined;
}

/** What a role spent over a span. */
export interface SpentTotals {
  usd: number;
  calls: number;
  /** Calls on a model without a price (counted as $0). */
  unpriced_calls: number;
  /** Calls whose tokens were estimated (no usage came from the provider). */
  estimated_calls: number;
}

/** How {@linkcode Ledger.breakdown} groups calls. */
export type BreakdownKey = "channel" | "session" | "peer" | "purpose";

/** Options for {@linkcode Ledger.breakdown}. */
export interface BreakdownOptions {
  /** Start of the span, epoch ms (inclusive). */
  sinceMs: number;
  /** End of the span, epoch ms (exclusive). @default no end */
  untilMs?: number;
  /** Only this role's calls. @default every role */
  role?: string;
}

/** Token counts summed over calls. */
export interface TokenTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

/** One group of {@linkcode Ledger.breakdown}. */
export interface BreakdownRow extends SpentTotals, TokenTotals {
  channel: Channel;
  /** Set when grouped by session. */
  session_id: string | null;
  /** Set when grouped by peer (network contacts). */
  peer: string | null;
  /** Set when grouped by purpose. */
  purpose: CallPurpose | null;
}

/** One Istanbul day of {@linkcode Ledger.days}. */
export interface DayRow extends SpentTotals, TokenTotals {
  /** Epoch ms of the Istanbul midnight that starts the day. */
  day: number;
}

/** What was being done with the ledger when it failed. */
export type LedgerAction = "create" | "open" | "read" | "write" | "use";

/**
 * The ledger cannot be created, opened, read or written. The message is
 * `Cannot <action> the spend ledger <file>: <detail>`.
 */
export class LedgerError extends Error {
  /** Always `"LedgerError"`. */
  override name = "LedgerError";
  /** What failed. */
  readonly action: LedgerAction;
  /** The ledger's file. */
  readonly file: string;
  /** Why, in a few words. */
  readonly detail: string;

  constructor(action: LedgerAction, file: string, cause: unknown) {
    const detail = ledgerDetail(cause, file);
    super(`Cannot ${action} the spend ledger ${file}: ${detail}`, { cause });
    this.action = action;
    this.file = file;
    this.detail = detail;
  }
}

/**
 * Why the ledger failed, in a few words that name no path (the sentence names the
 * ledger once): `permission denied`, what to do with a damaged file, or SQLite's and
 * the system's own words.
 *
 * @example
 * ```ts
 * import { ledgerDetail } from "./types.ts";
 * const denied = new Deno.errors.PermissionDenied("Permission denied (os error 13): stat '/h/spend.sqlite3'");
 * if (ledgerDetail(denied, "/h/spend.sqlite3") !== "permission denied") throw new Error();
 * ```
 */
export function ledgerDetail(cause: unknown, file: string): string {
  const text = errorMessage(cause);
  if (
    cause instanceof Deno.errors.PermissionDenied ||
    /permission denied|os error 13|\bEACCES\b|\bEPERM\b|operation not permitted|readonly database|unable to open database file/i
      .test(text)
  ) {
    return "permission denied";
  }
  if (
    /file is not a database|database disk image is malformed|SQLITE_(CORRUPT|NOTADB)/i.test(text)
  ) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    return `the file is damaged or is not a spend ledger; rename it (for example to ${name}.broken) and the agent starts a new one`;
  }
  // The system's words name the path the sentence already names.
  return text.replace(/: (stat|open|mkdir|chmod) '[^']*'$/, "").replaceAll(`'${file}'`, "the file");
}

/** Throws `TypeError` unless `row` is a call the ledger can store. */
export function checkRecord(row: CallRecord): void {
  const whole = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  if (!whole(row.ts)) throw new TypeError("Cannot record a call: 'ts' must be epoch ms");
  if (typeof row.role !== "string" || row.role === "") {
    throw new TypeError("Cannot record a call: 'role' must be a non-empty string");
  }
  if (typeof row.provider !== "string" || typeof row.model_id !== "string") {
    throw new TypeError("Cannot record a call: 'provider' and 'model_id' must be strings");
  }
  for (
    const key of [
      "input_tokens",
      "output_tokens",
      "cache_read_tokens",
      "cache_write_tokens",
    ] as const
  ) {
    if (!whole(row[key])) {
      throw new TypeError(`Cannot record a call: '${key}' must be a whole number of 0 or more`);
    }
  }
  if (
    row.usd !== null && !(typeof row.usd === "number" && Number.isFinite(row.usd) && row.usd >= 0)
  ) {
    throw new TypeError("Cannot record a call: 'usd' must be null or a number of 0 or more");
  }
  if (row.purpose !== undefined && !PURPOSES.includes(row.purpose)) {
    throw new TypeError(`Cannot record a call: unknown purpose '${String(row.purpose)}'`);
  }
  if (row.tool_tokens !== undefined && !whole(row.tool_tokens)) {
    throw new TypeError("Cannot record a call: 'tool_tokens' must be a whole number of 0 or more");
  }
  if (row.recall_tokens !== undefined && !whole(row.recall_tokens)) {
    throw new TypeError(
      "Cannot record a call: 'recall_tokens' must be a whole number of 0 or more",
    );
  }
  if (row.call_id !== undefined && row.call_id !== null && typeof row.call_id !== "string") {
    throw new TypeError("Cannot record a call: 'call_id' must be a string or null");
  }
  if (!CHANNELS.includes(row.channel)) {
    throw new TypeError(`Cannot record a call: unknown channel '${String(row.channel)}'`);
  }
}
