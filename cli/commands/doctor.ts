/**
 * `agent doctor [--json] [--probe]`: runs every check of `hub/app/doctor.ts` without
 * starting anything or building a model client; `--probe` also logs in to the mail
 * servers `[email]` names. Exit 1 only when a check is `fail`.
 *
 * @module
 */
import type { Command } from "commander";
import type { Lang } from "@agent/hub/base";
import { ConfigError } from "@agent/hub/config";
import type { AgentConfig } from "@agent/hub/config";
import type { Check, CheckResult, DoctorContext, Registry } from "@agent/hub/doctor";
import type { CommandModule } from "../command.ts";
import { t } from "./_messages.ts";
import { errorMessage } from "@agent/net/common";

/** `agent doctor`. */
export const command: CommandModule = {
  name: "doctor",
  summary: { en: t("en", "doctor_summary"), tr: t("tr", "doctor_summary") },
  configure(cmd: Command, lang: Lang) {
    cmd.option("--json", t(lang, "opt_json"));
    cmd.option("--probe", t(lang, "opt_doctor_probe"));
  },
  // `agent doctor`, `--json`, `--probe`: scripts and tests run these; commander stays unloaded.
  plainFlags: ["--json", "--probe"],
  async run(ctx, _args, opts) {
    // A mistyped --home is told, not created: a check must not leave a folder behind
    // (the log would make one).
    if (!exists(ctx.paths.home)) {
      const check: CheckResult = {
        name: "home",
        status: "fail",
        detail: t(ctx.lang, "doctor_no_home", { home: ctx.paths.home }),
      };
      if (opts.json === true) ctx.out(JSON.stringify({ ok: false, checks: [check] }, null, 2));
      else ctx.out(`${check.status} ${check.name}: ${check.detail}`);
      return 1;
    }
    let config: AgentConfig | undefined;
    let configError: ConfigError | undefined;
    try {
      config = await ctx.config();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      configError = error;
    }
    const hub = await import("@agent/hub/doctor");
    const spineKitVersion = ctx.env.AGENT_SPINE_URL
      ? await import("@agent/kit/spine").then((kit) => kit.kitSpineVersion())
      : undefined;
    let registry: Promise<Registry> | undefined;
    const d: DoctorContext = {
      paths: ctx.paths,
      env: ctx.env,
      lang: ctx.lang,
      config,
      configError,
      now: Date.now(),
      spineKitVersion,
      probe: opts.probe === true,
      registry: () =>
        registry ??= hub.loadComponents(config, ctx.paths, {
          lang: ctx.lang,
          extraBuiltins: ctx.commandNames.map((name) => ({ group: "agent.commands", name })),
        }),
    };
    const checks = await runChecks(hub.CHECKS, d);
    const failed = checks.filter((c) => c.status === "fail").length;
    const ok = failed === 0;
    ctx.logger.info(`doctor: ${checks.length} checks, ${failed} failed`);
    if (opts.json === true) {
      ctx.out(JSON.stringify({ ok, checks }, null, 2));
    } else {
      for (const c of checks) ctx.out(`${c.status} ${c.name}: ${c.detail}`);
    }
    return ok ? 0 : 1;
  },
};

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Runs every check in order; a check that throws becomes one `fail` line. */
export async function runChecks(
  checks: readonly Check[],
  d: DoctorContext,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    try {
      results.push(...await check(d));
    } catch (error) {
      const detail = errorMessage(error);
      results.push({
        name: check.name.replace(/Check$/, "") || "doctor",
        status: "fail",
        detail: t(d.lang, "doctor_check_failed", { detail }),
      });
    }
  }
  return results;
}
