/**
 * Memory a person can trust: one store of short memories in scopes decided in code
 * (the owner, another person, one conversation; a network turn gets none), recalled
 * before each turn within a token budget as quoted data, written by tools the owner can
 * see and steer (a pending list for whatever did not come straight from the owner), and
 * deleted for real (no file keeps the text of a forgotten memory).
 *
 * The light door `@agent/hub/memory` (no model SDK): `agent memory`, the dashboard and
 * the tests use the store and its sentences through it; the agent takes a
 * {@linkcode TurnMemory}.
 *
 * @module
 */

// What a memory is, and the store every backend implements.
export {
  type ApproveOptions,
  type ListOptions,
  type Memory,
  MEMORY_KINDS,
  type MemoryCounts,
  type MemoryKind,
  type MemorySource,
  type MemoryStatus,
  type MemoryStore,
  type NewMemory,
  type PendingReason,
  type Ranked,
  type Scope,
  type ScopeFilter,
  type SearchOptions,
} from "./types.ts";

// Bad input and unusable stores, as one sentence in the person's language.
export { MemoryError, memoryError } from "./errors.ts";
export { type MemoryKey, t as memorySentence } from "./_messages.ts";
export type { EN as MemorySentencesEn } from "./_messages.ts";

// Scopes in code: which memories a turn may read and where it writes.
export {
  accessFor,
  conversationScope,
  isScope,
  type MemoryAccess,
  parseScope,
  type TurnParty,
} from "./scope.ts";

// What a write is checked for.
export { hiddenCharacters } from "@agent/net/memory";
export { readsLikeInstructions } from "./scan.ts";
export { checkText, MAX_TEXT_CHARS } from "./validate.ts";

// The local store (`<data>/memory.sqlite3`), and cloud mode's in the spine.
export { SqliteMemoryStore, type SqliteMemoryStoreOptions } from "./sqlite_store.ts";
export { SpineMemoryStore, type SpineMemoryStoreOptions } from "./spine_store.ts";

// `agent memory`, the slash commands and the dashboard: list, show, add, forget (and
// redact), approve and reject, pin, export and import; memories as lines and Markdown.
export {
  addedLine,
  addMemory,
  type AddMemoryOptions,
  approveMemory,
  exportMemories,
  forgetMemories,
  type ForgetOptions,
  importMemories,
  listMemories,
  type ListMemoriesOptions,
  type ManageOutcome,
  type MemoryDesk,
  parseId,
  pendingMemories,
  pinMemory,
  rejectMemory,
  showMemory,
} from "./manage.ts";
export {
  countLine,
  kindWord,
  memoryLines,
  type MemoryLinesOptions,
  memoryShowLines,
  statusWord,
} from "./lines.ts";
export {
  type ImportItem,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ITEMS,
  memoryMarkdown,
  parseMemoryMarkdown,
} from "./markdown.ts";
export { REDACTED, redactTranscripts } from "./redact.ts";

// What the memory role is asked about a quiet conversation, and how its answer is read.
export {
  EXTRACT_INSTRUCTIONS,
  extractionPrompt,
  MAX_PROPOSALS,
  parseProposals,
  type Proposal,
  transcriptOf,
} from "./extract.ts";

// Background consolidation: a scheduled job of the memory role, off until added.
export {
  CONSOLIDATION_JOB,
  CONSOLIDATION_MAX_USD,
  CONSOLIDATION_PROMPT,
  CONSOLIDATION_SCHEDULE,
} from "./consolidate.ts";

// A turn's recall and tools.
export {
  recall,
  type RecallBudget,
  type Recalled,
  recallLine,
  type RecallOptions,
} from "./recall.ts";
export { memoryTools, type MemoryToolsOptions, pendingReason } from "./tools.ts";
export { MEMORY_ROLE, type TurnMemory } from "./turn.ts";
