/**
 * A job log's reasons in the reader's language. A run's reason is stored as the
 * sentence its hub said it in (`missed`, `interrupted`, a ceiling's refusal), so a
 * log written before the owner chose Turkish, or by the identity's other hub in
 * another language, would show it in that one. {@linkcode reasonIn} reads a stored
 * reason back against the jobs catalogue's templates in every language and says it
 * again in the one asked for; the outcome words of older rows (`cancelled`, `closed`)
 * are read as the sentences that replaced them. Anything else (a provider's own
 * error) stays as it was written.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { t, TEMPLATES } from "./_messages.ts";

/** The catalogue's sentences a run's log row may carry as its reason. */
const REASONS = [
  "still_running",
  "interrupted",
  "taken",
  "spine_unreachable",
  "run_cancelled",
  "run_closed",
  "run_no_answer",
  "ceiling_day",
  "ceiling_run",
  "budget_spent",
  "paused_day",
  "paused_owner",
  "paused_every",
] as const;

/** What older hubs stored instead of a sentence (the desk's outcome words). */
const OLD_WORDS: Record<string, (typeof REASONS)[number]> = {
  cancelled: "run_cancelled",
  closed: "run_closed",
  empty: "run_no_answer",
  command: "run_no_answer",
};

type Reader = { key: (typeof REASONS)[number]; pattern: RegExp };

/** Each reason's template in each language, as a pattern that gives back its values. */
const READERS: Reader[] = REASONS.flatMap((key) =>
  (Object.keys(TEMPLATES) as Lang[]).map((lang) => ({
    key,
    pattern: patternOf(TEMPLATES[lang][key]),
  }))
);

/**
 * `detail`, a stored reason, said in `lang`: a sentence of the jobs catalogue in any
 * language comes back in `lang` with the same values; other text as it is.
 *
 * @example
 * ```ts
 * import { reasonIn } from "./reasons.ts";
 * const tr = reasonIn("run by the other hub of this identity", "tr");
 * if (tr !== "bu kimliğin öteki hub'ı çalıştırdı") throw new Error(tr);
 * ```
 */
export function reasonIn(detail: string, lang: Lang): string {
  const old = OLD_WORDS[detail.trim()];
  if (old !== undefined) return t(lang, old);
  for (const { key, pattern } of READERS) {
    const found = pattern.exec(detail);
    if (found !== null) return t(lang, key, { ...found.groups });
  }
  return detail;
}

/** A template as a whole-text pattern: each `{name}` a group (a repeat must match it again). */
function patternOf(template: string): RegExp {
  const seen = new Set<string>();
  const source = template.split(/(\{[a-zA-Z0-9_]+\})/).map((part) => {
    const name = /^\{([a-zA-Z0-9_]+)\}$/.exec(part)?.[1];
    if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (seen.has(name)) return `\\k<${name}>`;
    seen.add(name);
    return `(?<${name}>[\\s\\S]+?)`;
  }).join("");
  return new RegExp(`^${source}$`);
}
