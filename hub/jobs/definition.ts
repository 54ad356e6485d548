/**
 * The job file `persona/jobs/<name>.md`: a front matter block of `key: value` lines
 * between two `---` lines, then the prompt the job sends on each run.
 *
 * ```md
 * ---
 * schedule: 0 8 * * 1-5
 * tz: Europe/Istanbul
 * role: fast
 * max_usd_per_run: 0.02
 * max_usd_per_day: 0.05
 * deliver: messenger
 * missed: once
 * tools: none
 * mcp: files__read_text_file, weather
 * ---
 * Summarise my calendar for today in three lines.
 * ```
 *
 * Every problem is one sentence naming the file and the key, in the style of
 * `agent.toml`'s errors ({@linkcode JobFileError}).
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { scheduleOf } from "./schedule.ts";

/** A job name: `^[a-z][a-z0-9-]{1,30}$`. */
export const JOB_NAME_PATTERN: RegExp = /^[a-z][a-z0-9-]{1,30}$/;

/** Where a run's answer goes. */
export type JobDelivery = "messenger" | "events" | "none";
/** What a slot missed while no hub ran becomes. */
export type JobMissed = "skip" | "once";
/** The tools a run may use: none, or tier 1 (tier 2 never runs in a job). */
export type JobTools = "none" | "tier1";

/** A parsed job. */
export interface JobDefinition {
  name: string;
  /** A cron expression (five fields, or six with seconds first). */
  schedule: string;
  /** @default "Europe/Istanbul" */
  tz: string;
  /** @default "fast" */
  role: string;
  max_usd_per_run?: number | undefined;
  max_usd_per_day?: number | undefined;
  /** @default "messenger" */
  deliver: JobDelivery;
  /** @default "once" */
  missed: JobMissed;
  /** @default "none" */
  tools: JobTools;
  /**
   * MCP tools a run may use, comma-separated: `<server>__<tool>` names or whole
   * `<server>` names; only those the owner lowered to tier 1 run (tier 2 never runs in
   * a job). Without this key a job gets no MCP tool. @default none
   */
  mcp?: string | undefined;
  /** The text each run sends. */
  prompt: string;
}

/** The front matter keys a job may carry, in the order files are written. */
export const JOB_KEYS = [
  "schedule",
  "tz",
  "role",
  "max_usd_per_run",
  "max_usd_per_day",
  "deliver",
  "missed",
  "tools",
  "mcp",
] as const;

/** The default time zone of a job. */
export const DEFAULT_JOB_TZ = "Europe/Istanbul";

/** A job file that cannot be used; the message is the sentence. */
export class JobFileError extends Error {
  /** Makes the error. */
  constructor(message: string) {
    super(message);
    this.name = "JobFileError";
  }
}

/** Options for {@linkcode parseJobFile}. */
export interface ParseJobOptions {
  /** The file as the owner sees it (`persona/jobs/news.md`). @default `persona/jobs/<name>.md` */
  file?: string;
  /** The roles of `agent.toml`; a job naming another is refused. @default any role */
  roles?: readonly string[];
  /** @default "en" */
  lang?: Lang;
  /**
   * The fields came from `agent jobs add`'s options, not a file: a problem names the
   * option (`--schedule`), not the file's front matter. @default false
   */
  fromOptions?: boolean;
}

/** The problems that have a sentence naming the option when the fields are options. */
const OPTION_SENTENCES = {
  bad_name: "opt_bad_name",
  bad_schedule: "opt_bad_schedule",
  never: "opt_never",
  bad_tz: "opt_bad_tz",
  unknown_role: "opt_unknown_role",
  positive: "opt_positive",
  one_of: "opt_one_of",
  empty_prompt: "opt_empty_prompt",
  slash_prompt: "opt_slash_prompt",
  day_below_run: "opt_day_below_run",
} as const satisfies Partial<Record<Parameters<typeof t>[1], Parameters<typeof t>[1]>>;

const FENCE = /^---[ \t]*$/;
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:[ \t]*(.*)$/;

/**
 * Parses the job `name` from its file's text; throws {@linkcode JobFileError}.
 *
 * @example
 * ```ts
 * import { parseJobFile } from "./definition.ts";
 * const job = parseJobFile("news", "---\nschedule: 0 8 * * *\n---\nThe news, please.\n");
 * if (job.tz !== "Europe/Istanbul" || job.role !== "fast" || job.missed !== "once") {
 *   throw new Error();
 * }
 * ```
 */
export function parseJobFile(
  name: string,
  text: string,
  options: ParseJobOptions = {},
): JobDefinition {
  const lang = options.lang ?? "en";
  const file = options.file ?? `persona/jobs/${name}.md`;
  const fail = (key: Parameters<typeof t>[1], vars: Record<string, string | number> = {}) => {
    const option = options.fromOptions === true
      ? OPTION_SENTENCES[key as keyof typeof OPTION_SENTENCES]
      : undefined;
    const flag = String(vars.key ?? "").replaceAll("_", "-");
    return new JobFileError(t(lang, option ?? key, { file, name, flag, ...vars }));
  };
  if (!JOB_NAME_PATTERN.test(name)) throw fail("bad_name");
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? "")) throw fail("no_front_matter");
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end === -1) throw fail("unclosed");
  const values = new Map<string, string>();
  for (let i = 1; i < end; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = KEY_LINE.exec(line);
    if (match === null) throw fail("bad_line", { line: i + 1 });
    const key = match[1] ?? "";
    if (!(JOB_KEYS as readonly string[]).includes(key)) throw fail("unknown_key", { key });
    if (values.has(key)) throw fail("duplicate_key", { key });
    values.set(key, unquote((match[2] ?? "").trim()));
  }
  const schedule = values.get("schedule") ?? "";
  if (schedule === "") throw fail("missing", { key: "schedule" });
  const tz = values.get("tz") || DEFAULT_JOB_TZ;
  if (!isTimeZone(tz)) throw fail("bad_tz", { value: tz });
  try {
    if (scheduleOf(schedule, tz).nextRun() === null) throw fail("never", { value: schedule });
  } catch (error) {
    if (error instanceof JobFileError) throw error;
    throw fail("bad_schedule", { value: schedule, detail: cronDetail(error) });
  }
  const role = values.get("role") || "fast";
  if (options.roles !== undefined && !options.roles.includes(role)) {
    throw fail("unknown_role", { name: role });
  }
  const money = (key: "max_usd_per_run" | "max_usd_per_day") => {
    const raw = values.get(key);
    if (raw === undefined || raw === "") return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw fail("positive", { key });
    return n;
  };
  const run = money("max_usd_per_run");
  const day = money("max_usd_per_day");
  if (run !== undefined && day !== undefined && day < run) {
    throw fail("day_below_run", { run: String(run) });
  }
  const pick = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
    const raw = values.get(key);
    if (raw === undefined || raw === "") return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      throw fail("one_of", { key, values: allowed.join(", "), value: raw });
    }
    return raw as T;
  };
  const deliver = pick<JobDelivery>("deliver", ["messenger", "events", "none"], "messenger");
  const missed = pick<JobMissed>("missed", ["skip", "once"], "once");
  const tools = pick<JobTools>("tools", ["none", "tier1"], "none");
  const mcp = jobMcpTools(values.get("mcp"));
  const prompt = lines.slice(end + 1).join("\n").trim();
  if (prompt === "") throw fail("empty_prompt");
  // A run sends the prompt as a message; a slash command would run instead.
  if (prompt.startsWith("/")) throw fail("slash_prompt");
  return {
    name,
    schedule,
    tz,
    role,
    ...(run === undefined ? {} : { max_usd_per_run: run }),
    ...(day === undefined ? {} : { max_usd_per_day: day }),
    deliver,
    missed,
    tools,
    ...(mcp.length === 0 ? {} : { mcp: mcp.join(", ") }),
    prompt,
  };
}

/**
 * The MCP tool and server names of a job's `mcp` key.
 *
 * @example
 * ```ts
 * import { jobMcpTools } from "./definition.ts";
 * if (jobMcpTools(" fs__read , weather,").join("|") !== "fs__read|weather") throw new Error();
 * ```
 */
export function jobMcpTools(value: string | undefined): string[] {
  return (value ?? "").split(",").map((name) => name.trim()).filter((name) => name !== "");
}

/**
 * The file text of `job` (what `agent jobs add` writes); {@linkcode parseJobFile}
 * reads it back unchanged.
 *
 * @example
 * ```ts
 * import { jobFileText, parseJobFile } from "./definition.ts";
 * const text = jobFileText({
 *   name: "news", schedule: "0 8 * * *", tz: "Europe/Istanbul", role: "fast",
 *   deliver: "messenger", missed: "once", tools: "none", prompt: "The news.",
 * });
 * if (parseJobFile("news", text).prompt !== "The news.") throw new Error(text);
 * ```
 */
export function jobFileText(job: JobDefinition): string {
  const lines = ["---"];
  for (const key of JOB_KEYS) {
    const value = job[key];
    if (value === undefined) continue;
    lines.push(`${key}: ${typeof value === "string" ? quoteIfNeeded(value) : String(value)}`);
  }
  lines.push("---", job.prompt.trim(), "");
  return lines.join("\n");
}

/** Whether `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return tz.includes("/") || tz === "UTC";
  } catch {
    return false;
  }
}

function cronDetail(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^CronPattern: /, "").replace(/\.$/, "").split("\n")[0] ?? text;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === "string") return parsed;
    } catch { /* kept as written */ }
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
    return value.slice(1, -1).replaceAll("''", "'");
  }
  return value;
}

function quoteIfNeeded(value: string): string {
  return /^[\w ./*,?#@:+-]*$/.test(value) && !/^['"]/.test(value) && value === value.trim()
    ? value
    : JSON.stringify(value);
}
