import assert from "node:assert/strict";
import { tempDir } from "../../tests/_temp_dir.ts";
import type { AgentConfig } from "../config/types.ts";
import type { Logger } from "../log.ts";
import type { ModelRouter } from "../router/mod.ts";
import { FileSessionStore } from "../sessions/file_store.ts";
import { SessionWindows } from "./session_window.ts";

/** A file store that records the offset of every listing it is asked for. */
function countedStore(dir: string): { store: FileSessionStore; offsets: [string, number][] } {
  const store = new FileSessionStore(dir);
  const offsets: [string, number][] = [];
  const listMessages = store.listMessages.bind(store);
  store.listMessages = (sessionId, agentId, options = {}) => {
    offsets.push([sessionId, options.offset ?? 0]);
    return listMessages(sessionId, agentId, options);
  };
  return { store, offsets };
}

async function say(store: FileSessionStore, sessionId: string, id: number): Promise<void> {
  if (id === 0) {
    await store.createSession(sessionId, {});
    await store.createAgent(sessionId, "main", {});
  }
  await store.createMessage(sessionId, "main", id, {
    version: 2,
    message_id: id,
    created_at: "2026-11-30T10:00:00.000Z",
    message: { role: "user", content: `line ${id}` },
  });
}

function windows(store: FileSessionStore, maxSessions?: number): SessionWindows {
  // Reading a window needs the store alone; the router and config serve a fold.
  return new SessionWindows({
    sessions: store,
    agentId: "main",
    router: undefined as unknown as ModelRouter,
    config: undefined as unknown as AgentConfig,
    channel: "net",
    logger: undefined as unknown as Logger,
    ...(maxSessions === undefined ? {} : { maxSessions }),
  });
}

Deno.test("SessionWindows.read() reads only what was stored since its last read", async () => {
  using tmp = tempDir();
  const { store, offsets } = countedStore(tmp.path);
  const w = windows(store);
  await say(store, "net-a", 0);
  await say(store, "net-a", 1);
  assert.equal((await w.read("net-a")).messages.length, 2);
  await say(store, "net-a", 2);
  const window = await w.read("net-a");
  assert.deepEqual(window.messages.map((m) => m.message_id), [0, 1, 2]);
  assert.deepEqual(offsets, [["net-a", 0], ["net-a", 2]]);
});

Deno.test("SessionWindows keeps at most maxSessions windows, the least recently read dropped first", async () => {
  using tmp = tempDir();
  const { store, offsets } = countedStore(tmp.path);
  const w = windows(store, 2);
  for (const id of ["net-a", "net-b", "net-c"]) {
    await say(store, id, 0);
    await w.read(id);
  }
  assert.deepEqual(w.kept(), ["net-b", "net-c"]);
  // net-b read again moves last; net-a, dropped, is read whole again.
  await w.read("net-b");
  await w.read("net-a");
  assert.deepEqual(w.kept(), ["net-b", "net-a"]);
  assert.deepEqual(offsets.slice(3), [["net-b", 1], ["net-a", 0]]);
  assert.deepEqual((await w.read("net-a")).messages.map((m) => m.message_id), [0]);
});
