/**
 * The doctor checks that need nothing but files and the environment: configuration,
 * roles and credentials, session store, persona files, `.env`, components.
 *
 * @module
 */
import { missingCredential } from "../credentials.ts";
import { envNames, malformedEnvLines, parseEnv } from "../env_file.ts";
import { lookupPrice } from "../config/prices.ts";
import type { CheckResult, DoctorContext } from "./types.ts";
import { t } from "./_messages.ts";
import { errorLine, errorMessage } from "@agent/net/common";

/** `config`: agent.toml exists and is valid. */
export function configCheck(d: DoctorContext): Promise<CheckResult[]> {
  if (d.config !== undefined) {
    const roles = Object.keys(d.config.models.roles).length;
    return one("config", "ok", t(d.lang, "config_ok", { path: d.paths.configFile, roles }));
  }
  const error = d.configError;
  if (error?.kind === "missing") {
    return one("config", "fail", t(d.lang, "config_missing", { path: d.paths.configFile }));
  }
  return one("config", "fail", error?.message ?? "agent.toml");
}

/** `role <name>`: provider and credentials of each role (no client is built). */
export function rolesCheck(d: DoctorContext): Promise<CheckResult[]> {
  if (d.config === undefined) return Promise.resolve([]);
  const roles = Object.entries(d.config.models.roles);
  if (roles.length === 0) return one("roles", "warn", t(d.lang, "roles_none"));
  const out: CheckResult[] = [];
  for (const [name, role] of roles) {
    const check = `role ${name}`;
    const variable = missingCredential(role, d.env);
    if (variable !== undefined) {
      const fb = role.fallback;
      if (fb !== undefined && missingCredential(fb, d.env) === undefined) {
        out.push({
          name: check,
          status: "warn",
          detail: t(d.lang, "role_fallback", {
            provider: role.provider,
            variable,
            fbProvider: fb.provider,
            fbModel: fb.model_id,
          }),
        });
      } else {
        out.push({
          name: check,
          status: "fail",
          detail: t(d.lang, "role_missing", { provider: role.provider, variable }),
        });
      }
      continue;
    }
    const free = role.provider === "local-runtime" || role.provider === "fake";
    if (role.budget !== undefined && !free && lookupPrice(d.config, role.model_id) === undefined) {
      out.push({
        name: check,
        status: "warn",
        detail: t(d.lang, "role_unpriced", { id: role.model_id, key: tomlKey(role.model_id) }),
      });
      continue;
    }
    // A local-runtime role's line is the local server check's, which says whether the
    // server answers: an `ok` here followed by "not reachable" there read as a contradiction.
    if (role.provider === "local-runtime") continue;
    out.push({
      name: check,
      status: "ok",
      detail: t(d.lang, "role_ok", { provider: role.provider, model: role.model_id }),
    });
  }
  if (!("brain" in d.config.models.roles)) {
    out.push({ name: "roles", status: "fail", detail: t(d.lang, "roles_no_brain") });
  }
  return Promise.resolve(out);
}

/** `sessions`: the session store can be used. */
export async function sessionsCheck(d: DoctorContext): Promise<CheckResult[]> {
  const backend = d.config?.sessions.backend ?? "file";
  // A backend no enabled component provides would leave chat without its store.
  const registry = await d.registry();
  const provided = registry.components.some((c) =>
    c.group === "agent.sessions" && c.name === backend && c.enabled
  );
  if (!provided) {
    return [{
      name: "sessions",
      status: "fail",
      detail: t(d.lang, "sessions_no_component", { backend }),
    }];
  }
  if (backend === "spine") {
    for (const variable of ["AGENT_SPINE_URL", "AGENT_SPINE_TOKEN"]) {
      if (!d.env[variable]) {
        return [{
          name: "sessions",
          status: "fail",
          detail: t(d.lang, "sessions_spine_missing", { variable }),
        }];
      }
    }
    return [{
      name: "sessions",
      status: "ok",
      detail: t(d.lang, "sessions_spine_ok", { url: d.env.AGENT_SPINE_URL ?? "" }),
    }];
  }
  const path = d.paths.sessionsDir;
  try {
    const info = await Deno.stat(path);
    if (!info.isDirectory) {
      return [{
        name: "sessions",
        status: "fail",
        detail: t(d.lang, "sessions_not_dir", { path }),
      }];
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return [{ name: "sessions", status: "ok", detail: t(d.lang, "sessions_file_new", { path }) }];
    }
    throw error;
  }
  // Writable: create and remove a probe file.
  const probe = `${path}/.doctor-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(probe, "", { createNew: true, mode: 0o600 });
    await Deno.remove(probe);
  } catch (error) {
    const detail = errorMessage(error);
    return [{
      name: "sessions",
      status: "fail",
      detail: t(d.lang, "sessions_not_writable", { path, detail }),
    }];
  }
  return [{ name: "sessions", status: "ok", detail: t(d.lang, "sessions_file_ok", { path }) }];
}

/** `persona`: persona.md and user.md exist. */
export async function personaCheck(d: DoctorContext): Promise<CheckResult[]> {
  const files = ["persona.md", "user.md"];
  const out: CheckResult[] = [];
  for (const file of files) {
    if (!(await exists(`${d.paths.personaDir}/${file}`))) {
      out.push({
        name: "persona",
        status: "warn",
        detail: t(d.lang, "persona_missing", { file: `persona/${file}` }),
      });
    }
  }
  if (out.length > 0) return out;
  return [{
    name: "persona",
    status: "ok",
    detail: t(d.lang, "persona_ok", { files: files.map((f) => `persona/${f}`).join(", ") }),
  }];
}

/** `.env`: mode 0600, and every name in it listed in `.env.example`. */
export async function envCheck(d: DoctorContext): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const path = d.paths.envFile;
  let mode: number | null = null;
  try {
    mode = (await Deno.stat(path)).mode;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    return [{ name: ".env", status: "info", detail: t(d.lang, "env_missing", { path }) }];
  }
  if (mode !== null && (mode & 0o077) !== 0) {
    out.push({
      name: ".env",
      status: "warn",
      detail: t(d.lang, "env_mode", { path, mode: `0${(mode & 0o777).toString(8)}` }),
    });
  }
  const text = await Deno.readTextFile(path);
  const names = Object.keys(parseEnv(text));
  const malformed = malformedEnvLines(text);
  if (malformed.length > 0) {
    out.push({
      name: ".env",
      status: "warn",
      detail: t(d.lang, "env_malformed", { path, lines: malformed.join(", ") }),
    });
  }
  let listed: string[];
  try {
    listed = envNames(await Deno.readTextFile(d.paths.envExampleFile));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    out.push({
      name: ".env",
      status: "warn",
      detail: t(d.lang, "env_example_missing", { path: d.paths.envExampleFile }),
    });
    return out;
  }
  const unlisted = names.filter((n) => !listed.includes(n));
  if (unlisted.length > 0) {
    out.push({
      name: ".env",
      status: "warn",
      detail: t(d.lang, "env_unlisted", { names: unlisted.join(", ") }),
    });
  } else if (out.length === 0) {
    out.push({ name: ".env", status: "ok", detail: t(d.lang, "env_ok", { count: names.length }) });
  }
  return out;
}

/**
 * `folders`: the home, data, logs and network folders are the owner's alone (0700), and
 * the data folder (or the home, before it exists) can be written: on a read-only home
 * chat, the hub and jobs cannot start, and every other line would still say `ok`.
 */
export async function foldersCheck(d: DoctorContext): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const writable = await writeProbe(d.paths.dataDir) ?? await writeProbe(d.paths.home);
  if (writable !== undefined && writable !== true) {
    out.push({
      name: "folders",
      status: "fail",
      detail: t(d.lang, "folder_not_writable", writable),
    });
  }
  const logs = d.paths.logFile.slice(0, d.paths.logFile.lastIndexOf("/"));
  for (const path of [d.paths.home, d.paths.dataDir, logs, d.paths.netDir]) {
    let mode: number | null;
    try {
      mode = (await Deno.stat(path)).mode;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    if (mode !== null && (mode & 0o077) !== 0) {
      out.push({
        name: "folders",
        status: "warn",
        detail: t(d.lang, "folder_mode", { path, mode: `0${(mode & 0o777).toString(8)}` }),
      });
    }
  }
  return out;
}

/** `components`: load errors and `[components]` names nothing provides. */
export async function componentsCheck(d: DoctorContext): Promise<CheckResult[]> {
  const registry = await d.registry();
  const out: CheckResult[] = [];
  for (const e of registry.errors) {
    out.push({
      name: "components",
      status: "fail",
      detail: t(d.lang, "components_error", { module: e.module, detail: e.detail }),
    });
  }
  // An extra component can import fine and still fail when it is loaded (a missing
  // key, a broken dependency): load each once, as `agent components` does.
  for (const c of registry.components) {
    if (c.source === "builtin" || c.load === undefined || !c.enabled) continue;
    try {
      await c.load();
    } catch (error) {
      const detail = errorLine(error);
      out.push({
        name: "components",
        status: "fail",
        detail: t(d.lang, "component_load_error", { name: c.name, module: c.source, detail }),
      });
    }
  }
  for (const name of registry.unknownDisabled) {
    out.push({
      name: "components",
      status: "warn",
      detail: t(d.lang, "components_unknown", { name }),
    });
  }
  if (out.length === 0) {
    out.push({
      name: "components",
      status: "ok",
      detail: t(d.lang, "components_ok", { count: registry.components.length }),
    });
  }
  return out;
}

/**
 * A model id as a TOML table key: bare when TOML allows it, else quoted (`"gpt-5.2"`:
 * a dot would split the key).
 *
 * @example
 * ```ts
 * import { tomlKey } from "./core_checks.ts";
 * if (tomlKey("gpt-5.2") !== '"gpt-5.2"' || tomlKey("claude-sonnet-5") !== "claude-sonnet-5") throw new Error();
 * ```
 */
export function tomlKey(id: string): string {
  return /^[A-Za-z0-9_-]+$/.test(id) ? id : JSON.stringify(id);
}

/**
 * Whether `dir` can be written: `true`, the folder and the OS's reason when not, or
 * `undefined` when it does not exist. The probe file is removed at once.
 */
async function writeProbe(
  dir: string,
): Promise<true | { path: string; detail: string } | undefined> {
  const probe = `${dir}/.doctor-write-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(probe, "", { createNew: true, mode: 0o600 });
    await Deno.remove(probe);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    return { path: dir, detail: errorMessage(error) };
  }
}

function one(name: string, status: CheckResult["status"], detail: string): Promise<CheckResult[]> {
  return Promise.resolve([{ name, status, detail }]);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
