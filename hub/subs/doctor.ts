/**
 * The `agent doctor` line about sub-agents: which are public and private, and why an
 * invalid definition answers no one. Prints nothing without `persona/subs/`.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { type EntryProblem, loadSubAgentDirectory } from "./directory.ts";

/** One sentence saying what is wrong with a definition. */
export function describeProblem(problem: EntryProblem, lang: Lang): string {
  switch (problem.code) {
    case "no_front_matter":
    case "unclosed_front_matter":
      return t(lang, "unclosed_front_matter");
    case "bad_line":
      return t(lang, "bad_line", { line: problem.line });
    case "unknown_key":
      return t(lang, "unknown_key", { key: problem.key });
    case "duplicate_key":
      return t(lang, "duplicate_key", { key: problem.key });
    case "bad_public":
      return t(lang, "bad_public", { value: problem.value });
    case "bad_note_name":
      return t(lang, "bad_note_name", { value: problem.value });
    case "bad_role":
      return t(lang, "bad_role", { value: problem.value });
    case "bad_name":
      return t(lang, "bad_name");
    case "unknown_role":
      return t(lang, "unknown_role", { role: problem.role });
    case "note_missing":
      return t(lang, "note_missing", { file: problem.file });
    case "user_md":
      return t(lang, problem.which === "persona" ? "user_md_persona" : "user_md_note");
    case "unreadable":
      return t(lang, "unreadable", { detail: problem.detail });
  }
}

/** `subs`: `ok` with the public and private sub-agents, a `warn` per invalid definition. */
export async function subsCheck(d: DoctorContext): Promise<CheckResult[]> {
  if (d.config === undefined) return [];
  const entries = await loadSubAgentDirectory(d.config, d.paths).entries();
  if (entries.length === 0) return [];
  const list = (names: string[]) =>
    names.length === 0 ? t(d.lang, "none") : names.map((n) => `/${n}`).join(", ");
  const valid = entries.filter((e) => e.problem === undefined);
  const out: CheckResult[] = [];
  if (valid.length > 0) {
    out.push({
      name: "subs",
      status: "ok",
      detail: t(d.lang, "summary", {
        public: list(valid.filter((e) => e.public).map((e) => e.name)),
        private: list(valid.filter((e) => !e.public).map((e) => e.name)),
      }),
    });
  }
  for (const e of entries) {
    if (e.problem === undefined) continue;
    out.push({
      name: "subs",
      status: "warn",
      detail: t(d.lang, "invalid_line", {
        file: `persona/subs/${e.name}.md`,
        problem: describeProblem(e.problem, d.lang),
      }),
    });
  }
  return out;
}
