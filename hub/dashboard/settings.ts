/**
 * The Settings page's routes: each role's provider, model and budget from `agent.toml`,
 * edited in place (comments, order and every other line kept) and checked by the same
 * parser as every command, so a bad value is refused with the CLI's exact sentence and
 * nothing is written; and the credentials, shown only as set or not set, set through a
 * form whose value is written to `.env` and never sent back. A saved role applies at
 * once: the running hub reloads `agent.toml` (`hub/app/reload.ts`, the same path as
 * `POST /config/reload`), and a saved model credential is used by the next call; a
 * credential the hub only reads when it starts (the messenger's token, the spine's)
 * is said to need a restart, as is any other section changed in the file meanwhile.
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET settings` | `{file, live, roles: [...], secrets: [{name, set, state, live}]}` (`state`: `needed`, `set` or `optional`) |
 * | `POST settings/role` `{role, provider, model_id, budget_usd?, budget_period?}` | `{saved, cleared, applied, restart}`; an empty `budget_usd` removes the budget; 400 `{detail, field?}` names the refused field |
 * | `POST settings/secret` `{name, value}` | `{saved: sentence, live, restart}`; the value is never echoed |
 *
 * @module
 */
import { HttpError, json, Router } from "@agent/net";
import type { AgentConfig } from "../config/types.ts";
import { hasRole } from "../config/roles.ts";
import { ConfigError } from "../config/error.ts";
import type { Lang } from "../i18n.ts";
import type { AgentPaths } from "../paths.ts";
import { readEnvFile, setEnvKey } from "../env_file.ts";
import { writeFileAtomic } from "../atomic_file.ts";
import { removeTomlTable, setTomlRaw, setTomlString } from "../cloud/toml_keys.ts";
import { credentialLines } from "../credentials.ts";
import { credentialNames, deskSentence } from "../desk/mod.ts";
import type { ConfigReload } from "../config/reload.ts";
import { jsonBody, pageLang } from "./body.ts";
import { checkRoleForm, type FieldProblem } from "./settings_role.ts";
import { t as fieldSentence } from "./_messages.ts";
import type { DashboardSession } from "./auth.ts";
import type { DashboardRoutes } from "./types.ts";

/** What the settings read and write. */
export interface SettingsSources {
  paths: Pick<AgentPaths, "configFile" | "envFile">;
  /** The hub's environment (`.env` merged with the process's): a saved key joins it. */
  env: Record<string, string>;
  lang: Lang;
  /** Reloads `agent.toml` into the running hub; absent: saved values wait for a restart. */
  reload?(): Promise<ConfigReload>;
}

const NAME = /^[A-Za-z0-9_-]+$/;

// The name the CLI's sentences give the file (`loadConfig` says `agent.toml` too).

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The Settings page's routes. */
export function dashboardSettings(sources: SettingsSources): DashboardRoutes {
  const { paths } = sources;
  // A bad file answers the reader's sentence; anything else is the hub's to log.
  const reload = async (): Promise<ConfigReload | undefined> => {
    if (sources.reload === undefined) return undefined;
    try {
      return await sources.reload();
    } catch (error) {
      if (error instanceof ConfigError) {
        throw new HttpError(400, "bad_request", { detail: error.message });
      }
      throw error;
    }
  };
  const read = async (lang: Lang): Promise<{ text: string; config: AgentConfig }> => {
    const text = await Deno.readTextFile(paths.configFile);
    // The TOML parser and the schema load when the settings page is used, not with the hub.
    const { parseConfig } = await import("../config/parse.ts");
    try {
      return { text, config: parseConfig(text, "agent.toml", { lang }) };
    } catch (error) {
      if (error instanceof ConfigError) {
        throw new HttpError(400, "bad_request", { detail: error.message });
      }
      throw error;
    }
  };
  return new Router<DashboardSession>()
    .get("/settings", async (request) => {
      const lang = pageLang(request, sources.lang);
      const { config } = await read(lang);
      const inFile = Object.keys(await readEnvFile(paths.envFile));
      const models = new Set(credentialNames(config));
      const live = sources.reload !== undefined;
      // What a role needs, has, or may go without (a local runtime's address has a default).
      const states = new Map(
        credentialLines(config.models.roles, sources.env).map((l) => [l.name, l.state]),
      );
      return json({
        file: paths.configFile,
        live,
        roles: Object.entries(config.models.roles).map(([role, r]) => ({
          name: role,
          provider: r.provider,
          model_id: r.model_id,
          budget: r.budget
            ? {
              usd: r.budget.usd,
              period: r.budget.period,
              degrade_to: r.budget.degrade_to ?? null,
            }
            : null,
        })),
        secrets: [...new Set([...models, ...inFile])].map((n) => ({
          name: n,
          set: (sources.env[n] ?? "").trim() !== "",
          state: (sources.env[n] ?? "").trim() !== "" ? "set" : states.get(n) ?? "optional",
          // A model credential is read at each call; the rest when the hub starts.
          live: live && models.has(n),
        })),
      });
    })
    .post("/settings/role", async (request) => {
      const lang = pageLang(request, sources.lang);
      const body = await jsonBody(request);
      const role = body.role;
      if (typeof role !== "string" || !NAME.test(role)) {
        throw new HttpError(400, "bad_request", { detail: "role: not a role name" });
      }
      const { text, config } = await read(lang);
      if (!hasRole(config, role)) {
        throw new HttpError(400, "bad_request", { detail: `role: no role '${role}'` });
      }
      const checked = checkRoleForm(body, lang);
      // The field a person typed into, marked on the page with this sentence beside it.
      const refuse = (problem: FieldProblem) =>
        json({ error: "bad_request", detail: problem.sentence, field: problem.field }, 400);
      if ("problem" in checked) return refuse(checked.problem);
      const { edit } = checked;
      const budget = config.models.roles[role]?.budget;
      if (edit.budget && edit.budget.period === undefined && budget === undefined) {
        const usd = String(body.budget_usd).trim();
        return refuse({
          field: "budget_period",
          sentence: fieldSentence(lang, "field_budget_period", { usd }),
        });
      }
      const table = `models.roles.${role}`;
      let next = text;
      if (edit.provider !== undefined) next = setTomlString(next, table, "provider", edit.provider);
      if (edit.model_id !== undefined) next = setTomlString(next, table, "model_id", edit.model_id);
      // An emptied amount removes the budget: the role is no longer capped.
      if (edit.budget === null) next = removeTomlTable(next, `${table}.budget`);
      if (edit.budget) {
        next = setTomlRaw(next, `${table}.budget`, "usd", String(edit.budget.usd));
        if (edit.budget.period !== undefined) {
          next = setTomlString(next, `${table}.budget`, "period", edit.budget.period);
        }
      }
      const { parseConfig } = await import("../config/parse.ts");
      try {
        parseConfig(next, "agent.toml", { lang });
      } catch (error) {
        if (error instanceof ConfigError) {
          throw new HttpError(400, "bad_request", {
            detail: fieldSentence(lang, "field_file", { role, detail: error.message }),
          });
        }
        throw error;
      }
      if (next !== text) {
        const mode = (await Deno.stat(paths.configFile)).mode ?? 0o600;
        await writeFileAtomic(paths.configFile, next, { mode: mode & 0o777 });
      }
      const reloaded = await reload();
      return json({
        saved: next !== text,
        cleared: edit.budget === null && budget !== undefined
          ? fieldSentence(lang, "budget_cleared", { role })
          : null,
        applied: reloaded?.applied ?? [],
        restart: reloaded === undefined ? ["models"] : reloaded.restart,
      });
    })
    .post("/settings/secret", async (request) => {
      const lang = pageLang(request, sources.lang);
      const body = await jsonBody(request);
      const key = typeof body.name === "string" ? body.name : "";
      if (!/^[A-Z][A-Z0-9_]*$/.test(key)) {
        throw new HttpError(400, "bad_request", {
          detail: deskSentence(lang, "settings_bad_name", { name: key }),
        });
      }
      const value = typeof body.value === "string" ? body.value.trim() : "";
      if (value === "") {
        throw new HttpError(400, "bad_request", {
          detail: deskSentence(lang, "settings_empty", { name: key }),
        });
      }
      // An address is checked as one: `not a url` would only fail at the first call.
      if (key.endsWith("_URL") && !isWebAddress(value)) {
        throw new HttpError(400, "bad_request", {
          detail: fieldSentence(lang, "field_url", { name: key }),
        });
      }
      await setEnvKey(paths.envFile, key, value);
      sources.env[key] = value;
      const reloaded = await reload();
      const { config } = await read(lang);
      const live = reloaded !== undefined && credentialNames(config).includes(key);
      return json({
        saved: deskSentence(lang, "settings_saved", { name: key, file: paths.envFile }),
        live,
        restart: reloaded?.restart ?? [],
      });
    });
}
