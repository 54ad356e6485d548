/**
 * Checking one role's form on the Settings page field by field before `agent.toml` is
 * touched, so a refusal names the field a person typed into, in the form's words, and
 * the page can mark that field and say the sentence beside it. What the form checks is
 * also what the file's parser checks; the parser still reads the whole result after
 * (a problem elsewhere in the file is said for the form as a whole).
 *
 * @module
 */
import { PROVIDERS } from "../credentials.ts";
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { parseUsd } from "../spend/usd_format.ts";

/** The fields of a role's form. */
export type RoleField = "provider" | "model_id" | "budget_usd" | "budget_period";

/** A refused field: which one, and its sentence. */
export interface FieldProblem {
  field: RoleField;
  sentence: string;
}

/** What a role's form asks, checked: a budget of `null` clears the role's budget. */
export interface RoleEdit {
  provider?: string;
  model_id?: string;
  budget: { usd: number; period?: string } | null | undefined;
}

const PERIODS = ["day", "week", "month"];

/**
 * Checks a role form's body: the edit to make, or the first field it refuses.
 *
 * @example
 * ```ts
 * import { checkRoleForm } from "./settings_role.ts";
 * const r = checkRoleForm({ provider: "fake", model_id: "m", budget_usd: "" }, "en");
 * if (!("edit" in r) || r.edit.budget !== null) throw new Error("an empty amount clears");
 * ```
 */
export function checkRoleForm(
  body: Record<string, unknown>,
  lang: Lang,
): { edit: RoleEdit } | { problem: FieldProblem } {
  const bad = (field: RoleField, sentence: string) => ({ problem: { field, sentence } });
  const provider = typeof body.provider === "string" ? body.provider.trim() : undefined;
  if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) {
    return bad("provider", t(lang, "field_provider", { choices: PROVIDERS.join(", ") }));
  }
  const model = typeof body.model_id === "string" ? body.model_id.trim() : undefined;
  if (model === "") return bad("model_id", t(lang, "field_model_id"));
  const typed = body.budget_usd === undefined ? undefined : String(body.budget_usd);
  const period = typeof body.budget_period === "string" ? body.budget_period : "";
  let budget: RoleEdit["budget"];
  if (typed === undefined) budget = undefined;
  else if (typed.trim() === "") budget = null;
  else {
    const usd = parseUsd(typed, lang);
    if (usd === undefined || !(usd > 0)) return bad("budget_usd", t(lang, "field_budget_usd"));
    if (period !== "" && !PERIODS.includes(period)) {
      return bad("budget_period", t(lang, "field_budget_period", { usd: typed.trim() }));
    }
    budget = period === "" ? { usd } : { usd, period };
  }
  return {
    edit: {
      ...(provider === undefined ? {} : { provider }),
      ...(model === undefined ? {} : { model_id: model }),
      budget,
    },
  };
}
