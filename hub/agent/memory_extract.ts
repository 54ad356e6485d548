/**
 * The memory role reading one quiet conversation: the messages since it last read this
 * session, the memories of the conversation's scope it may update, one call through
 * the call chain (the role's budget checked, a ledger row marked `purpose = memory`),
 * and each proposal written: in `ask` mode to the pending list; in `auto` mode in force
 * only where a `remember` would be (the owner's own conversation, no outside content,
 * no instructions to the agent), else pending too. The session's mark moves past what
 * was read only when the reading succeeded, so a spent budget reads it again later.
 *
 * @module
 */
import { type Channel, CHANNELS } from "../ledger/mod.ts";
import {
  EXTRACT_INSTRUCTIONS,
  extractionPrompt,
  isScope,
  type Memory,
  MEMORY_ROLE,
  MemoryError,
  type MemoryStore,
  parseProposals,
  pendingReason,
  type Scope,
  transcriptOf,
} from "../memory/mod.ts";
import { readStoredMessage, type SessionStore } from "../sessions/mod.ts";
import type { ModelRouter } from "../router/call.ts";
import { MAIN_AGENT_ID } from "./agent.ts";
import { UNTRUSTED_META } from "./turn_context.ts";
import { MEMORY_PARTY_META, MEMORY_SCOPE_META } from "./memory_meta.ts";

export { MEMORY_ROLE };

/** Options for {@linkcode extractSession}. */
export interface ExtractOptions {
  router: ModelRouter;
  store: MemoryStore;
  sessions: SessionStore;
  sessionId: string;
  mode: "ask" | "auto";
  /** The ledger channel of the call. @default the session's channel */
  channel?: Channel | undefined;
  signal?: AbortSignal | undefined;
}

/** What one reading did. */
export interface ExtractResult {
  /** Messages read. */
  read: number;
  /** Memories put in force. */
  kept: number;
  /** Memories waiting for the owner. */
  pending: number;
}

/**
 * Reads session `sessionId` for memories; `undefined` when it is no conversation with
 * memory (a network turn's, a job's) or nothing new was said. Throws what the call
 * chain throws (a spent budget, an unreachable model): the mark stays.
 */
export async function extractSession(options: ExtractOptions): Promise<ExtractResult | undefined> {
  const { store, sessions, sessionId } = options;
  const meta = await sessions.getMeta(sessionId);
  const scope = meta[MEMORY_SCOPE_META];
  const party = meta[MEMORY_PARTY_META];
  if (typeof scope !== "string" || !isScope(scope)) return undefined;
  if (party !== "owner" && party !== "person" && party !== "group") return undefined;
  const through = await store.extractedThrough(sessionId);
  const stored = await sessions.listMessages(sessionId, MAIN_AGENT_ID, { offset: through });
  if (stored === undefined || stored.length === 0) return undefined;
  const messages = stored.flatMap((m) => readStoredMessage(m)?.message ?? []);
  const count = through + stored.length;
  if (!messages.some((m) => m.role === "user")) {
    await store.markExtracted(sessionId, count);
    return { read: stored.length, kept: 0, pending: 0 };
  }
  const transcript = transcriptOf(messages);
  const kept = await memoriesToUpdate(store, scope, transcript);
  const answer = await options.router.generate(
    MEMORY_ROLE,
    {
      system: EXTRACT_INSTRUCTIONS,
      messages: [{ role: "user", content: extractionPrompt(transcript, kept) }],
    },
    {
      channel: options.channel ?? channelOf(meta),
      sessionId,
      purpose: "memory",
      signal: options.signal,
    },
  );
  const access = { owner: party === "owner", party } as const;
  const untrusted = meta[UNTRUSTED_META] === true;
  const result: ExtractResult = { read: stored.length, kept: 0, pending: 0 };
  for (const proposal of parseProposals(answer.text)) {
    const reason = options.mode === "ask"
      ? "proposed"
      : pendingReason({ ...access, read: [scope], write: scope }, untrusted, proposal.text);
    // Only a memory of this scope the role was shown may be replaced.
    const replaces = kept.some((m) => m.id === proposal.replaces) ? proposal.replaces : undefined;
    try {
      const memory = await store.add({
        scope,
        text: proposal.text,
        kind: proposal.kind,
        source: "agent",
        status: reason === undefined ? "active" : "pending",
        pending_reason: reason,
        session_id: sessionId,
        channel: typeof meta.channel === "string" ? meta.channel : null,
        replaces: replaces ?? null,
      });
      if (memory.status === "active") result.kept++;
      else result.pending++;
    } catch (error) {
      // A proposal with hidden characters or too long is dropped; the rest stand.
      if (!(error instanceof MemoryError)) throw error;
    }
  }
  await store.markExtracted(sessionId, count);
  return result;
}

/** The memories in force the role is shown: the pinned ones and the best matches. */
async function memoriesToUpdate(
  store: MemoryStore,
  scope: Scope,
  transcript: string,
): Promise<Memory[]> {
  const pinned = await store.pinned([scope]);
  const found = await store.search(transcript, [scope], {
    limit: 30,
    exclude: pinned.map((m) => m.id),
  });
  return [...pinned, ...found.map((r) => r.memory)];
}

/** The ledger channel a session's meta names; `cli` when it names none the ledger knows. */
function channelOf(meta: Record<string, unknown>): Channel {
  const channel = meta.channel;
  return CHANNELS.includes(channel as Channel) ? channel as Channel : "cli";
}
