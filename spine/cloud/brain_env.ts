/**
 * The brain container's environment (document 3): where its spine is, the hub token,
 * and each pass-through secret that is set and not empty. Nothing else of the
 * Worker's environment reaches the container.
 *
 * @module
 */

/** Secrets handed to the container as they are, when set and not empty. */
export const BRAIN_PASS_THROUGH = [
  "VENDOR_A_API_KEY",
  "VENDOR_A_WORKSPACE_ID",
  "VENDOR_D_REGION",
  "VENDOR_D_ACCESS_KEY_ID",
  "VENDOR_D_SECRET_ACCESS_KEY",
  "VENDOR_D_BEARER_TOKEN",
  "VENDOR_B_API_KEY",
  "VENDOR_C_API_KEY",
  "VENDOR_C_ALT_API_KEY",
  "MESSENGER_BOT_TOKEN",
  "MESSENGER_ALLOWED_CHAT_IDS",
  "AGENT_NET_IDENTITY",
  "AGENT_LANG",
] as const;

/** The container's port. */
export const BRAIN_PORT = 8080;

/**
 * `AGENT_SPINE_URL` (`SPINE_URL`, else `https://<ADDRESS>`, without a trailing slash;
 * left out when neither is set), `AGENT_SPINE_TOKEN` (`HUB_TOKEN`) and the pass-through
 * secrets.
 *
 * @example
 * ```ts
 * import { brainEnvironment } from "./brain_env.ts";
 * const env = brainEnvironment({ ADDRESS: "me.example", HUB_TOKEN: "t", VENDOR_B_API_KEY: "" });
 * if (env.AGENT_SPINE_URL !== "https://me.example" || "VENDOR_B_API_KEY" in env) throw new Error();
 * ```
 */
export function brainEnvironment(
  env: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const text = (name: string) => {
    const value = env[name];
    return typeof value === "string" ? value.trim() : "";
  };
  const out: Record<string, string> = {};
  const address = text("ADDRESS");
  const url = text("SPINE_URL") || (address ? `https://${address}` : "");
  if (url) out.AGENT_SPINE_URL = url.replace(/\/+$/, "");
  if (text("HUB_TOKEN")) out.AGENT_SPINE_TOKEN = text("HUB_TOKEN");
  for (const name of BRAIN_PASS_THROUGH) {
    if (text(name)) out[name] = text(name);
  }
  return out;
}
