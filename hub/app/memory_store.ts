/**
 * Opens the memory store a process's conversations use, in one place for the hub,
 * `agent chat` and `agent jobs run`: the spine's for a cloud brain (its container's
 * disk is lost when it stops), else `<data>/memory.sqlite3`. Memory is an extra: a
 * store that cannot be opened leaves the process without it (turns go on, and the log
 * says why).
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { AgentPaths } from "../paths.ts";
import { type MemoryStore, SpineMemoryStore, SqliteMemoryStore } from "../memory/mod.ts";

/** The cloud brain's own spine (its memory lives there). */
export interface MemorySpine {
  url: string;
  token: string;
  fetch?: typeof fetch | undefined;
}

/** The memory store, or `undefined` when `[memory]` is off or the store cannot be opened. */
export function openMemory(
  config: AgentConfig,
  paths: AgentPaths,
  lang: Lang,
  logger: Logger,
  cloud?: MemorySpine | undefined,
): MemoryStore | undefined {
  if (!config.memory.enabled) return undefined;
  if (cloud !== undefined) {
    return new SpineMemoryStore(cloud.url, cloud.token, {
      lang,
      ...(cloud.fetch ? { fetch: cloud.fetch } : {}),
    });
  }
  try {
    return new SqliteMemoryStore(paths.memoryFile, { lang, warn: (line) => logger.warn(line) });
  } catch (error) {
    logger.warn(`memory: ${errorMessage(error)}; turns go on without memory`);
    return undefined;
  }
}
