/**
 * Builds the network node from the hub's configuration: `AGENT_SPINE_URL`,
 * `AGENT_SPINE_TOKEN` and an identity must all be there, else the network is not
 * configured (and says which piece is missing).
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import type { Logger } from "../log.ts";
import type { AgentPaths } from "../paths.ts";
import { loadIdentity } from "./identity_file.ts";
import { NetNode } from "./node.ts";
import { SpineClient } from "./spine_client.ts";
import { NetState, SpineDocuments } from "./store/mod.ts";

/** The result of {@linkcode openNetwork}. */
export type OpenedNetwork =
  | { ok: true; node: NetNode }
  | { ok: false; missing: NetMissing; state: NetState };

/** What the network lacks before it can run (a code; {@linkcode describeMissing} words it). */
export type NetMissing = "spine_url" | "spine_token" | "https_spine_url" | "identity";

/** The missing piece as a phrase in the user's language, for "missing {missing}" sentences. */
export function describeMissing(missing: NetMissing, lang: Lang): string {
  return t(lang, `missing_${missing}`);
}

/** Why the network service is idle, for the hub's status: `not configured: missing ...`. */
export function notConfiguredDetail(missing: NetMissing, lang: Lang): string {
  return t(lang, "not_configured", { missing: describeMissing(missing, lang) });
}

/** Options for {@linkcode openNetwork}. */
export interface OpenNetworkOptions {
  config: AgentConfig;
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  logger: Logger;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * The network store `[net] store` names: the spine's state API (`spine`, when the
 * spine URL and token are there) or files under `<AGENT_DATA_DIR>/net/`.
 */
export function openState(
  config: AgentConfig,
  env: Readonly<Record<string, string | undefined>>,
  paths: AgentPaths,
  options: { fetch?: typeof fetch } = {},
): NetState {
  const url = env.AGENT_SPINE_URL?.trim();
  const token = env.AGENT_SPINE_TOKEN?.trim();
  return config.net.store === "spine" && url && token
    ? new NetState(new SpineDocuments(url, token, options))
    : NetState.file(paths.netDir);
}

/** Opens the network store and, when configured, the node. */
export async function openNetwork(options: OpenNetworkOptions): Promise<OpenedNetwork> {
  const { env, paths } = options;
  const url = env.AGENT_SPINE_URL?.trim();
  const token = env.AGENT_SPINE_TOKEN?.trim();
  const state = openState(
    options.config,
    env,
    paths,
    options.fetch ? { fetch: options.fetch } : {},
  );
  if (!url) return { ok: false, missing: "spine_url", state };
  if (!token) return { ok: false, missing: "spine_token", state };
  if (!spineUrlAllowed(url)) return { ok: false, missing: "https_spine_url", state };
  const loaded = await loadIdentity(paths, env);
  if (loaded === undefined) return { ok: false, missing: "identity", state };
  const spine = new SpineClient(url, token, options.fetch ? { fetch: options.fetch } : {});
  return {
    ok: true,
    node: new NetNode({
      config: options.config,
      env,
      paths,
      logger: options.logger,
      identity: loaded.identity,
      state,
      spine,
      allowInsecure: env.AGENT_NET_ALLOW_INSECURE === "1",
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.now ? { now: options.now } : {}),
    }),
  };
}

/**
 * Whether the hub may use `url` for its own spine: https anywhere, http only on
 * `localhost` or `127.0.0.1` (the token must never cross a network in clear text).
 */
export function spineUrlAllowed(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === "https:") return true;
  return parsed.protocol === "http:" &&
    (parsed.hostname === "localhost" || parsed.hostname === "127.0.0.1");
}
