/**
 * Reloading `agent.toml` into a running hub, the one path every edit takes (the
 * dashboard's Settings page after it saves, `POST /config/reload` on the control API
 * for a command that edited the file): the file is read and checked by the same
 * reader as every command (a bad file changes nothing and answers its sentence), and
 * `[models]` (roles, models, budgets, prices) replaces the running configuration's in
 * place. Every part of the hub reads the roles from that one object when it calls (the
 * desk, jobs, budgets, the network turn), and the model router decides each role's
 * target again, so the next call uses the new values. Sections that set up what runs
 * (`[net]`, `[messenger]`, `[hub]`, `[sessions]`, `[components]`, `[ui]`) are built
 * once when the hub starts: a change to one of them is reported as needing a restart.
 *
 * @module
 */
import { loadConfig } from "./read.ts";
import type { AgentConfig } from "./types.ts";
import type { Lang } from "../i18n.ts";
import type { AgentPaths } from "../paths.ts";

/** What a reload did. */
export interface ConfigReload {
  /** The sections the running hub uses now (`models` when it changed). */
  applied: string[];
  /** The sections that changed in the file but take effect at the next start. */
  restart: string[];
}

/** What {@linkcode configReloader} reloads into. */
export interface ReloadTarget {
  /** The running configuration: the object every part of the hub holds. */
  config: AgentConfig;
  paths: AgentPaths;
  lang: Lang;
  /** The model router (`ModelRouter.reload`): decides each role's target again. */
  router: { reload(): void };
}

/** The reload of `target`; calls run one after another. */
export function configReloader(target: ReloadTarget): () => Promise<ConfigReload> {
  let last: Promise<unknown> = Promise.resolve();
  return () => {
    const run = last.then(() => reloadInto(target), () => reloadInto(target));
    last = run.catch(() => {});
    return run;
  };
}

async function reloadInto(target: ReloadTarget): Promise<ConfigReload> {
  const { config } = target;
  const fresh = await loadConfig(target.paths, { lang: target.lang });
  const applied: string[] = [];
  const restart: string[] = [];
  for (const key of Object.keys(fresh) as (keyof AgentConfig)[]) {
    if (JSON.stringify(fresh[key]) === JSON.stringify(config[key])) continue;
    if (key === "models") applied.push(key);
    else restart.push(key);
  }
  if (applied.includes("models")) config.models = fresh.models;
  // Also when only the environment changed (a credential saved through the page).
  target.router.reload();
  return { applied, restart };
}
