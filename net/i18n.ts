/**
 * Sentences in English and Turkish: the languages, and {@linkcode catalogue}, which
 * builds a translator from two catalogues with the same keys. Web APIs only, so the
 * hub, the kit and the Workers' pages share it.
 *
 * Each area keeps its own catalogue next to its code (`_messages.ts`); the `tr` half
 * must have every key of `en`, which the type checker enforces.
 *
 * @module
 */

/** A language the agent speaks. */
export type Lang = "en" | "tr";

/** The languages the agent speaks, in order of preference. */
export const LANGS: readonly Lang[] = ["en", "tr"];

/** Whether `value` names a supported language. */
export function isLang(value: unknown): value is Lang {
  return value === "en" || value === "tr";
}

/** Values substituted for `{name}` placeholders. */
export type Vars = Readonly<Record<string, string | number>>;

/** A translator for one catalogue: `t(lang, key, vars)`. */
export type Translator<K extends string> = (lang: Lang, key: K, vars?: Vars) => string;

/**
 * Builds a translator from an `en` catalogue and a `tr` catalogue with the same keys.
 *
 * @example
 * ```ts
 * import { catalogue } from "./i18n.ts";
 * const t = catalogue({ hi: "Hello, {name}." }, { hi: "Merhaba, {name}." });
 * if (t("tr", "hi", { name: "Ada" }) !== "Merhaba, Ada.") throw new Error();
 * ```
 */
export function catalogue<const E extends Record<string, string>>(
  en: E,
  tr: { readonly [K in keyof E]: string },
): Translator<Extract<keyof E, string>> {
  const books: Record<Lang, Record<string, string>> = { en, tr };
  return (lang, key, vars) => format(books[lang][key] ?? en[key] ?? key, vars);
}

/** Replaces `{name}` placeholders with `vars[name]`; unknown placeholders stay. */
export function format(template: string, vars?: Vars): string {
  if (vars === undefined) return template;
  return template.replace(/\{([a-zA-Z0-9_]+)\}/g, (whole, name: string) => {
    const value = vars[name];
    return value === undefined ? whole : String(value);
  });
}

/**
 * The language of this run: `AGENT_LANG` when it names a supported language (the
 * CLI exports `--lang` and `[ui] lang` into it), else English.
 */
export function currentLang(env: Readonly<Record<string, string | undefined>>): Lang {
  const value = env.AGENT_LANG;
  return isLang(value) ? value : "en";
}
