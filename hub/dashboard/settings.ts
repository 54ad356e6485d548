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
 * | `GET settings` | `{file, live, roles: [...], secrets: [{name, set, live}]}` |
 * | `POST settings/role` `{role, provider, model_id, budget_usd?, budget_period?}` | `{saved, applied, restart}` or 400 with the sentence |
 * | `POST settings/secret` `{name, value}` | `{saved: sentence, live, restart}`; the value is never echoed |
 *
 * @module
 */
import { HttpError, json, Router } from "@agent/net";
import type { AgentConfig } from "../config/types.ts";
import { parseConfig } from "../config/parse.ts";
import { hasRole } from "../config/roles.ts";
import { ConfigError } from "../config/error.ts";
import type { Lang } from "../i18n.ts";
import type { AgentPaths } from "../paths.ts";
import { readEnvFile, setEnvKey } from "../env_file.ts";
import { writeFileAtomic } from "../atomic_file.ts";
import { setTomlRaw, setTomlString } from "../cloud/toml_keys.ts";
import { credentialNames, deskSentence } from "../desk/mod.ts";
import type { ConfigReload } from "../config/reload.ts";
import { jsonBody, pageLang } from "./body.ts";
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
      const table = `models.roles.${role}`;
      let next = text;
      for (const key of ["provider", "model_id"] as const) {
        if (typeof body[key] === "string") next = setTomlString(next, table, key, body[key]);
      }
      if (body.budget_usd !== undefined && body.budget_usd !== "") {
        const usd = Number(body.budget_usd);
        // A number TOML reads as one; anything else goes in as text for the parser to refuse.
        next = setTomlRaw(
          next,
          `${table}.budget`,
          "usd",
          Number.isFinite(usd) ? String(usd) : JSON.stringify(String(body.budget_usd)),
        );
      }
      if (typeof body.budget_period === "string" && body.budget_period !== "") {
        next = setTomlString(next, `${table}.budget`, "period", body.budget_period);
      }
      try {
        parseConfig(next, "agent.toml", { lang });
      } catch (error) {
        if (error instanceof ConfigError) {
          throw new HttpError(400, "bad_request", { detail: error.message });
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
