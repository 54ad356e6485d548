import assert from "node:assert/strict";
import { tempDir } from "../../tests/_temp_dir.ts";
import { MAIN_AGENT_ID } from "../agent/agent.ts";
import { FileSessionStore } from "../sessions/file_store.ts";
import { searchedMessages, searchedText, withSearchIndex } from "../sessions/indexed.ts";
import type { SessionStore } from "../sessions/store.ts";
import { SEARCHED_AGENT, SessionSearchIndex } from "./index.ts";

/** A stored record as a turn writes it. */
function said(role: "user" | "assistant", text: string, id = 0) {
  return {
    version: 2,
    message_id: id,
    created_at: "2026-11-29T10:00:00.000Z",
    message: role === "user"
      ? { role, content: text }
      : { role, content: [{ type: "text", text }] },
  };
}

/** A file store that counts the messages it is asked to list. */
function counted(dir: string): { store: SessionStore; reads: () => number } {
  const store = new FileSessionStore(dir);
  let reads = 0;
  const listMessages = store.listMessages.bind(store);
  store.listMessages = (...args) => {
    reads++;
    return listMessages(...args);
  };
  return { store, reads: () => reads };
}

async function session(store: SessionStore, id: string, lines: string[]): Promise<void> {
  await store.createSession(id, {});
  await store.createAgent(id, SEARCHED_AGENT, {});
  for (const [i, line] of lines.entries()) {
    await store.createMessage(id, SEARCHED_AGENT, i, said(i % 2 ? "assistant" : "user", line, i));
  }
}

Deno.test("SEARCHED_AGENT is the agent the desk writes a conversation under", () => {
  assert.equal(SEARCHED_AGENT, MAIN_AGENT_ID);
});

Deno.test("searchedText() takes a person's words and the agent's text, never a tool's; older records too", () => {
  assert.equal(searchedText(said("user", " hi ")), "hi");
  assert.equal(searchedText(said("assistant", "plain")), "plain");
  // A version 1 record (the AI SDK's shape) reads the same.
  const old = {
    message_id: 3,
    created_at: "2026-01-01T00:00:00.000Z",
    message: {
      role: "assistant",
      content: [{ type: "reasoning", text: "so " }, { type: "text", text: "yes" }],
    },
  };
  assert.equal(searchedText(old), "so yes");
  const tool = {
    message_id: 4,
    created_at: "2026-01-01T00:00:00.000Z",
    message: {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c",
        toolName: "t",
        output: { type: "text", value: "secret" },
      }],
    },
  };
  assert.equal(searchedText(tool), "");
  for (
    const odd of [null, 3, "x", [], { message: null }, { message: { role: "user", content: "x" } }]
  ) {
    assert.equal(searchedText(odd), "");
  }
});

Deno.test("SessionSearchIndex: a search reads the index, not the sessions; only a session written elsewhere is read again", async () => {
  using tmp = tempDir();
  const file = `${tmp.path}/data/session_search.sqlite3`;
  const { store: plain, reads } = counted(`${tmp.path}/data/sessions`);
  // 200 sessions written before the index existed (or by a store without it).
  for (let i = 0; i < 200; i++) {
    await session(plain, `chat-${i}`, [
      `question ${i}`,
      i === 137 ? "Ayşe'nin notu" : `answer ${i}`,
    ]);
  }
  const index = SessionSearchIndex.open(file);
  const source = searchedMessages(plain);
  try {
    assert.equal((Deno.statSync(file).mode ?? 0) & 0o777, 0o600);
    const list = await plain.listSessions(200);
    assert.equal(list.length, 200);
    assert.deepEqual([...await index.search("AYŞE", list, source)], ["chat-137"]);
    assert.equal(reads(), 200, "the first search catches up with every session once");
    // Later searches read nothing: substrings, case folded, quotes, short words.
    assert.deepEqual([...await index.search("nin no", list, source)], ["chat-137"]);
    assert.deepEqual([...await index.search('ion 19"', list, source)], []);
    assert.equal((await index.search("question 1", list, source)).size, 111);
    assert.deepEqual([...await index.search("ş", list, source)], ["chat-137"]);
    assert.deepEqual([...await index.search("nothing like it", list, source)], []);
    assert.equal(reads(), 200, "no session was read again");

    // Written through the indexed store (what openSessionStore() gives every writer):
    // the index keeps up by itself.
    const kept = withSearchIndex(plain, file);
    await kept.createMessage("chat-5", SEARCHED_AGENT, 2, said("user", "a brand new zebra", 2));
    await kept.putMessage("chat-6", SEARCHED_AGENT, 1, said("assistant", "replaced giraffe", 1));
    await session(kept, "web-new", ["hello okapi"]);
    const after = await plain.listSessions(200);
    assert.deepEqual([...await index.search("ZEBRA", after, source)], ["chat-5"]);
    assert.deepEqual([...await index.search("giraffe", after, source)], ["chat-6"]);
    // The replaced text is gone ("answer 60".."answer 69" still match).
    const six = await index.search("answer 6", after, source);
    assert.deepEqual([six.has("chat-6"), six.size], [false, 10]);
    assert.equal(reads(), 201, "only the session the index had never seen was read");
    assert.deepEqual([...await index.search("okapi", after, source)], ["web-new"]);

    // Written by a store without the index (another machine, an older agent): read again.
    await plain.createMessage("chat-9", SEARCHED_AGENT, 2, said("user", "quiet walrus", 2));
    const later = await plain.listSessions(200);
    assert.deepEqual([...await index.search("walrus", later, source)], ["chat-9"]);
    assert.equal(reads(), 202);
  } finally {
    index.close();
  }
});

Deno.test("withSearchIndex() stores a message even when the index cannot be written", async () => {
  using tmp = tempDir();
  // The index's place is a folder: it cannot be opened.
  Deno.mkdirSync(`${tmp.path}/blocked`, { recursive: true });
  const store = withSearchIndex(
    new FileSessionStore(`${tmp.path}/sessions`),
    `${tmp.path}/blocked`,
  );
  await session(store, "chat-1", ["kept anyway"]);
  assert.equal((await store.listMessages("chat-1", SEARCHED_AGENT))?.length, 1);
  assert.ok(store instanceof FileSessionStore);
});
