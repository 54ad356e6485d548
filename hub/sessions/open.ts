/**
 * The session store `[sessions] backend` names: files under `<AGENT_DATA_DIR>/sessions`
 * (`file`, the default) or the spine's session routes (`spine`, cloud mode; needs
 * `AGENT_SPINE_URL` and `AGENT_SPINE_TOKEN`).
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { AgentPaths } from "../paths.ts";
import { FileSessionStore } from "./file_store.ts";
import { SpineSessionStore } from "./spine_store.ts";
import type { SessionStore } from "./store.ts";
import { UserError } from "../user_error.ts";

/** The store the configuration asks for. */
export function openSessionStore(
  config: Pick<AgentConfig, "sessions">,
  env: Readonly<Record<string, string | undefined>>,
  paths: Pick<AgentPaths, "sessionsDir">,
  options: { fetch?: typeof fetch } = {},
): SessionStore {
  const url = env.AGENT_SPINE_URL?.trim();
  const token = env.AGENT_SPINE_TOKEN?.trim();
  if (config.sessions.backend === "spine") {
    if (!url || !token) {
      const missing = url ? "AGENT_SPINE_TOKEN" : "AGENT_SPINE_URL";
      throw new UserError(`[sessions] backend 'spine' needs ${missing} in .env`, 2);
    }
    return new SpineSessionStore(url, token, options);
  }
  return new FileSessionStore(paths.sessionsDir);
}
