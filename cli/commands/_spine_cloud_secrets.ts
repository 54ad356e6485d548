/**
 * The secrets `agent net spine deploy` sets on a cloud spine besides `HUB_TOKEN`: the
 * model credentials of the configured roles (and their fallbacks) that the brain
 * container receives, `MESSENGER_BOT_TOKEN`, `MESSENGER_ALLOWED_CHAT_IDS` and
 * `AGENT_NET_IDENTITY` (base64url of the identity JSON) when the hub has an identity.
 * Only values set in the hub's `.env` or environment go up; no value is ever printed.
 *
 * @module
 */
import type { CommandContext } from "../context.ts";
import { CREDENTIAL_VARIABLES, missingCredential } from "@agent/hub/base";
import { loadIdentity } from "@agent/hub/network";
import { identityToEnv } from "@agent/net";
import { CLOUD_SECRET_ORDER } from "@agent/kit/spine";
import type { RoleConfig } from "@agent/hub/config";
import { t } from "./_spine_messages.ts";

/**
 * The `[name, value]` pairs to set, in {@linkcode CLOUD_SECRET_ORDER}; prints a line for
 * each role whose credentials the cloud will lack.
 */
export async function cloudSecrets(ctx: CommandContext): Promise<Array<[string, string]>> {
  const lang = ctx.lang;
  const env = ctx.env;
  const wanted = new Set<string>(["MESSENGER_BOT_TOKEN", "MESSENGER_ALLOWED_CHAT_IDS"]);
  let roles: [string, RoleConfig][] = [];
  try {
    roles = Object.entries((await ctx.config()).models.roles);
  } catch {
    ctx.out(t(lang, "secrets_no_config", { file: ctx.paths.configFile }));
  }
  for (const [role, config] of roles) {
    for (const source of [config, config.fallback]) {
      if (source === undefined) continue;
      for (const name of CREDENTIAL_VARIABLES[source.provider]) wanted.add(name);
      const custom = source.params?.api_key_env;
      if (custom !== undefined && !(CLOUD_SECRET_ORDER as readonly string[]).includes(custom)) {
        ctx.out(t(lang, "secrets_custom_key", { role, variable: custom }));
      }
    }
    const fallback = config.fallback;
    const missing = missingCredential(config, env);
    if (missing !== undefined && (fallback === undefined || missingCredential(fallback, env))) {
      ctx.out(t(lang, "secrets_missing", { role, variable: missing }));
    }
  }
  const values: Record<string, string> = {};
  for (const name of wanted) {
    const value = env[name]?.trim();
    if (value) values[name] = value;
  }
  try {
    const loaded = await loadIdentity(ctx.paths, env);
    if (loaded !== undefined) values.AGENT_NET_IDENTITY = identityToEnv(loaded.identity);
  } catch (error) {
    ctx.out(t(lang, "secrets_identity_unreadable", {
      detail: error instanceof Error ? error.message : String(error),
    }));
  }
  return CLOUD_SECRET_ORDER.filter((name) => values[name] !== undefined)
    .map((name) => [name, values[name]!]);
}
