/**
 * Reads and validates `agent.toml` into an {@linkcode AgentConfig}. Every problem
 * becomes a {@linkcode ConfigError} whose message is one sentence naming the file,
 * the table and the key (the texts the spec names are exact).
 *
 * @module
 */
import { configKeys, suggestKey } from "./keys.ts";
import { parse as parseToml, TomlError } from "smol-toml";
import type { z } from "zod";
import type { Lang } from "../i18n.ts";
import type {
  AgentConfig,
  BudgetConfig,
  CacheConfig,
  FallbackConfig,
  NetConfig,
  PriceConfig,
  RoleConfig,
  RoleParams,
} from "./types.ts";
import { configSchema, RANGES, type RawConfig, type Tag } from "./_schema.ts";
import { CONFIG_TEMPLATE } from "./template.ts";
import { t } from "./_messages.ts";
import { ConfigError } from "./error.ts";
import { DEFAULT_HUB_PORT, DEFAULT_WARN_AT, MEMORY_DEFAULTS, NET_DEFAULTS } from "./defaults.ts";
import { checkTools, mcpOf, toolsOf } from "./tools_config.ts";
import { checkEmail, emailWithDefaults } from "./email.ts";

/** Options for {@linkcode parseConfig}. */
export interface ParseConfigOptions {
  /** Language of the error sentences. @default "en" */
  lang?: Lang;
}

/**
 * Parses and validates `agent.toml` text. Pure; throws {@linkcode ConfigError}.
 *
 * @example
 * ```ts
 * import { parseConfig } from "./parse.ts";
 * const c = parseConfig('[models.roles.x]\nprovider = "fake"\nmodel_id = "m"\n', "agent.toml");
 * if (c.models.roles.x?.provider !== "fake" || c.hub.port !== 8790) throw new Error();
 * ```
 */
export function parseConfig(
  text: string,
  file: string,
  options: ParseConfigOptions = {},
): AgentConfig {
  const lang = options.lang ?? "en";
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) {
      const detail = (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "")
        .replace(/\.$/, "");
      throw new ConfigError(
        t(lang, "toml", { file, line: error.line, column: error.column, detail }),
        { cause: error },
      );
    }
    throw error;
  }
  const result = configSchema.safeParse(data, { reportInput: true });
  if (!result.success) {
    // An unknown key is told first: `outpt = 3` is a typo, not a missing `output`.
    const issues = result.error.issues;
    const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
    throw new ConfigError(issueSentence(issue, file, lang), { cause: result.error });
  }
  const config = withDefaults(result.data);
  checkRoles(config, file, lang);
  checkTools(config, file, lang);
  checkEmail(config.email, file, lang);
  return config;
}

/** The shipped template, parsed: what a fresh `agent init` produces (with vendor-a). */
export function defaultConfig(): AgentConfig {
  return parseConfig(CONFIG_TEMPLATE, "agent.toml");
}

function withDefaults(raw: RawConfig): AgentConfig {
  const roles: Record<string, RoleConfig> = {};
  for (const [name, r] of Object.entries(raw.models?.roles ?? {})) {
    const role: RoleConfig = targetOf(r);
    if (r.context_tokens !== undefined) role.context_tokens = r.context_tokens;
    if (r.budget !== undefined) {
      const budget: BudgetConfig = {
        usd: r.budget.usd,
        period: r.budget.period,
        warn_at: r.budget.warn_at ?? DEFAULT_WARN_AT,
      };
      if (r.budget.degrade_to !== undefined) budget.degrade_to = r.budget.degrade_to;
      if (r.budget.hard === true) budget.hard = true;
      role.budget = budget;
    }
    if (r.failover !== undefined) role.failover = r.failover;
    if (r.fallback !== undefined) role.fallback = targetOf(r.fallback);
    if (r.cache !== undefined) {
      const cache: CacheConfig = {
        system: r.cache.system ?? true,
        messages: r.cache.messages ?? true,
        ttl: r.cache.ttl ?? "5m",
      };
      role.cache = cache;
    }
    roles[name] = role;
  }
  const prices: Record<string, PriceConfig> = {};
  for (const [id, p] of Object.entries(raw.models?.prices ?? {})) {
    const cacheWrite = p.cache_write ?? p.input;
    prices[id] = {
      input: p.input,
      output: p.output,
      cache_read: p.cache_read ?? p.input,
      cache_write: cacheWrite,
      cache_write_1h: p.cache_write_1h ?? cacheWrite,
    };
  }
  const n = raw.net ?? {};
  const net: NetConfig = {
    auto_reply: n.auto_reply ?? NET_DEFAULTS.auto_reply,
    max_hops: n.max_hops ?? NET_DEFAULTS.max_hops,
    answer_replies: n.answer_replies ?? NET_DEFAULTS.answer_replies,
    max_auto_replies_per_hour: n.max_auto_replies_per_hour ??
      NET_DEFAULTS.max_auto_replies_per_hour,
    public_note: n.public_note ?? NET_DEFAULTS.public_note,
    store: n.store ?? NET_DEFAULTS.store,
    link: n.link ?? NET_DEFAULTS.link,
    poll_timeout_seconds: n.poll_timeout_seconds ?? NET_DEFAULTS.poll_timeout_seconds,
    universe: n.universe ?? NET_DEFAULTS.universe,
    universe_links: n.universe_links ?? NET_DEFAULTS.universe_links,
    universe_report_minutes: n.universe_report_minutes ?? NET_DEFAULTS.universe_report_minutes,
    digest: n.digest ?? NET_DEFAULTS.digest,
  };
  if (n.name !== undefined) net.name = n.name;
  const ui: AgentConfig["ui"] = {};
  if (raw.ui?.lang !== undefined) ui.lang = raw.ui.lang;
  const email = emailWithDefaults(raw.email);
  return {
    models: { roles, prices },
    ui,
    sessions: { backend: raw.sessions?.backend ?? "file" },
    messenger: {
      allowed_chat_ids: (raw.messenger?.allowed_chat_ids ?? []).map((id) => String(id)),
      mode: raw.messenger?.mode ?? "polling",
      approval_timeout_seconds: raw.messenger?.approval_timeout_seconds ?? 600,
    },
    hub: { port: raw.hub?.port ?? DEFAULT_HUB_PORT },
    net,
    memory: {
      enabled: raw.memory?.enabled ?? MEMORY_DEFAULTS.enabled,
      recall_tokens: raw.memory?.recall_tokens ?? MEMORY_DEFAULTS.recall_tokens,
      pinned_tokens: raw.memory?.pinned_tokens ?? MEMORY_DEFAULTS.pinned_tokens,
      extract: raw.memory?.extract ?? MEMORY_DEFAULTS.extract,
      quiet_minutes: raw.memory?.quiet_minutes ?? MEMORY_DEFAULTS.quiet_minutes,
    },
    tools: toolsOf(raw),
    mcp: mcpOf(raw),
    ...(email === undefined ? {} : { email }),
    components: {
      modules: raw.components?.modules ?? [],
      disabled: raw.components?.disabled ?? [],
    },
  };
}

/** What a role and its fallback have alike: the provider, the model and its settings. */
function targetOf(raw: {
  provider: FallbackConfig["provider"];
  model_id: string;
  max_tokens?: number | undefined;
  params?: Partial<Record<keyof RoleParams, unknown>> | undefined;
}): FallbackConfig {
  const target: FallbackConfig = {
    provider: raw.provider,
    model_id: raw.model_id,
    params: paramsOf(raw.params),
  };
  if (raw.max_tokens !== undefined) target.max_tokens = raw.max_tokens;
  return target;
}

function paramsOf(raw: Partial<Record<keyof RoleParams, unknown>> | undefined): RoleParams {
  const out: RoleParams = {};
  if (raw === undefined) return out;
  for (const key of ["base_url", "api_key_env", "reasoning_effort", "region"] as const) {
    const value = raw[key];
    if (typeof value === "string") out[key] = value;
  }
  if (Array.isArray(raw.replies)) out.replies = raw.replies.map(String);
  if (typeof raw.word_ms === "number") out.word_ms = raw.word_ms;
  if (typeof raw.usage === "object" && raw.usage !== null) {
    const usage = raw.usage as { input?: unknown; output?: unknown };
    out.usage = {};
    if (typeof usage.input === "number") out.usage.input = usage.input;
    if (typeof usage.output === "number") out.usage.output = usage.output;
  }
  return out;
}

/** Rules across roles: vendor-d ids, stand-in names, stand-in loops. */
function checkRoles(config: AgentConfig, file: string, lang: Lang): void {
  const roles = config.models.roles;
  for (const [name, role] of Object.entries(roles)) {
    const table = `[models.roles.${tomlKey(name)}]`;
    if (role.provider === "vendor-d" && !role.model_id.startsWith("global.")) {
      throw new ConfigError(t(lang, "global_prefix", { file, table }));
    }
    if (role.fallback?.provider === "vendor-d" && !role.fallback.model_id.startsWith("global.")) {
      throw new ConfigError(t(lang, "global_prefix", { file, table: `${table} fallback` }));
    }
    const standIns: [string, string | undefined][] = [
      ["budget.degrade_to", role.budget?.degrade_to],
      ["failover", role.failover],
    ];
    for (const [key, target] of standIns) {
      if (target !== undefined && !Object.hasOwn(roles, target)) {
        const suggestion = suggestKey(target, Object.keys(roles));
        throw new ConfigError(
          t(lang, "unknown_role", { file, table, key, name: target }) +
            (suggestion === undefined ? "" : t(lang, "did_you_mean", { suggestion })),
        );
      }
    }
  }
  for (const name of Object.keys(roles)) {
    const loop = findLoop(name, roles);
    if (loop !== undefined) {
      throw new ConfigError(
        t(lang, "stand_in_loop", { file, role: tomlKey(name), path: loop.join(" -> ") }),
      );
    }
  }
}

/** A path of stand-ins from `start` back to `start`, if there is one. */
export function findLoop(start: string, roles: Record<string, RoleConfig>): string[] | undefined {
  const next = (name: string): string[] => {
    const role = roles[name];
    if (role === undefined) return [];
    return [role.budget?.degrade_to, role.failover].filter((x): x is string => x !== undefined);
  };
  const visit = (name: string, path: string[], seen: Set<string>): string[] | undefined => {
    for (const target of next(name)) {
      if (target === start) return [...path, target];
      if (seen.has(target)) continue;
      seen.add(target);
      const found = visit(target, [...path, target], seen);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(start, [start], new Set([start]));
}

/** Quotes a key for a table header when TOML needs it (`"gpt-5.2"`). */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

function tableOf(path: readonly PropertyKey[]): string {
  return `[${path.map((p) => tomlKey(String(p))).join(".")}]`;
}

const EXPECTED: Partial<
  Record<
    Tag,
    "a_string" | "a_number" | "a_boolean" | "a_table" | "a_list_of_strings" | "a_list_of_ids"
  >
> = {
  type_string: "a_string",
  type_number: "a_number",
  type_boolean: "a_boolean",
  type_table: "a_table",
  type_list_of_strings: "a_list_of_strings",
  type_list_of_ids: "a_list_of_ids",
};

function issueSentence(issue: z.core.$ZodIssue, file: string, lang: Lang): string {
  let path = [...issue.path];
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "";
    const sentence = path.length === 0
      ? t(lang, "unknown_top", { file, key })
      : t(lang, "unknown_key", { file, table: tableOf(path), key });
    const known = configKeys(path) ?? [];
    const suggestion = suggestKey(key, known);
    if (suggestion !== undefined) return sentence + t(lang, "did_you_mean", { suggestion });
    return known.length === 0
      ? sentence
      : sentence + t(lang, "known_keys", { keys: known.join(", ") });
  }
  if (issue.code === "invalid_key" && path.length > 0) {
    return t(lang, "server_name", { file, key: String(path[path.length - 1]) });
  }
  const tag = issue.message as Tag;
  // Budget problems are reported for the role, in the spec's words.
  if (tag === "budget_period" && path[0] === "models" && path[1] === "roles") {
    return t(lang, "budget_period", { file, role: tomlKey(String(path[2] ?? "")) });
  }
  // An element of a list is reported as the list's key.
  const inList = typeof path[path.length - 1] === "number";
  while (path.length > 0 && typeof path[path.length - 1] === "number") path = path.slice(0, -1);
  const key = String(path[path.length - 1] ?? "");
  const parent = path.slice(0, -1);
  const table = parent.length === 0 ? `[${tomlKey(key)}]` : tableOf(parent);
  const input = (issue as { input?: unknown }).input;
  if (tag === "type_table" && parent.length === 0) {
    return t(lang, "type", { file, table, key, expected: t(lang, "a_table") })
      .replace(` '${key}'`, "");
  }
  if ("input" in issue && input === undefined) {
    return t(lang, "missing", { file, table, key });
  }
  if (tag === "one_of") {
    const values = "values" in issue && Array.isArray(issue.values)
      ? issue.values.map(String).join(", ")
      : "";
    return t(lang, "one_of", { file, table, key, values });
  }
  if (tag === "range_int") {
    // A tier under `tiers` is keyed by the tool's name.
    const [min, max] = parent.at(-1) === "tiers" ? [1, 2] : RANGES[key] ?? [0, 0];
    return t(lang, "range_int", { file, table, key, min, max });
  }
  if (tag === "too_long") return t(lang, "too_long", { file, table, key, max: 80 });
  // A wrong element makes the whole list wrong: `replies = [1]` is not a list of strings.
  const expected = inList && tag === "type_string" ? "a_list_of_strings" : EXPECTED[tag];
  if (expected !== undefined) {
    return t(lang, "type", { file, table, key, expected: t(lang, expected) });
  }
  if (
    tag === "positive" || tag === "nonneg" || tag === "positive_int" || tag === "nonneg_int" ||
    tag === "not_empty" || tag === "fraction"
  ) {
    return t(lang, tag, { file, table, key });
  }
  return t(lang, "type", { file, table, key, expected: t(lang, "a_string") });
}
