/**
 * The Settings page's routes: each role's provider, model and budget from `agent.toml`,
 * edited in place (comments, order and every other line kept) and checked by the same
 * parser as every command, so a bad value is refused with the CLI's exact sentence and
 * nothing is written; and the credentials, shown only as set or not set, set through a
 * form whose value is written to `.env` and never sent back. Saved settings apply when
 * the hub starts again (the running hub keeps what it loaded).
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET settings` | `{file, roles: [...], secrets: [{name, set}]}` |
 * | `POST settings/role` `{role, provider, model_id, budget_usd?, budget_period?}` | `{saved}` or 400 with the sentence |
 * | `POST settings/secret` `{name, value}` | `{saved: sentence}`; the value is never echoed |
 *
 * @module
 */
import { HttpError, json, methodNotAllowed } from "@agent/net";
import type { AgentConfig } from "../config/types.ts";
import { parseConfig } from "../config/parse.ts";
import { ConfigError } from "../config/error.ts";
import type { Lang } from "../i18n.ts";
import type { AgentPaths } from "../paths.ts";
import { readEnvFile, setEnvKey } from "../env_file.ts";
import { writeFileAtomic } from "../atomic_file.ts";
import { setTomlRaw, setTomlString } from "../cloud/toml_keys.ts";
import { credentialNames, deskSentence } from "../desk/mod.ts";
import { jsonBody } from "./body.ts";
import type { DashboardChat } from "./types.ts";

/** What the settings read and write. */
export interface SettingsSources {
  paths: Pick<AgentPaths, "configFile" | "envFile">;
  /** The hub's environment (`.env` merged with the process's): a saved key joins it. */
  env: Record<string, string>;
  lang: Lang;
}

const NAME = /^[A-Za-z0-9_-]+$/;

// The name the CLI's sentences give the file (`loadConfig` says `agent.toml` too).

/** The Settings page's routes. */
export function dashboardSettings(sources: SettingsSources): DashboardChat {
  const { paths, lang } = sources;
  const read = async (): Promise<{ text: string; config: AgentConfig }> => {
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
  return {
    async route(name, request) {
      if (name !== "settings" && !name.startsWith("settings/")) return undefined;
      if (name === "settings") {
        if (request.method !== "GET" && request.method !== "HEAD") {
          methodNotAllowed(["GET", "HEAD"]);
        }
        const { config } = await read();
        const inFile = Object.keys(await readEnvFile(paths.envFile));
        return json({
          file: paths.configFile,
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
          secrets: [...new Set([...credentialNames(config), ...inFile])].map((n) => ({
            name: n,
            set: (sources.env[n] ?? "").trim() !== "",
          })),
        });
      }
      if (request.method !== "POST") methodNotAllowed(["POST"]);
      const body = await jsonBody(request);
      if (name === "settings/role") {
        const role = body.role;
        if (typeof role !== "string" || !NAME.test(role)) {
          throw new HttpError(400, "bad_request", { detail: "role: not a role name" });
        }
        const { text, config } = await read();
        if (config.models.roles[role] === undefined) {
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
        return json({ saved: next !== text });
      }
      if (name === "settings/secret") {
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
        return json({
          saved: deskSentence(lang, "settings_saved", { name: key, file: paths.envFile }),
        });
      }
      throw new HttpError(404, "not_found");
    },
  };
}
