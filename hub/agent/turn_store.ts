/**
 * Where a turn's messages go in the session: the first (the owner's message) with the
 * session and its agent created when new and the session's meta, then each step of the
 * answer as it completes, each as a record of this version (`MESSAGE_VERSION`). A
 * keyed turn (a network turn) writes its whole exchange at once with its marks, over
 * the parts a crashed run of the same turn left.
 *
 * @module
 */
import type { Channel } from "../ledger/mod.ts";
import {
  MESSAGE_VERSION,
  type SessionMessage,
  type SessionStore,
  type StoredMessage,
  type TurnMark,
} from "../sessions/mod.ts";
import { oneLine } from "../text.ts";

/** What a keyed turn writes besides its messages: its key, its answer, its earlier parts. */
export interface KeyedWrite {
  key: string;
  answer: string;
  /** The parts of this turn a crashed run already stored. */
  over: readonly StoredMessage[];
}

/** What {@linkcode TurnStore} writes to. */
export interface TurnStoreOptions {
  sessions: SessionStore;
  agentId: string;
  /** Where the turns come from (in the session's meta). */
  channel: Channel;
  now: () => number;
}

/** Writes one agent's turns into its sessions. */
export class TurnStore {
  #o: TurnStoreOptions;

  constructor(options: TurnStoreOptions) {
    this.#o = options;
  }

  /**
   * Stores the first messages of a turn (creating the session and its agent when new)
   * and the turn's meta: the role, the channel, `meta`, and a title from the first
   * message when the session has none.
   */
  async save(
    sessionId: string,
    firstId: number,
    messages: SessionMessage[],
    role: string,
    meta: Record<string, unknown> | undefined,
    keyed?: KeyedWrite,
  ): Promise<void> {
    const { sessions, agentId } = this.#o;
    const iso = new Date(this.#o.now()).toISOString();
    if (await sessions.getSession(sessionId) === undefined) {
      await sessions.createSession(sessionId, {
        session_id: sessionId,
        session_type: "AGENT",
        created_at: iso,
        updated_at: iso,
      });
    }
    if (await sessions.getAgent(sessionId, agentId) === undefined) {
      await sessions.createAgent(sessionId, agentId, { agent_id: agentId, created_at: iso });
    }
    await this.write(sessionId, firstId, messages, role, keyed);
    const current = await sessions.getMeta(sessionId);
    const first = messages[0];
    const patch: Record<string, unknown> = { role, channel: this.#o.channel, ...(meta ?? {}) };
    if (current.title === undefined && patch.title === undefined && first?.role === "user") {
      // The whole first line up to 60 characters, a longer one cut with "…".
      patch.title = oneLine(first.content, { max: 60, ellipsis: true });
    }
    await sessions.patchMeta(sessionId, patch);
  }

  /**
   * Writes `messages` from the id `firstId` on, each as a record of this version; a
   * keyed turn's parts carry their mark, and a part a crashed run of the same turn
   * wrote is written over. Returns the id after the last one written.
   */
  async write(
    sessionId: string,
    firstId: number,
    messages: readonly SessionMessage[],
    role: string,
    keyed?: KeyedWrite,
  ): Promise<number> {
    const { sessions, agentId } = this.#o;
    const iso = new Date(this.#o.now()).toISOString();
    let id = firstId;
    for (const [part, message] of messages.entries()) {
      const mark: TurnMark | undefined = keyed === undefined ? undefined : {
        key: keyed.key,
        part,
        of: messages.length,
        ...(part === messages.length - 1 ? { answer: keyed.answer } : {}),
      };
      const record = (messageId: number): StoredMessage => ({
        version: MESSAGE_VERSION,
        message_id: messageId,
        created_at: iso,
        role,
        message,
        ...(mark === undefined ? {} : { turn: mark }),
      });
      // A part a crashed run of this turn already wrote is written over, not added again.
      const earlier = keyed?.over.find((m) => m.turn!.part === part);
      if (
        earlier !== undefined &&
        await sessions.putMessage(
          sessionId,
          agentId,
          earlier.message_id,
          record(earlier.message_id),
        )
      ) continue;
      // Another process may have written the same id meanwhile: take the next free one.
      while (await sessions.createMessage(sessionId, agentId, id, record(id)) === "exists") id++;
      id++;
    }
    return id;
  }
}
