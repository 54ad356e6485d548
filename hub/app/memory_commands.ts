/**
 * The memory's slash commands, in every channel (chat, the TUI, the messenger, the web
 * chat): `/memory [WORDS]` lists the memories the conversation may read (or searches
 * them), `/remember TEXT` keeps one, `/forget ID…` deletes for good. Each works within
 * the scopes the desk gave the conversation, never wider: another person's
 * conversation sees and writes only their own memories, and what they ask to remember
 * waits for the owner. The owner's own conversations also handle the pending list
 * (`/memory pending`, `/memory approve ID [TEXT]`, `/memory reject ID`) and `/forget`,
 * over every scope, as `agent memory` does. Bad input is one sentence; nothing changes.
 *
 * @module
 */
import type { CommandContext, CommandReturn, CommandSpec } from "../desk/mod.ts";
import {
  addedLine,
  approveMemory,
  forgetMemories,
  listMemories,
  type MemoryDesk,
  MemoryError,
  memorySentence as t,
  pendingMemories,
  pendingReason,
  rejectMemory,
} from "../memory/mod.ts";

/** `/memory`, `/remember` and `/forget`, for `DeskOptions.commands`. */
export function memoryCommands(): CommandSpec[] {
  return [
    {
      word: "/memory",
      usage: "/memory [WORDS | pending | approve ID [TEXT] | reject ID]",
      summary: (lang) => t(lang, "cmd_memory"),
      run: (ctx, args) => answer(ctx, () => memory(ctx, args)),
    },
    {
      word: "/remember",
      usage: "/remember TEXT",
      summary: (lang) => t(lang, "cmd_remember"),
      run: (ctx, args) => answer(ctx, () => remember(ctx, args.join(" "))),
    },
    {
      word: "/forget",
      usage: "/forget ID…",
      summary: (lang) => t(lang, "cmd_forget"),
      run: (ctx, args) => answer(ctx, () => forget(ctx, args)),
    },
  ];
}

/** Runs a memory command: without memory, or on bad input, one sentence. */
async function answer(ctx: CommandContext, run: () => Promise<string[]>): Promise<CommandReturn> {
  if (ctx.memory === undefined) return { lines: [t(ctx.lang, "memory_off_here")] };
  try {
    return { lines: await run() };
  } catch (error) {
    if (error instanceof MemoryError) return { lines: [error.message] };
    throw error;
  }
}

/** The memories the conversation reads, or (the owner's) every scope. */
function deskOf(ctx: CommandContext, every = false): MemoryDesk {
  const memory = ctx.memory!;
  return {
    store: memory.store,
    lang: ctx.lang,
    filter: every && memory.access.owner ? "every" : memory.access.read,
    columns: ctx.columns?.(),
  };
}

function memory(ctx: CommandContext, args: string[]): Promise<string[]> {
  const [first, id, ...rest] = args;
  const owner = ctx.memory!.access.owner;
  switch (first) {
    case "pending":
    case "approve":
    case "reject":
      if (!owner) return Promise.resolve([t(ctx.lang, "owner_only")]);
      if (first === "pending") return pendingMemories(deskOf(ctx, true));
      if (id === undefined) return Promise.resolve([t(ctx.lang, "pending_usage")]);
      return (first === "approve"
        ? approveMemory(deskOf(ctx, true), id, rest.length > 0 ? rest.join(" ") : undefined)
        : rejectMemory(deskOf(ctx, true), id)).then((line) => [line]);
    default: {
      const search = args.join(" ").trim();
      return listMemories(deskOf(ctx), search === "" ? {} : { search });
    }
  }
}

/** Keeps `text` in the conversation's scope: the owner's at once, anyone else's pending. */
async function remember(ctx: CommandContext, text: string): Promise<string[]> {
  if (text.trim() === "") return [t(ctx.lang, "remember_usage")];
  const { store, access } = ctx.memory!;
  // Typed by the person: no outside content, but still scanned for instructions.
  const reason = pendingReason(access, false, text);
  const kept = await store.add({
    scope: access.write,
    text,
    source: reason === undefined ? "owner" : "agent",
    status: reason === undefined ? "active" : "pending",
    pending_reason: reason,
    session_id: ctx.sessionId,
    channel: ctx.channel,
  });
  return [addedLine(kept, ctx.lang)];
}

/** Deletes memories by id: the owner's conversations only, in any scope. */
async function forget(ctx: CommandContext, ids: string[]): Promise<string[]> {
  if (!ctx.memory!.access.owner) return [t(ctx.lang, "owner_only")];
  if (ids.length === 0) return [t(ctx.lang, "forget_usage")];
  return (await forgetMemories(deskOf(ctx, true), ids)).lines;
}
