/**
 * A session store in memory, for the memory tests that run a thousand turns: the file
 * store syncs every record to disk (about 5 ms each here), which would make such a run
 * minutes long without telling anything about memory. It keeps the store's contract
 * (create outcomes, meta merges, ordered messages) and nothing else.
 *
 * @module
 */
import type { SessionStore } from "@agent/hub";

interface Entry {
  data: unknown;
  meta: Record<string, unknown>;
  agents: Map<string, { data: unknown; messages: Map<number, unknown> }>;
  events: unknown[];
}

/** A `SessionStore` in a map. */
export function memorySessions(): SessionStore {
  const sessions = new Map<string, Entry>();
  const entry = (id: string) => {
    let e = sessions.get(id);
    if (e === undefined) {
      e = { data: { session_id: id }, meta: {}, agents: new Map(), events: [] };
      sessions.set(id, e);
    }
    return e;
  };
  const store: SessionStore = {
    createSession(id, data) {
      if (sessions.has(id)) return Promise.resolve("exists");
      entry(id).data = data;
      return Promise.resolve("created");
    },
    listSessions() {
      return Promise.resolve([]);
    },
    getSession(id) {
      return Promise.resolve(sessions.get(id)?.data);
    },
    patchMeta(id, meta) {
      const e = entry(id);
      e.meta = { ...e.meta, ...meta };
      return Promise.resolve(e.meta);
    },
    getMeta(id) {
      return Promise.resolve({ ...(sessions.get(id)?.meta ?? {}) });
    },
    createAgent(id, agentId, data) {
      const e = sessions.get(id);
      if (e === undefined) return Promise.resolve("missing");
      if (e.agents.has(agentId)) return Promise.resolve("exists");
      e.agents.set(agentId, { data, messages: new Map() });
      return Promise.resolve("created");
    },
    getAgent(id, agentId) {
      return Promise.resolve(sessions.get(id)?.agents.get(agentId)?.data);
    },
    putAgent(id, agentId, data) {
      const agent = sessions.get(id)?.agents.get(agentId);
      if (agent === undefined) return Promise.resolve(false);
      agent.data = data;
      return Promise.resolve(true);
    },
    createMessage(id, agentId, messageId, data) {
      const agent = sessions.get(id)?.agents.get(agentId);
      if (agent === undefined) return Promise.resolve("missing");
      if (agent.messages.has(messageId)) return Promise.resolve("exists");
      agent.messages.set(messageId, data);
      return Promise.resolve("created");
    },
    getMessage(id, agentId, messageId) {
      return Promise.resolve(sessions.get(id)?.agents.get(agentId)?.messages.get(messageId));
    },
    putMessage(id, agentId, messageId, data) {
      const agent = sessions.get(id)?.agents.get(agentId);
      if (agent === undefined || !agent.messages.has(messageId)) return Promise.resolve(false);
      agent.messages.set(messageId, data);
      return Promise.resolve(true);
    },
    listMessages(id, agentId, options = {}) {
      const agent = sessions.get(id)?.agents.get(agentId);
      if (agent === undefined) return Promise.resolve(undefined);
      const ids = [...agent.messages.keys()].sort((a, b) => a - b)
        .filter((m) => m >= (options.offset ?? 0));
      return Promise.resolve(
        ids.slice(0, options.limit ?? 10_000).map((m) => agent.messages.get(m)),
      );
    },
    addEvent(id, data) {
      entry(id).events.push(data);
      return Promise.resolve();
    },
    listEvents(id) {
      return Promise.resolve([...(sessions.get(id)?.events ?? [])]);
    },
  };
  return store;
}
