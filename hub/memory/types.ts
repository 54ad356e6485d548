/**
 * What a memory is: one short text the agent keeps between conversations, in one scope,
 * with where it came from and whether it is still in force. Every store (the local
 * SQLite file, the spine's D1 in cloud mode) speaks these types.
 *
 * @module
 */
import { MEMORY_KIND_NAMES, type MemoryKindName, type MemoryScope } from "@agent/net/memory";

/**
 * Whose a memory is. `owner`: the owner's own conversations in every channel and the
 * owner's jobs. `person:<id>`: someone else the agent talks to for the owner (an e-mail
 * address, a messenger user id); their memories only. `conversation:<key>`: one
 * conversation (a group chat, a mail thread) and no other.
 */
export type Scope = MemoryScope;

/** What a memory records. */
export type MemoryKind = MemoryKindName;

/** Every kind, in the order lists show them. */
export const MEMORY_KINDS: readonly MemoryKind[] = MEMORY_KIND_NAMES;

/**
 * Where a memory came from: the owner said it (a slash command, `agent memory add`, a
 * `remember` in the owner's own conversation), the agent inferred it (from another
 * person's words, a page, a proposal of the memory role), or it was imported.
 */
export type MemorySource = "owner" | "agent" | "imported";

/** In force (recalled), or waiting for the owner (never recalled). */
export type MemoryStatus = "active" | "pending";

/**
 * Why a memory waits for the owner: the turn's context held untrusted content (a page,
 * a tool's or a server's result, a forwarded mail), it came from another person's or a
 * group's conversation, the memory role proposed it (`extract = "ask"`), or its text
 * reads like instructions aimed at the agent.
 */
export type PendingReason = "untrusted" | "person" | "group" | "proposed" | "instructions";

/** One memory, as a store returns it. */
export interface Memory {
  id: number;
  scope: Scope;
  kind: MemoryKind;
  text: string;
  source: MemorySource;
  status: MemoryStatus;
  /** Set while pending. */
  pending_reason: PendingReason | null;
  /** The session it came from, when a conversation made it. */
  session_id: string | null;
  /** The channel of that conversation (`chat`, `messenger`, `cli`, `import` ...). */
  channel: string | null;
  created_ms: number;
  /** When it stopped being in force (a newer memory superseded it); `null` in force. */
  valid_until_ms: number | null;
  /** The memory that superseded it. */
  superseded_by: number | null;
  /** A pending memory that, once approved, supersedes this one. */
  replaces: number | null;
  /** Pinned memories are recalled in every turn of their scope (within `pinned_tokens`). */
  pinned: boolean;
  /** Its text's estimated tokens. */
  tokens: number;
}

/** A memory to add. */
export interface NewMemory {
  scope: Scope;
  text: string;
  /** @default "fact" */
  kind?: MemoryKind | undefined;
  source: MemorySource;
  /** @default "active" */
  status?: MemoryStatus | undefined;
  /** Required when `status` is `pending`. */
  pending_reason?: PendingReason | undefined;
  session_id?: string | null | undefined;
  channel?: string | null | undefined;
  /** The memory in force (same scope) this one supersedes, when it is in force itself. */
  replaces?: number | null | undefined;
  /** @default false */
  pinned?: boolean | undefined;
  /** @default the store's clock */
  created_ms?: number | undefined;
}

/**
 * Which scopes a read or a change may touch: the scopes of a turn, or `"every"` for
 * the owner's own views (`agent memory`, the dashboard). Every query builds its
 * `WHERE` from it in code; an empty list matches nothing.
 */
export type ScopeFilter = readonly Scope[] | "every";

/** Options of {@linkcode MemoryStore.list}. */
export interface ListOptions {
  /** @default both */
  status?: MemoryStatus | undefined;
  /** Only memories whose text contains these words (or this piece of a word). */
  search?: string | undefined;
  /** Include memories no longer in force. @default false */
  history?: boolean | undefined;
  /** Only pinned ones. @default false */
  pinned?: boolean | undefined;
  /** @default 200 */
  limit?: number | undefined;
}

/** Options of {@linkcode MemoryStore.search}. */
export interface SearchOptions {
  /** @default 20 */
  limit?: number | undefined;
  /** Include memories no longer in force. @default false */
  history?: boolean | undefined;
  /** Leave these out (the pinned ones a turn shows anyway). */
  exclude?: readonly number[] | undefined;
  /** @default the store's clock (for recency) */
  now?: number | undefined;
}

/** A memory a search found, with its score (higher is better). */
export interface Ranked {
  memory: Memory;
  score: number;
}

/** How many memories a filter holds. */
export interface MemoryCounts {
  active: number;
  pending: number;
  /** No longer in force, kept until forgotten. */
  superseded: number;
}

/** What changes on approval: the text, as the owner edited it. */
export interface ApproveOptions {
  text?: string | undefined;
}

/**
 * A store of memories: the local SQLite file or the spine's D1. Every method takes the
 * scopes it may touch; a memory outside them is as if it did not exist. Writes are
 * atomic: a memory and its search index change in one transaction.
 */
export interface MemoryStore {
  /** Adds a memory (superseding `replaces` when it is in force). Returns it. */
  add(memory: NewMemory): Promise<Memory>;
  /** One memory by id, when it is in `filter`. */
  get(id: number, filter: ScopeFilter): Promise<Memory | undefined>;
  /** Memories newest first. */
  list(filter: ScopeFilter, options?: ListOptions): Promise<Memory[]>;
  /** The memories in force that match `query` best (BM25 with recency), best first. */
  search(query: string, filter: ScopeFilter, options?: SearchOptions): Promise<Ranked[]>;
  /** Pinned memories in force, newest first. */
  pinned(filter: ScopeFilter): Promise<Memory[]>;
  /**
   * Deletes memories and their index entries in one transaction, then makes sure no
   * file of the store still holds their text. Returns the ids deleted (ids outside
   * `filter` or unknown are left out).
   */
  forget(ids: readonly number[], filter: ScopeFilter): Promise<number[]>;
  /** Puts a pending memory in force (superseding what it replaces). */
  approve(id: number, filter: ScopeFilter, options?: ApproveOptions): Promise<Memory>;
  /** Pins or unpins a memory. */
  pin(id: number, filter: ScopeFilter, pinned: boolean): Promise<Memory>;
  /** How many memories `filter` holds. */
  counts(filter: ScopeFilter): Promise<MemoryCounts>;
  /** Every scope that holds a memory. */
  scopes(): Promise<Scope[]>;
  /** How many messages of session `sessionId` the memory role has read (0: none). */
  extractedThrough(sessionId: string): Promise<number>;
  /** Notes that the memory role has read the first `count` messages of `sessionId`. */
  markExtracted(sessionId: string, count: number): Promise<void>;
  /** Closes the store. */
  close(): void;
}
