/**
 * Which file names hold the agent's keys. `.env` is the secret, but its copies are as
 * secret as it: an editor's backup (`.env~`, `#.env#`, `.env.swp`), a hand-made one
 * (`env.backup`, `.env.bak`, `.env.orig`), another spelling the file system keeps
 * apart (`.ENV`, `.env ` with a trailing space, `.env.`). A name is folded first (NFKC,
 * lower case, invisible characters gone, the ends stripped of spaces, dots, `~` and
 * `#`, backup endings taken off), then matched: anything starting with `.env` (but
 * `.env.example`, which lists names only), and `env` or `env.…` without the dot.
 * Content that holds a key is caught by value elsewhere (`_guarded_file.ts`).
 *
 * @module
 */

// Endings editors and people give a copy; taken off (repeatedly) before matching.
const BACKUP_ENDINGS = /(?:[.~_-](?:bak|backup|orig|old|save|saved|swp|swo|swn|tmp|copy|\d+)|~)$/;

// Zero-width, bidi and other invisible format characters: a name that shows as `.env`.
const INVISIBLE = /\p{Cf}/gu;

/**
 * A file name folded for matching: NFKC, lower case, invisible characters removed,
 * spaces, dots, `~` and `#` stripped from both ends and backup endings taken off
 * (a leading dot is kept, as one).
 *
 * @example
 * ```ts
 * import { foldFileName } from "./_secret_name.ts";
 * if (foldFileName("#.ENV.bak# ") !== ".env") throw new Error(foldFileName("#.ENV.bak# "));
 * if (foldFileName("env.backup") !== "env") throw new Error(foldFileName("env.backup"));
 * ```
 */
export function foldFileName(name: string): string {
  let folded = name.normalize("NFKC").replace(INVISIBLE, "").toLowerCase();
  const dotted = /^[\s#]*\./.test(folded);
  for (let before = ""; before !== folded;) {
    before = folded;
    folded = folded.replace(/^[\s.#~]+|[\s.#~]+$/g, "");
    folded = folded.replace(BACKUP_ENDINGS, "");
  }
  return dotted ? `.${folded}` : folded;
}

/**
 * Whether a file named `name` holds (or is a copy of) the agent's keys: it folds to
 * `.env…` (but `.env.example`), `env` or `env.…`.
 *
 * @example
 * ```ts
 * import { isSecretName } from "./_secret_name.ts";
 * for (const name of [".env", ".env~", ".ENV", ".env ", "env.backup", ".env.local", "#.env#"]) {
 *   if (!isSecretName(name)) throw new Error(name);
 * }
 * for (const name of [".env.example", "environment.md", "persona.md", "env-setup.md"]) {
 *   if (isSecretName(name)) throw new Error(name);
 * }
 * ```
 */
export function isSecretName(name: string): boolean {
  const folded = foldFileName(name);
  if (folded === ".env.example" || folded === "env.example") return false;
  return folded.startsWith(".env") || folded === "env" || folded.startsWith("env.");
}
