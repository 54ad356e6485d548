/**
 * A session store that keeps the session search index (`hub/session_search/`) as it
 * writes: every message created or replaced is recorded there too. The index is a
 * convenience: when it cannot be written the message is still stored, and the next
 * search reads that session again.
 *
 * @module
 */
import { SessionSearchIndex } from "../session_search/mod.ts";
import type { SessionStore } from "./store.ts";

/** `store`, recording each message it writes in the index at `file`. */
export function withSearchIndex(store: SessionStore, file: string): SessionStore {
  const record = (
    sessionId: string,
    agentId: string,
    id: number,
    data: unknown,
    created: boolean,
  ) => {
    try {
      const index = SessionSearchIndex.open(file);
      try {
        index.record(sessionId, agentId, id, data, created);
      } finally {
        index.close();
      }
    } catch { /* the search reads the session again */ }
  };
  const createMessage: SessionStore["createMessage"] = async (sessionId, agentId, id, data) => {
    const outcome = await store.createMessage(sessionId, agentId, id, data);
    if (outcome === "created") record(sessionId, agentId, id, data, true);
    return outcome;
  };
  const putMessage: SessionStore["putMessage"] = async (sessionId, agentId, id, data) => {
    const replaced = await store.putMessage(sessionId, agentId, id, data);
    if (replaced) record(sessionId, agentId, id, data, false);
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
