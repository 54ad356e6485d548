/**
 * What a job may cost: one run's most possible cost (the prompt's tokens × the input
 * price + `max_tokens` × the output price of the role's model), the same bound the
 * per-run ceiling reserves before each call, and what that makes a day.
 *
 * @module
 */
import { lookupPrice } from "../config/prices.ts";
import type { AgentConfig } from "../config/types.ts";
import { estimateTokens, RESERVE_CHARS_PER_TOKEN } from "../ledger/estimate.ts";
import { HARD_CAP_MAX_TOKENS } from "../router/call_bill.ts";
import type { JobDefinition } from "./definition.ts";
import { scheduleOf, slotsBetween } from "./schedule.ts";
import { formatUsd, formatUsdAll } from "../spend/sentences.ts";
import type { Lang } from "../i18n.ts";

/**
 * The characters a run's prompt has besides the persona files and the job's text:
 * the `## Now` block and the JSON around the messages.
 */
export const PROMPT_OVERHEAD_CHARS = 1_500;

const DAY_MS = 86_400_000;

/** The characters the tier-1 tools' definitions add to a prompt that offers them. */
export const TOOLS_CHARS = 4_000;

/** A job's estimate. */
export interface JobEstimate {
  /** The model of the job's role. */
  model: string;
  /** One run's most possible cost; `undefined` when the model has no price. */
  runUsd: number | undefined;
  /**
   * The most slots one of the next seven 24-hour windows holds: a weekly job or a
   * weekday job added on a Saturday counts its day, not the 0 of the next 24 hours.
   */
  runsPerDay: number;
  /** `runUsd` × `runsPerDay`, capped by `max_usd_per_day`. */
  dayUsd: number | undefined;
}

/** The output cap a job's calls get: the role's `max_tokens`, else the hard-cap default. */
export function jobMaxTokens(config: AgentConfig, job: JobDefinition): number {
  return config.models.roles[job.role]?.max_tokens ?? HARD_CAP_MAX_TOKENS;
}

/**
 * One run of `job`: its role's model and most possible cost, `undefined` when the model
 * has no price. What a run's claim and ceiling reserve; without counting the schedule's
 * slots, which for an every-minute job takes ~10,000 steps of croner (0.3 s of processor
 * time) that a run has no use for.
 */
export function estimateRun(
  config: AgentConfig,
  job: JobDefinition,
  systemChars: number,
): { model: string; runUsd: number | undefined } {
  const role = config.models.roles[job.role];
  const model = role?.model_id ?? job.role;
  const price = role === undefined ? undefined : lookupPrice(config, role.model_id);
  const free = role?.provider === "local-runtime" ||
    (role?.provider === "fake" && price === undefined);
  const chars = systemChars + job.prompt.length + PROMPT_OVERHEAD_CHARS +
    (job.tools === "tier1" ? TOOLS_CHARS : 0);
  const input = estimateTokens(chars, RESERVE_CHARS_PER_TOKEN);
  const runUsd = free
    ? 0
    : price === undefined
    ? undefined
    : (input * price.input + jobMaxTokens(config, job) * price.output) / 1e6;
  return { model, runUsd };
}

/**
 * The least a run of `job` holds of its day's ceiling: its most possible cost, or its
 * `max_usd_per_run` when lower; 0 for a model without a price. What a run's claim and
 * ceiling reserve, and what `agent jobs resume` checks the day has left.
 */
export function minRunUsd(config: AgentConfig, job: JobDefinition, systemChars: number): number {
  const one = estimateRun(config, job, systemChars).runUsd ?? 0;
  return Math.min(one, job.max_usd_per_run ?? one);
}

/**
 * Estimates `job` with a system prompt of `systemChars` characters (the persona files).
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/parse.ts";
 * import { estimateJob } from "./estimate.ts";
 * const config = defaultConfig();
 * const job = {
 *   name: "n", schedule: "0 8 * * *", tz: "UTC", role: "fast", deliver: "none" as const,
 *   missed: "once" as const, tools: "none" as const, prompt: "Hello",
 * };
 * if (estimateJob(config, job, 0, 0).runsPerDay !== 1) throw new Error();
 * ```
 */
export function estimateJob(
  config: AgentConfig,
  job: JobDefinition,
  systemChars: number,
  nowMs: number,
): JobEstimate {
  const { model, runUsd } = estimateRun(config, job, systemChars);
  const cron = scheduleOf(job.schedule, job.tz);
  let runsPerDay = 0;
  for (let day = 0; day < 7; day++) {
    const from = nowMs + day * DAY_MS;
    const { slots, count } = slotsBetween(cron, from, from + DAY_MS, 1);
    if (count >= 10_000) {
      // slotsBetween's own cap (an every-second job holds 86,400 a day): the day is
      // counted at the pace of its first 10,000 slots.
      const span = Math.max(1, slots[0]! - from);
      runsPerDay = Math.max(runsPerDay, Math.round(count * Math.min(DAY_MS / span, 1e6)));
      break;
    }
    runsPerDay = Math.max(runsPerDay, count);
  }
  const dayUsd = runUsd === undefined
    ? undefined
    : Math.min(runUsd * runsPerDay, job.max_usd_per_day ?? Infinity);
  return { model, runUsd, runsPerDay, dayUsd };
}

/** The characters of the persona files a run's system prompt carries. */
export async function personaChars(personaDir: string): Promise<number> {
  let chars = 0;
  for (const name of ["persona.md", "user.md"]) {
    try {
      chars += (await Deno.readTextFile(`${personaDir}/${name}`)).length;
    } catch { /* a missing file adds nothing */ }
  }
  return chars;
}

/**
 * Dollars as the spend reports show them, in `lang`'s separators (`$1.20`, `$0.0042`;
 * `$1,20` in Turkish): `formatUsd()`.
 */
export function usd(value: number, lang: Lang): string {
  return `$${formatUsd(value, lang)}`;
}

/** Amounts a sentence compares, with the digits the comparison needs: `formatUsdAll()`. */
export function usdAll<const T extends readonly number[]>(
  values: T,
  lang: Lang,
): { -readonly [K in keyof T]: string } {
  return formatUsdAll(values, lang).map((v) => `$${v}`) as { -readonly [K in keyof T]: string };
}
