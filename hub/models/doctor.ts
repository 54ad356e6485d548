/**
 * The doctor's line for each role on the local model server (`role <name>`, in place of
 * the plain role line, so one line says it): whether the server answers and has the
 * role's model pulled (`GET /api/tags`). A server that is down is `info` when a failover
 * stands in, else `warn`; it is never a `fail`, because the server may sleep on another
 * host.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import { isPulled, listPulledModels } from "./local_runtime.ts";
import { localRuntimeBase } from "./target.ts";
import { t } from "./_messages.ts";
import { reasonWords } from "./reason_words.ts";
import { errorMessage } from "@agent/net/common";

/** Options for {@linkcode localRuntimeCheck}. */
export interface LocalRuntimeCheckOptions {
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** One line per `local-runtime` role (or fallback); none when no role uses it. */
export async function localRuntimeCheck(
  d: DoctorContext,
  options: LocalRuntimeCheckOptions = {},
): Promise<CheckResult[]> {
  const roles = d.config?.models.roles ?? {};
  const out: CheckResult[] = [];
  const listings = new Map<string, Promise<string[]>>();
  for (const [name, role] of Object.entries(roles)) {
    for (const target of [role, ...(role.fallback ? [role.fallback] : [])]) {
      if (target.provider !== "local-runtime") continue;
      const base = localRuntimeBase(target.params, d.env);
      let listing = listings.get(base);
      if (listing === undefined) {
        listing = listPulledModels(base, { fetch: options.fetch });
        listings.set(base, listing);
      }
      const label = t(d.lang, target === role ? "label_role" : "label_fallback");
      const vars = { label, model: target.model_id, base };
      const check = `role ${name}`;
      try {
        const pulled = await listing;
        out.push(
          isPulled(target.model_id, pulled)
            ? { name: check, status: "ok", detail: t(d.lang, "pulled", vars) }
            : {
              name: check,
              status: "warn",
              detail: t(d.lang, "not_pulled", {
                ...vars,
                models: pulled.length === 0 ? t(d.lang, "no_models") : pulled.join(", "),
              }),
            },
        );
      } catch (error) {
        const detail = errorMessage(error)
          .replace(/^Cannot list the local models: /, "");
        const standIn = target === role ? role.failover : undefined;
        out.push({
          name: check,
          status: standIn ? "info" : "warn",
          detail: standIn
            ? t(d.lang, "unreachable_stand_in", {
              ...vars,
              detail: reasonWords(d.lang, detail),
              stand_in: standIn,
            })
            : t(d.lang, "unreachable", { ...vars, detail: reasonWords(d.lang, detail) }),
        });
      }
    }
  }
  return out;
}
