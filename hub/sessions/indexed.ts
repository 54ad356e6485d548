/**
 * A session store that keeps the session search index (`hub/session_search/`) as it
 * writes: every message created or replaced is recorded there too, as the text the
 * dashboard's transcript shows of it. The index is a convenience: when it cannot be
 * written the message is still stored, and the next search reads that session again.
 *
 * @module
 */
import {
  type MessageSource,
  SEARCHED_AGENT,
  type SearchedMessage,
  withHeldIndex,
} from "../session_search/mod.ts";
import { readStoredMessage } from "./message.ts";
import type { SessionStore } from "./store.ts";

/**
 * The searched text of a stored record: a person's words and the agent's (its text and
 * reasoning parts, as the transcript shows them), never a tool's; `""` for anything else.
 *
 * @example
 * ```ts
 * import { searchedText } from "./indexed.ts";
 * const said = { message_id: 0, created_at: "x", message: { role: "user", content: "Merhaba" } };
 * if (searchedText(said) !== "Merhaba") throw new Error();
 * ```
 */
export function searchedText(stored: unknown): string {
  const message = readStoredMessage(stored)?.message;
  if (message?.role === "user") return message.content.trim();
  if (message?.role !== "assistant") return "";
  return message.content.map((part) => "text" in part ? part.text : "").join("").trim();
}

/** Reads a session's searched messages from `store` (a search catching up with it). */
export function searchedMessages(store: SessionStore): MessageSource {
  return async (sessionId) => {
    const records = await store.listMessages(sessionId, SEARCHED_AGENT) ?? [];
    return records.flatMap((record, i): SearchedMessage[] => {
      const id = readStoredMessage(record)?.message_id ?? i;
      return [{ id, text: searchedText(record) }];
    });
  };
}

/**
 * `store`, recording each message it writes in the index at `file` (held open for the
 * process: `hub/session_search/held.ts`).
 */
export function withSearchIndex(store: SessionStore, file: string): SessionStore {
  const record = async (
    sessionId: string,
    agentId: string,
    id: number,
    data: unknown,
    created: boolean,
  ) => {
    // When the index cannot be written, the search reads the session again.
    await withHeldIndex(
      file,
      (index) => index.record(sessionId, agentId, { id, text: searchedText(data) }, created),
    ).catch(() => {});
  };
  const createMessage: SessionStore["createMessage"] = async (sessionId, agentId, id, data) => {
    const outcome = await store.createMessage(sessionId, agentId, id, data);
    if (outcome === "created") await record(sessionId, agentId, id, data, true);
    return outcome;
  };
  const putMessage: SessionStore["putMessage"] = async (sessionId, agentId, id, data) => {
    const replaced = await store.putMessage(sessionId, agentId, id, data);
    if (replaced) await record(sessionId, agentId, id, data, false);
    return replaced;
  };
  // Every other method is the store's own, called on the store.
  return new Proxy(store, {
    get(target, prop) {
      if (prop === "createMessage") return createMessage;
      if (prop === "putMessage") return putMessage;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
