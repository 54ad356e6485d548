/**
 * Which target answers for a role: its own provider, or its `fallback` when the
 * role's provider has no credentials and the fallback's are complete. Decided once,
 * when the router (the agent) is built. Light on purpose: `agent chat` and `agent tui`
 * name a missing key with it before the call chain loads.
 *
 * @module
 */
import type { RoleConfig } from "../config/types.ts";
import { missingCredential } from "../credentials.ts";
import type { Logger } from "../log.ts";
import type { ModelTarget } from "../models/mod.ts";
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { ModelCallError } from "./errors.ts";

/** The target of a role, and the variable it still needs (`undefined` when complete). */
export interface TargetChoice {
  target: ModelTarget;
  missing: string | undefined;
}

/** Decides the target of role `name`; logs at INFO when the fallback answers. */
export function chooseTarget(
  name: string,
  role: RoleConfig,
  options: { env: Readonly<Record<string, string | undefined>>; logger: Logger },
): TargetChoice {
  const missing = missingCredential(role, options.env);
  const fallback = role.fallback;
  if (missing === undefined || fallback === undefined) return { target: role, missing };
  if (missingCredential(fallback, options.env) !== undefined) return { target: role, missing };
  options.logger.info(
    `role ${name}: ${role.provider} has no credentials; fallback ${fallback.provider} ${fallback.model_id} answers`,
  );
  return { target: fallback, missing: undefined };
}

/** The sentence for a role whose chosen target still misses a credential, or `undefined`. */
export function missingCredentialSentence(
  lang: Lang,
  name: string,
  choice: TargetChoice,
): string | undefined {
  if (choice.missing === undefined) return undefined;
  return t(lang, "missing_credential", {
    role: name,
    provider: choice.target.provider,
    variable: choice.missing,
  });
}

/**
 * `found`, the entry of a role the caller looked up; a role that has none is refused
 * with the router's one sentence for it. The router and `agent chat`'s early check (which
 * must not build a router) both refuse through here.
 */
export function knownRole<T>(found: T | undefined, lang: Lang, role: string): T {
  if (found === undefined) throw new ModelCallError(t(lang, "unknown_role", { role }));
  return found;
}
