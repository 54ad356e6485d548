/**
 * The messenger's settings: `MESSENGER_BOT_TOKEN` (the channel runs only with it),
 * `MESSENGER_ALLOWED_CHAT_IDS` (comma-separated; when set it wins over
 * `[messenger] allowed_chat_ids`), `MESSENGER_API_ROOT` (a self-hosted Bot API server
 * or a test server), `[messenger] mode` and `MESSENGER_WEBHOOK_SECRET`, and the
 * approval timeout.
 *
 * @module
 */
import type { AgentConfig } from "../../config/types.ts";

/** What the channel runs with. */
export interface MessengerSettings {
  token: string;
  /** Chat ids (as strings) that reach the agent. */
  allowed: Set<string>;
  /** The Bot API root; undefined for the public one. */
  apiRoot: string | undefined;
  mode: "polling" | "webhook";
  /** The secret every webhook request must carry (webhook mode). */
  webhookSecret: string | undefined;
  approvalTimeoutMs: number;
  /** The shortest time between two edits in one chat (Telegram's edit rate). @default 1000 */
  editIntervalMs: number;
}

/** The settings, or `undefined` when no token is set (the channel does not run). */
export function messengerSettings(
  config: AgentConfig,
  env: Readonly<Record<string, string | undefined>>,
): MessengerSettings | undefined {
  const token = env.MESSENGER_BOT_TOKEN?.trim();
  if (!token) return undefined;
  return {
    token,
    allowed: allowedChats(config, env),
    apiRoot: env.MESSENGER_API_ROOT?.trim().replace(/\/+$/, "") || undefined,
    mode: config.messenger.mode,
    webhookSecret: env.MESSENGER_WEBHOOK_SECRET?.trim() || undefined,
    approvalTimeoutMs: config.messenger.approval_timeout_seconds * 1000,
    editIntervalMs: 1_000,
  };
}

/**
 * The allowed chat ids: `MESSENGER_ALLOWED_CHAT_IDS` when it is set and not empty,
 * else `[messenger] allowed_chat_ids`.
 *
 * @example
 * ```ts
 * import { allowedChats } from "./settings.ts";
 * const config = { messenger: { allowed_chat_ids: ["1"] } } as never;
 * const ids = allowedChats(config, { MESSENGER_ALLOWED_CHAT_IDS: " 42, -100 ,," });
 * if ([...ids].join() !== "42,-100") throw new Error([...ids].join());
 * ```
 */
export function allowedChats(
  config: Pick<AgentConfig, "messenger">,
  env: Readonly<Record<string, string | undefined>>,
): Set<string> {
  const fromEnv = (env.MESSENGER_ALLOWED_CHAT_IDS ?? "").split(",").map((id) => id.trim())
    .filter((id) => /^-?\d+$/.test(id));
  return new Set(fromEnv.length > 0 ? fromEnv : config.messenger.allowed_chat_ids);
}

/**
 * The entries of `MESSENGER_ALLOWED_CHAT_IDS` that are not chat ids (a chat id is a
 * whole number, negative for groups), which the hub leaves out.
 *
 * @example
 * ```ts
 * import { invalidChatIds } from "./settings.ts";
 * const bad = invalidChatIds({ MESSENGER_ALLOWED_CHAT_IDS: "42, abc,-100,1.5" });
 * if (bad.join() !== "abc,1.5") throw new Error(bad.join());
 * ```
 */
export function invalidChatIds(env: Readonly<Record<string, string | undefined>>): string[] {
  return (env.MESSENGER_ALLOWED_CHAT_IDS ?? "").split(",").map((id) => id.trim())
    .filter((id) => id !== "" && !/^-?\d+$/.test(id));
}
