/**
 * What a conversation's agent needs to use memory in its turns: the store, the access
 * its conversation's scope gives (decided by the desk in code), and the `[memory]`
 * settings. A network turn is never given one.
 *
 * @module
 */
import type { MemoryConfig } from "../config/types.ts";
import type { MemoryAccess } from "./scope.ts";
import type { MemoryStore } from "./types.ts";

/** Memory for one conversation's turns. */
export interface TurnMemory {
  store: MemoryStore;
  access: MemoryAccess;
  settings: Pick<MemoryConfig, "enabled" | "recall_tokens" | "pinned_tokens">;
  /**
   * Which memory tools the turn is offered besides the recall before it: a job gets
   * `tier1` (no `forget`, which waits for an owner it has not) or, with no tools,
   * `none`. @default "all"
   */
  tools?: "all" | "tier1" | "none" | undefined;
}

/**
 * The role that reads conversations for memories (and consolidates them in a job): its
 * calls are marked `purpose = memory` in the ledger whatever made them, so `agent spend
 * --by purpose` shows what memory cost.
 */
export const MEMORY_ROLE = "memory";
