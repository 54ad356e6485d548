/**
 * `agent spend [--json]`: each role's spend in its current period, read from
 * `agent.toml` and the ledger directly (no hub needed). A missing ledger means
 * nothing was spent yet; it is not created just to be read. Loads no provider SDK.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import {
  Ledger,
  LedgerError,
  ledgerErrorSentence,
  spendLines,
  spendReport,
} from "@agent/hub/money";

/** `agent spend`. */
export const command: CommandModule = {
  name: "spend",
  summary: {
    en: "Show what each role spent in its current budget period.",
    tr: "Her rolün geçerli bütçe döneminde harcadığını gösterir.",
  },
  configure(cmd, lang) {
    cmd.option(
      "--json",
      lang === "tr"
        ? "rol başına harcama nesnesini JSON olarak yazar"
        : "print {<role>: <spend object>} as JSON",
    );
  },
  plainFlags: ["--json"],
  async run(ctx, _args, opts) {
    const config = await ctx.config();
    let ledger: Ledger | undefined;
    try {
      ledger = Ledger.openExisting(ctx.paths.ledgerFile);
      const report = spendReport(config, ledger, Date.now());
      if (opts.json === true) ctx.out(JSON.stringify(report, null, 2));
      else for (const line of spendLines(report, ctx.lang)) ctx.out(line);
      return 0;
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
      ctx.err(ledgerErrorSentence(ctx.lang, error));
      return 1;
    } finally {
      ledger?.close();
    }
  },
};
