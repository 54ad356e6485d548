/**
 * Where cloud mode's spine is: `AGENT_SPINE_URL` and `AGENT_SPINE_TOKEN` from `.env` or
 * the environment. A leaf of its own so a command's `--cloud` option can check them
 * without loading the spine client.
 *
 * @module
 */
import { catalogue, type Lang } from "./i18n.ts";
import { UserError } from "./user_error.ts";

const t = catalogue({
  missing_variable: "Cloud mode needs {variable} in .env or the environment.",
}, {
  missing_variable: "Bulut kipi için .env dosyasında ya da ortamda {variable} gerekli.",
});

/**
 * The spine URL and token of cloud mode (`agent cloud`, and every `--cloud` option), or
 * the one line saying which is missing: a usage error (exit 2), as it is the setting
 * the command needs, not a failure of the spine.
 */
export function cloudTarget(
  env: Readonly<Record<string, string | undefined>>,
  lang: Lang,
): { url: string; token: string } {
  const url = env.AGENT_SPINE_URL?.trim().replace(/\/+$/, "");
  const token = env.AGENT_SPINE_TOKEN?.trim();
  if (!url) throw new UserError(t(lang, "missing_variable", { variable: "AGENT_SPINE_URL" }), 2);
  if (!token) {
    throw new UserError(t(lang, "missing_variable", { variable: "AGENT_SPINE_TOKEN" }), 2);
  }
  return { url, token };
}
