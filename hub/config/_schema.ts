/**
 * The zod schema of `agent.toml`. Every error carries a tag (a key of the config
 * catalogue) that `parse.ts` turns into one sentence naming the file, table and key.
 *
 * @module
 */
import { z } from "zod";
import { PROVIDERS } from "../credentials.ts";
import { SERVER_NAME } from "./defaults.ts";

/** Tags the schema attaches to its errors. */
export type Tag =
  | "budget_period"
  | "type_string"
  | "type_number"
  | "type_boolean"
  | "type_table"
  | "type_list_of_strings"
  | "type_list_of_ids"
  | "one_of"
  | "positive"
  | "nonneg"
  | "fraction"
  | "positive_int"
  | "nonneg_int"
  | "range_int"
  | "not_empty"
  | "too_long"
  | "server_name";

function e(tag: Tag): { error: Tag } {
  return { error: tag };
}

const str = z.string(e("type_string"));
const nonEmpty = str.min(1, e("not_empty"));
const bool = z.boolean(e("type_boolean"));
const positive = z.number(e("positive")).positive(e("positive"));
const nonneg = z.number(e("nonneg")).min(0, e("nonneg"));
const fraction = z.number(e("fraction")).min(0, e("fraction")).max(1, e("fraction"));
const positiveInt = z.number(e("positive_int")).int(e("positive_int")).min(1, e("positive_int"));
const nonnegInt = z.number(e("nonneg_int")).int(e("nonneg_int")).min(0, e("nonneg_int"));
function rangeInt(min: number, max: number) {
  return z.number(e("range_int")).int(e("range_int")).min(min, e("range_int")).max(
    max,
    e("range_int"),
  );
}
function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, e("one_of"));
}
function table<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject(shape, e("type_table"));
}

/** Ranges checked by the schema, for the error sentences. */
export const RANGES: Record<string, [number, number]> = {
  port: [1, 65535],
  universe_report_minutes: [5, 1440],
  poll_timeout_seconds: [1, 60],
  approval_timeout_seconds: [1, 3600],
  context_tokens: [1000, 10_000_000],
  recall_tokens: [0, 100_000],
  pinned_tokens: [0, 100_000],
  quiet_minutes: [1, 1440],
  timeout_seconds: [1, 600],
  max_output_kb: [1, 1024],
  max_results: [1, 20],
  imap_port: [1, 65535],
  smtp_port: [1, 65535],
  poll_seconds: [10, 3600],
  max_per_hour: [1, 1000],
  attachment_kb: [1, 1024],
};

const params = table({
  base_url: nonEmpty.optional(),
  api_key_env: nonEmpty.optional(),
  reasoning_effort: oneOf(["none", "minimal", "low", "medium", "high", "xhigh"]).optional(),
  replies: z.array(str, e("type_list_of_strings")).optional(),
  word_ms: nonnegInt.optional(),
  region: nonEmpty.optional(),
  usage: table({ input: nonnegInt.optional(), output: nonnegInt.optional() }).optional(),
});

const budget = z.strictObject({
  usd: positive,
  period: z.enum(["day", "week", "month"], e("budget_period")),
  degrade_to: nonEmpty.optional(),
  warn_at: fraction.optional(),
  hard: bool.optional(),
}, e("budget_period"));

const cache = table({
  system: bool.optional(),
  messages: bool.optional(),
  ttl: oneOf(["5m", "1h"]).optional(),
});

const fallback = table({
  provider: oneOf(PROVIDERS),
  model_id: nonEmpty,
  max_tokens: positiveInt.optional(),
  params: params.optional(),
});

const role = table({
  provider: oneOf(PROVIDERS),
  model_id: nonEmpty,
  max_tokens: positiveInt.optional(),
  context_tokens: rangeInt(...RANGES.context_tokens!).optional(),
  params: params.optional(),
  budget: budget.optional(),
  failover: nonEmpty.optional(),
  fallback: fallback.optional(),
  cache: cache.optional(),
});

const price = table({
  input: nonneg,
  output: nonneg,
  cache_read: nonneg.optional(),
  cache_write: nonneg.optional(),
  cache_write_1h: nonneg.optional(),
});

/** `[tools.search]`: the `web_search` tool's provider, price and budget. */
const search = table({
  provider: oneOf(["brave", "searxng"]),
  url: nonEmpty.optional(),
  price_per_call: nonneg.optional(),
  max_results: rangeInt(1, 20).optional(),
  budget: budget.optional(),
});

/** `[tools.shell]`: the sandboxed `shell` tool. */
const shell = table({
  enabled: bool.optional(),
  timeout_seconds: rangeInt(1, 600).optional(),
  max_output_kb: rangeInt(1, 1024).optional(),
});

/** `[mcp.servers.<name>]`: one MCP server the owner added. */
const mcpServer = table({
  command: nonEmpty.optional(),
  args: z.array(str, e("type_list_of_strings")).optional(),
  url: nonEmpty.optional(),
  env: z.array(nonEmpty, e("type_list_of_strings")).optional(),
  headers_env: z.record(z.string(), nonEmpty, e("type_table")).optional(),
  tools: z.array(nonEmpty, e("type_list_of_strings")).optional(),
  tiers: z.record(z.string(), rangeInt(1, 2), e("type_table")).optional(),
  sandbox: bool.optional(),
  sandbox_read: z.array(nonEmpty, e("type_list_of_strings")).optional(),
  sandbox_network: bool.optional(),
  timeout_seconds: rangeInt(1, 600).optional(),
});

/** `[email]`; the rules across keys (TLS on loopback only, addresses) are in `email.ts`. */
const email = table({
  address: nonEmpty,
  imap_host: nonEmpty,
  imap_port: rangeInt(...RANGES.imap_port!).optional(),
  smtp_host: nonEmpty,
  smtp_port: rangeInt(...RANGES.smtp_port!).optional(),
  tls: oneOf(["implicit", "starttls", "none"]).optional(),
  owner: nonEmpty,
  allowed_senders: z.array(nonEmpty, e("type_list_of_strings")).optional(),
  authserv_id: str.optional(),
  trust_from: bool.optional(),
  folder: nonEmpty.optional(),
  done_folder: str.optional(),
  mode: oneOf(["idle", "poll"]).optional(),
  poll_seconds: rangeInt(...RANGES.poll_seconds!).optional(),
  max_per_hour: rangeInt(...RANGES.max_per_hour!).optional(),
  footer: bool.optional(),
  attachment_kb: rangeInt(...RANGES.attachment_kb!).optional(),
});

const chatId = z.union([str, z.number().int()], e("type_list_of_ids"));

/** The schema of the whole file (before defaults are applied by `parse.ts`). */
export const configSchema = table({
  models: table({
    roles: z.record(z.string(), role, e("type_table")).optional(),
    prices: z.record(z.string(), price, e("type_table")).optional(),
  }).optional(),
  ui: table({ lang: oneOf(["en", "tr"]).optional() }).optional(),
  sessions: table({ backend: oneOf(["file", "spine"]).optional() }).optional(),
  messenger: table({
    allowed_chat_ids: z.array(chatId, e("type_list_of_ids")).optional(),
    mode: oneOf(["polling", "webhook"]).optional(),
    approval_timeout_seconds: rangeInt(1, 3600).optional(),
  }).optional(),
  hub: table({ port: rangeInt(1, 65535).optional() }).optional(),
  net: table({
    name: nonEmpty.max(80, e("too_long")).optional(),
    auto_reply: bool.optional(),
    max_hops: positiveInt.optional(),
    answer_replies: oneOf(["questions", "always"]).optional(),
    max_auto_replies_per_hour: nonnegInt.optional(),
    public_note: nonEmpty.optional(),
    store: oneOf(["file", "spine"]).optional(),
    link: oneOf(["auto", "websocket", "poll"]).optional(),
    poll_timeout_seconds: rangeInt(1, 60).optional(),
    universe: str.optional(),
    universe_links: bool.optional(),
    universe_report_minutes: rangeInt(5, 1440).optional(),
    digest: oneOf(["batched", "daily", "off"]).optional(),
  }).optional(),
  memory: table({
    enabled: bool.optional(),
    recall_tokens: rangeInt(0, 100_000).optional(),
    pinned_tokens: rangeInt(0, 100_000).optional(),
    extract: oneOf(["off", "ask", "auto"]).optional(),
    quiet_minutes: rangeInt(1, 1440).optional(),
  }).optional(),
  tools: table({
    fetch_private: bool.optional(),
    search: search.optional(),
    shell: shell.optional(),
  }).optional(),
  mcp: table({
    servers: z.record(z.string().regex(SERVER_NAME, e("server_name")), mcpServer, e("type_table"))
      .optional(),
  }).optional(),
  email: email.optional(),
  components: table({
    modules: z.array(nonEmpty, e("type_list_of_strings")).optional(),
    disabled: z.array(nonEmpty, e("type_list_of_strings")).optional(),
  }).optional(),
});

/** The parsed (not yet defaulted) file. */
export type RawConfig = z.infer<typeof configSchema>;
