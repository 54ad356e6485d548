/**
 * `agent version`: one line per installed `agent-*` distribution, `<name> <version>`.
 * Imports nothing but data, so it starts about as fast as an empty script.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import { installedDistributions } from "./_version_lines.ts";

/** `agent version`. */
export const command: CommandModule = {
  name: "version",
  summary: {
    en: "Show the version of each installed agent distribution.",
    tr: "Kurulu her agent dağıtımının sürümünü gösterir.",
  },
  configure() {},
  run(ctx) {
    for (const line of versionLines()) ctx.out(line);
    return Promise.resolve(0);
  },
};

/** The lines `agent version` prints. */
export function versionLines(): string[] {
  return installedDistributions().map((d) => `${d.name} ${d.version}`);
}
