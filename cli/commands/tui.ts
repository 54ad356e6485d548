/**
 * `agent tui [--profile NAME] [--resume [ID]]`: the full-screen terminal interface.
 * Thin over `cli/tui/`; Ink, React and the provider SDKs load only when this runs.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import { t } from "../tui/_messages.ts";

/** `agent tui`. */
export const command: CommandModule = {
  name: "tui",
  summary: { en: t("en", "summary"), tr: t("tr", "summary") },
  configure(cmd, lang) {
    cmd
      .option("--profile <name>", t(lang, "opt_profile"))
      .option("--resume [id]", t(lang, "opt_resume"));
  },
  async run(ctx, _args, opts) {
    const { runTui } = await import("../tui/run.tsx");
    const resume = opts.resume;
    return await runTui(ctx, {
      resume: resume === true ? true : typeof resume === "string" ? resume : undefined,
      profile: typeof opts.profile === "string" ? opts.profile : undefined,
    });
  },
};
