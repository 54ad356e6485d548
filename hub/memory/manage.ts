/**
 * What `agent memory` does, apart from parsing its words: list, show, add, forget
 * (by ids or by a search, with `--redact`), the pending list with approve and reject,
 * export and import. The slash commands and the dashboard call the same functions with
 * the scopes their conversation or owner may touch. Bad input throws a `MemoryError`
 * (one sentence) before anything changes.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { memoryError } from "./errors.ts";
import { countLine, memoryLines, memoryShowLines } from "./lines.ts";
import { memoryMarkdown, readImportFile } from "./markdown.ts";
import { redactTranscripts } from "./redact.ts";
import { parseScope } from "./scope.ts";
import { checkText, isKind } from "./validate.ts";
import type { Memory, MemoryKind, MemorySource, MemoryStore, Scope, ScopeFilter } from "./types.ts";

/** Where a management call works. */
export interface MemoryDesk {
  store: MemoryStore;
  lang: Lang;
  /** The scopes it may touch: `"every"` for the owner's own tools. */
  filter: ScopeFilter;
  /** The sessions folder `--redact` cleans. */
  sessionsDir?: string | undefined;
  /** The terminal's width. */
  columns?: number | undefined;
}

/** What a command printed and the code it exits with. */
export interface ManageOutcome {
  lines: string[];
  exitCode: number;
}

/**
 * `value` as a memory id; a `MemoryError` (`bad_id`) when it is not a whole number.
 *
 * @example
 * ```ts
 * import { parseId } from "./manage.ts";
 * if (parseId("#12", "en") !== 12 || parseId(" 7 ", "en") !== 7) throw new Error();
 * ```
 */
export function parseId(value: string, lang: Lang): number {
  const trimmed = value.trim().replace(/^#/, "");
  if (!/^\d{1,12}$/.test(trimmed) || Number(trimmed) < 1) {
    throw memoryError(lang, "bad_id", { id: value });
  }
  return Number(trimmed);
}

/** The scope a command names, narrowed by what the desk may touch. */
function scopeFilter(desk: MemoryDesk, scope: string | undefined): ScopeFilter {
  if (scope === undefined) return desk.filter;
  const parsed = parseScope(scope, desk.lang);
  if (desk.filter !== "every" && !desk.filter.includes(parsed)) return [];
  return [parsed];
}

/** Options for {@linkcode listMemories}. */
export interface ListMemoriesOptions {
  scope?: string | undefined;
  search?: string | undefined;
  json?: boolean | undefined;
  /** Include replaced memories. */
  history?: boolean | undefined;
}

/** `agent memory list`: the memories in force (and waiting), newest first, and a count. */
export async function listMemories(
  desk: MemoryDesk,
  options: ListMemoriesOptions = {},
): Promise<string[]> {
  const filter = scopeFilter(desk, options.scope);
  const search = options.search?.trim();
  if (search !== undefined && [...search].length < 2) throw memoryError(desk.lang, "wild_search");
  const memories = await desk.store.list(filter, {
    search,
    history: options.history === true,
    limit: 500,
  });
  if (options.json === true) return [JSON.stringify(memories, null, 2)];
  if (memories.length === 0 && search !== undefined) {
    return [t(desk.lang, "no_match", { query: search })];
  }
  return [
    ...memoryLines(memories, desk.lang, { columns: desk.columns }),
    countLine(await desk.store.counts(filter), desk.lang),
  ];
}

/** The memory `id` in the desk's scopes; `unknown_id` when there is none. */
async function memoryOf(desk: MemoryDesk, id: number): Promise<Memory> {
  const memory = await desk.store.get(id, desk.filter);
  if (memory === undefined) throw memoryError(desk.lang, "unknown_id", { id });
  return memory;
}

/** `agent memory show ID`: every field, where it came from, and the text. */
export async function showMemory(desk: MemoryDesk, id: string): Promise<string[]> {
  return memoryShowLines(await memoryOf(desk, parseId(id, desk.lang)), desk.lang);
}

/** Options for {@linkcode addMemory}. */
export interface AddMemoryOptions {
  scope?: string | undefined;
  kind?: string | undefined;
  pin?: boolean | undefined;
  replaces?: string | undefined;
  /** @default "owner" */
  source?: MemorySource | undefined;
  /** Where it was said. @default "cli" */
  channel?: string | undefined;
  session_id?: string | undefined;
}

/** `agent memory add TEXT`: the owner's own memory, in force at once. */
export async function addMemory(
  desk: MemoryDesk,
  text: string,
  options: AddMemoryOptions = {},
): Promise<Memory> {
  const lang = desk.lang;
  const scope: Scope = options.scope === undefined ? "owner" : parseScope(options.scope, lang);
  if (desk.filter !== "every" && !desk.filter.includes(scope)) {
    throw memoryError(lang, "unknown_scope", { scope });
  }
  if (options.kind !== undefined && !isKind(options.kind)) {
    throw memoryError(lang, "unknown_kind", { kind: options.kind });
  }
  return await desk.store.add({
    scope,
    text,
    kind: options.kind as MemoryKind | undefined,
    source: options.source ?? "owner",
    channel: options.channel ?? "cli",
    session_id: options.session_id ?? null,
    pinned: options.pin === true,
    replaces: options.replaces === undefined ? null : parseId(options.replaces, lang),
  });
}

/** The sentence for a memory just added. */
export function addedLine(memory: Memory, lang: Lang, replaced?: number): string {
  if (memory.status === "pending") {
    return t(lang, "added_pending", {
      id: memory.id,
      reason: t(lang, `reason_${memory.pending_reason ?? "proposed"}`),
    });
  }
  const line = t(lang, "added", { id: memory.id, scope: memory.scope });
  return replaced === undefined
    ? line
    : `${line} ${t(lang, "replaced", { id: memory.id, old: replaced })}`;
}

/** Options for {@linkcode forgetMemories}. */
export interface ForgetOptions {
  search?: string | undefined;
  /** Forget what a search matched (without it, the matches are listed). */
  yes?: boolean | undefined;
  /** Clean the texts out of the stored transcripts too. */
  redact?: boolean | undefined;
}

/**
 * `agent memory forget ID… | --search Q [--yes] [--redact]`: deletes the memories (and,
 * with `redact`, their text from the transcripts). A search without `yes` lists what it
 * would forget and exits 1.
 */
export async function forgetMemories(
  desk: MemoryDesk,
  ids: readonly string[],
  options: ForgetOptions = {},
): Promise<ManageOutcome> {
  const lang = desk.lang;
  const search = options.search?.trim();
  if (search !== undefined && ids.length > 0) throw memoryError(lang, "ids_and_search");
  if (search === undefined && ids.length === 0) throw memoryError(lang, "needs_ids");
  let targets: Memory[];
  if (search !== undefined) {
    if ([...search].length < 2) throw memoryError(lang, "wild_search");
    targets = await desk.store.list(desk.filter, { search, history: true, limit: 10_000 });
    if (targets.length === 0) {
      return { lines: [t(lang, "no_match", { query: search })], exitCode: 1 };
    }
    if (options.yes !== true) {
      return {
        lines: [
          ...memoryLines(targets, lang, { columns: desk.columns }),
          t(lang, "confirm_forget", { count: targets.length, query: search }),
        ],
        exitCode: 1,
      };
    }
  } else {
    // Every id is checked before anything is deleted.
    const parsed = ids.map((id) => parseId(id, lang));
    targets = [];
    for (const id of parsed) targets.push(await memoryOf(desk, id));
  }
  const gone = await desk.store.forget(targets.map((m) => m.id), desk.filter);
  const lines = [
    gone.length === 0
      ? t(lang, "forgot_none")
      : t(lang, "forgot", { count: gone.length, ids: gone.map((id) => `#${id}`).join(", ") }),
  ];
  if (options.redact === true && desk.sessionsDir !== undefined) {
    const texts = targets.filter((m) => gone.includes(m.id)).map((m) => m.text);
    lines.push(t(lang, "redacted", { count: await redactTranscripts(desk.sessionsDir, texts) }));
  }
  return { lines, exitCode: 0 };
}

/** `agent memory pending`: what waits for the owner, oldest first, and why. */
export async function pendingMemories(desk: MemoryDesk, json = false): Promise<string[]> {
  const memories = (await desk.store.list(desk.filter, { status: "pending", limit: 500 }))
    .reverse();
  if (json) return [JSON.stringify(memories, null, 2)];
  if (memories.length === 0) return [t(desk.lang, "no_pending")];
  return memoryLines(memories, desk.lang, { columns: desk.columns }).map((line, i) =>
    `${line} (${t(desk.lang, `reason_${memories[i]!.pending_reason ?? "proposed"}`)})`
  );
}

/** `agent memory approve ID [--text T]`: a waiting memory in force (as edited). */
export async function approveMemory(desk: MemoryDesk, id: string, text?: string): Promise<string> {
  // Checked here first, so the sentence is in the desk's language (the store's is the hub's).
  const waiting = await memoryOf(desk, parseId(id, desk.lang));
  if (waiting.status !== "pending") throw memoryError(desk.lang, "not_pending", { id: waiting.id });
  if (text !== undefined) checkText(text, desk.lang);
  const memory = await desk.store.approve(waiting.id, desk.filter, { text });
  return t(desk.lang, "approved", { id: memory.id });
}

/** `agent memory reject ID`: a waiting memory deleted, like a forget. */
export async function rejectMemory(desk: MemoryDesk, id: string): Promise<string> {
  const memory = await memoryOf(desk, parseId(id, desk.lang));
  if (memory.status !== "pending") throw memoryError(desk.lang, "not_pending", { id: memory.id });
  await desk.store.forget([memory.id], desk.filter);
  return t(desk.lang, "rejected", { id: memory.id });
}

/** `agent memory pin ID` / `unpin`. */
export async function pinMemory(desk: MemoryDesk, id: string, pinned: boolean): Promise<string> {
  const found = await memoryOf(desk, parseId(id, desk.lang));
  const memory = await desk.store.pin(found.id, desk.filter, pinned);
  return t(desk.lang, pinned ? "pinned" : "unpinned", { id: memory.id });
}

/** `agent memory export [--json]`: Markdown (what is in force), or every memory as JSON. */
export async function exportMemories(
  desk: MemoryDesk,
  options: { json?: boolean | undefined; scope?: string | undefined } = {},
): Promise<string> {
  const filter = scopeFilter(desk, options.scope);
  if (options.json === true) {
    const all = await desk.store.list(filter, { history: true, limit: 1_000_000 });
    return JSON.stringify(all, null, 2);
  }
  const active = await desk.store.list(filter, { status: "active", limit: 1_000_000 });
  return memoryMarkdown(active.reverse(), desk.lang);
}

/**
 * `agent memory import FILE [--scope S]`: every bullet of a Markdown file as a memory in
 * force (the owner ran it), kind from its heading. The whole file is read and checked
 * before the first memory is added.
 */
export async function importMemories(
  desk: MemoryDesk,
  file: string,
  options: { scope?: string | undefined } = {},
): Promise<string> {
  const lang = desk.lang;
  const scope: Scope = options.scope === undefined ? "owner" : parseScope(options.scope, lang);
  const items = await readImportFile(file, lang);
  // A bad line fails the import before anything is added.
  for (const item of items) checkText(item.text, lang);
  let count = 0;
  for (const item of items) {
    await desk.store.add({
      scope,
      text: item.text,
      kind: item.kind,
      source: "imported",
      channel: "import",
      pinned: item.pinned,
    });
    count++;
  }
  return t(lang, "imported", { count, scope });
}
