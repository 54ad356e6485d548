/**
 * `agent version`: one line per installed `agent-*` distribution, `<name> <version>`.
 * Imports nothing but data, so it starts about as fast as an empty script.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import { versionLines } from "./_version_lines.ts";

/** `agent version`. */
export const command: CommandModule = {
  name: "version",
  summary: {
    en: "Show the version of each installed agent distribution.",
    tr: "Kurulu her agent dağıtımının sürümünü gösterir.",
  },
  configure() {},
  async run(ctx) {
    const lines = versionLines();
    // Distributions of extra components ([components] modules) are installed too.
    try {
      const config = await ctx.config();
      if (config.components.modules.length > 0) {
        const { loadComponents } = await import("@agent/hub/doctor");
        const registry = await loadComponents(config, ctx.paths, { lang: ctx.lang });
        for (const c of registry.components) {
          const line = `${c.distribution} ${c.version}`;
          if (
            c.source !== "builtin" && c.distribution.startsWith("agent-") && !lines.includes(line)
          ) {
            lines.push(line);
          }
        }
      }
    } catch { /* no or broken configuration: the built-in distributions are still installed */ }
    for (const line of lines) ctx.out(line);
    return 0;
  },
};
