/**
 * The session store `[sessions] backend` names: files under `<AGENT_DATA_DIR>/sessions`
 * (`file`, the default) or the spine's session routes (`spine`, cloud mode; needs
 * `AGENT_SPINE_URL` and `AGENT_SPINE_TOKEN`), keeping the session search index as it
 * writes.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { AgentPaths } from "../paths.ts";
import { FileSessionStore } from "./file_store.ts";
import { SpineSessionStore } from "./spine_store.ts";
import type { SessionStore } from "./store.ts";
import { UserError } from "../user_error.ts";
import { withSearchIndex } from "./indexed.ts";
import { SESSION_SEARCH_FILE } from "../session_search/mod.ts";

/** The store the configuration asks for. */
export function openSessionStore(
  config: Pick<AgentConfig, "sessions">,
  env: Readonly<Record<string, string | undefined>>,
  paths: Pick<AgentPaths, "sessionsDir" | "dataDir">,
  options: { fetch?: typeof fetch } = {},
): SessionStore {
  const url = env.AGENT_SPINE_URL?.trim();
  const token = env.AGENT_SPINE_TOKEN?.trim();
  if (config.sessions.backend === "spine") {
    if (!url || !token) {
      const missing = url ? "AGENT_SPINE_TOKEN" : "AGENT_SPINE_URL";
      throw new UserError(`[sessions] backend 'spine' needs ${missing} in .env`, 2);
    }
    return indexed(new SpineSessionStore(url, token, options), paths);
  }
  return indexed(new FileSessionStore(paths.sessionsDir), paths);
}

/** Every store keeps the session search index as it writes (`hub/session_search/`). */
function indexed(store: SessionStore, paths: Pick<AgentPaths, "dataDir">): SessionStore {
  return withSearchIndex(store, `${paths.dataDir}/${SESSION_SEARCH_FILE}`);
}
