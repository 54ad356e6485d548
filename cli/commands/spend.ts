/**
 * `agent spend [--json] [--forecast] [--cloud] [--by channel|contact|session|purpose|day|job
 * [--role ROLE] [--period day|week|month]]`: each role's spend in its current period, a
 * breakdown, and a forecast, read from `agent.toml` and the ledger directly (no hub
 * needed), opened read-only. A missing ledger means nothing was spent yet; it is not
 * created just to be read. `--cloud` reports the cloud ledger of the spine in
 * `AGENT_SPINE_URL` instead (cloud mode's brain writes there). Loads no provider SDK.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import { UsageError } from "../command.ts";
import {
  CloudLedger,
  cloudSince,
  forecastLine,
  forecastReport,
  isSpendBy,
  Ledger,
  LedgerError,
  ledgerErrorSentence,
  SPEND_BY,
  spendBy,
  spendByLines,
  spendLines,
  spendReport,
} from "@agent/hub/money";
import { catalogue, cloudTarget } from "@agent/hub/base";
import { hasRole } from "@agent/hub/config";
import { errorMessage } from "@agent/net/common";

const t = catalogue({
  summary: "Show what each role spent in its current budget period.",
  opt_json: "print {<role>: <spend object>} as JSON (with --by: the breakdown)",
  opt_by:
    "break spend down by channel, contact, session, purpose (answers, compaction), day or job",
  opt_role: "with --by: only this role's calls",
  opt_period: "with --by: day, week or month (default: the role's budget period, else month)",
  opt_forecast: "add one line: when each budgeted role reaches its cap at this pace",
  bad_by: "--by needs one of {values}, not '{value}'.",
  bad_period: "--period needs day, week or month, not '{value}'.",
  bad_role: "There is no role '{value}' in agent.toml (roles: {roles}).",
  needs_by: "{option} goes with --by.",
  opt_cloud: "report the cloud ledger of the spine in AGENT_SPINE_URL (cloud mode)",
  cloud_failed: "Cannot read the cloud ledger: {detail}",
}, {
  summary: "Her rolün geçerli bütçe döneminde harcadığını gösterir.",
  opt_json: "rol başına harcama nesnesini JSON olarak yazar (--by ile: dökümü)",
  opt_by:
    "harcamayı kanala, kişiye, oturuma, amaca (yanıtlar, özetleme), güne ya da göreve göre döker",
  opt_role: "--by ile: yalnızca bu rolün çağrıları",
  opt_period: "--by ile: day, week ya da month (varsayılan: rolün bütçe dönemi, yoksa month)",
  opt_forecast: "bir satır ekler: her bütçeli rol bu hızla sınırına ne zaman ulaşır",
  bad_by: "--by şunlardan birini ister: {values}; '{value}' değil.",
  bad_period: "--period day, week ya da month ister; '{value}' değil.",
  bad_role: "agent.toml içinde '{value}' rolü yok (roller: {roles}).",
  needs_by: "{option} yalnızca --by ile kullanılır.",
  opt_cloud: "AGENT_SPINE_URL içindeki spine'ın bulut defterini gösterir (bulut kipi)",
  cloud_failed: "Bulut defteri okunamıyor: {detail}",
});

const PERIODS = ["day", "week", "month"] as const;

/** `agent spend`. */
export const command: CommandModule = {
  name: "spend",
  summary: { en: t("en", "summary"), tr: t("tr", "summary") },
  configure(cmd, lang) {
    cmd.option("--json", t(lang, "opt_json"))
      .option("--by <what>", t(lang, "opt_by"))
      .option("--role <role>", t(lang, "opt_role"))
      .option("--period <period>", t(lang, "opt_period"))
      .option("--forecast", t(lang, "opt_forecast"))
      .option("--cloud", t(lang, "opt_cloud"));
  },
  plainFlags: ["--json", "--forecast", "--cloud"],
  plainOptions: ["--by", "--role", "--period"],
  async run(ctx, _args, opts) {
    const lang = ctx.lang;
    const by = opts.by;
    if (by !== undefined && !isSpendBy(by)) {
      throw new UsageError(t(lang, "bad_by", { values: SPEND_BY.join(", "), value: String(by) }));
    }
    for (const option of ["role", "period"] as const) {
      if (opts[option] !== undefined && by === undefined) {
        throw new UsageError(t(lang, "needs_by", { option: `--${option}` }));
      }
    }
    const period = opts.period;
    if (period !== undefined && !(PERIODS as readonly unknown[]).includes(period)) {
      throw new UsageError(t(lang, "bad_period", { value: String(period) }));
    }
    const config = await ctx.config();
    const role = typeof opts.role === "string" ? opts.role : undefined;
    if (role !== undefined && !hasRole(config, role)) {
      const roles = Object.keys(config.models.roles).join(", ");
      throw new UsageError(t(lang, "bad_role", { value: role, roles }));
    }
    let ledger: Ledger | undefined;
    let cloudCopy: string | undefined;
    try {
      const now = Date.now();
      if (opts.cloud === true) {
        const copy = await cloudLedgerCopy(ctx.env, lang, now);
        if (typeof copy === "number") return copy;
        ({ ledger, dir: cloudCopy } = copy);
      } else {
        ledger = Ledger.openExisting(ctx.paths.ledgerFile);
      }
      if (by !== undefined) {
        const report = spendBy(config, ledger, {
          by,
          role,
          period: period as typeof PERIODS[number] | undefined,
          nowMs: now,
        });
        // --forecast goes with a breakdown too: the same line (or key) after it.
        const forecast = opts.forecast === true
          ? forecastReport(spendReport(config, ledger, now), now)
          : undefined;
        if (opts.json === true) {
          ctx.out(JSON.stringify(forecast ? { ...report, forecast } : report, null, 2));
        } else {
          for (const line of spendByLines(report, lang)) ctx.out(line);
          if (forecast) ctx.out(forecastLine(forecast, lang));
        }
        return 0;
      }
      const report = spendReport(config, ledger, now);
      if (opts.json === true) {
        // The spec's shape stays as it is; the forecast travels beside it only when asked.
        const json = opts.forecast === true
          ? { ...report, forecast: forecastReport(report, now) }
          : report;
        ctx.out(JSON.stringify(json, null, 2));
      } else {
        for (const line of spendLines(report, lang)) ctx.out(line);
        if (opts.forecast === true) ctx.out(forecastLine(forecastReport(report, now), lang));
      }
      return 0;
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      ctx.err(ledgerErrorSentence(lang, error));
      return 1;
    } finally {
      ledger?.close();
      if (cloudCopy !== undefined) await Deno.remove(cloudCopy, { recursive: true });
    }

    /** The cloud ledger's rows of the current periods, in a private temporary ledger. */
    async function cloudLedgerCopy(
      env: Readonly<Record<string, string | undefined>>,
      lang: typeof ctx.lang,
      now: number,
    ): Promise<{ ledger: Ledger; dir: string } | number> {
      const { url, token } = cloudTarget(env, lang);
      let rows;
      try {
        rows = await new CloudLedger(url, token).rows(cloudSince(now));
      } catch (error) {
        ctx.err(t(lang, "cloud_failed", { detail: errorMessage(error) }));
        return 1;
      }
      const dir = await Deno.makeTempDir({ prefix: "agent-cloud-ledger-" });
      const copy = Ledger.open(`${dir}/spend.sqlite3`);
      copy.importRows(rows);
      return { ledger: copy, dir };
    }
  },
};
