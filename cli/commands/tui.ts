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
    // React's development build checks every render and costs a long answer seconds;
    // it is chosen when React loads, from NODE_ENV, which is then put back as it was.
    const nodeEnv = Deno.env.get("NODE_ENV");
    if (nodeEnv === undefined) Deno.env.set("NODE_ENV", "production");
    let runTui;
    try {
      ({ runTui } = await import("../tui/run.tsx"));
    } finally {
      if (nodeEnv === undefined) Deno.env.delete("NODE_ENV");
    }
    const resume = opts.resume;
    return await runTui(ctx, {
      resume: resume === true ? true : typeof resume === "string" ? resume : undefined,
      profile: typeof opts.profile === "string" ? opts.profile : undefined,
    });
  },
};
