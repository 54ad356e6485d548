import assert from "node:assert/strict";
import { tempDir } from "../_testing.ts";
import { MAIN_AGENT_ID } from "../agent/agent.ts";
import { FileSessionStore } from "../sessions/file_store.ts";
import { withSearchIndex } from "../sessions/indexed.ts";
import type { SessionStore } from "../sessions/store.ts";
import { SEARCHED_AGENT, SessionSearchIndex } from "./index.ts";
import { messageText } from "./text.ts";

function said(role: "user" | "assistant" | "tool", text: string) {
  return { message: { role, content: [{ type: "text", text }] } };
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
    await store.createMessage(id, SEARCHED_AGENT, i, said(i % 2 ? "assistant" : "user", line));
  }
}

Deno.test("SEARCHED_AGENT is the agent the desk writes a conversation under", () => {
  assert.equal(SEARCHED_AGENT, MAIN_AGENT_ID);
});

Deno.test("messageText() takes a user's or the agent's text, never a tool's; any stored shape", () => {
  assert.equal(messageText(said("user", " hi ")), "hi");
  assert.equal(messageText({ message: { role: "assistant", content: "plain" } }), "plain");
  assert.equal(
    messageText({ role: "user", parts: [{ type: "text", text: "a" }, { text: "b" }] }),
    "ab",
  );
  assert.equal(messageText(said("tool", "secret result")), "");
  assert.equal(
    messageText({
      message: { role: "assistant", content: [{ type: "tool-call", toolName: "x" }] },
    }),
    "",
  );
  for (const odd of [null, 3, "x", [], { message: null }]) assert.equal(messageText(odd), "");
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
  try {
    assert.equal((Deno.statSync(file).mode ?? 0) & 0o777, 0o600);
    const list = await plain.listSessions(200);
    assert.equal(list.length, 200);
    assert.deepEqual([...await index.search("AYŞE", list, plain)], ["chat-137"]);
    assert.equal(reads(), 200, "the first search catches up with every session once");
    // Later searches read nothing: substrings, case folded, quotes, short words.
    assert.deepEqual([...await index.search("nin no", list, plain)], ["chat-137"]);
    assert.deepEqual([...await index.search('ion 19"', list, plain)], []);
    assert.equal((await index.search("question 1", list, plain)).size, 111);
    assert.deepEqual([...await index.search("ş", list, plain)], ["chat-137"]);
    assert.deepEqual([...await index.search("nothing like it", list, plain)], []);
    assert.equal(reads(), 200, "no session was read again");

    // Written through the indexed store (what openSessionStore() gives every writer):
    // the index keeps up by itself.
    const kept = withSearchIndex(plain, file);
    await kept.createMessage("chat-5", SEARCHED_AGENT, 2, said("user", "a brand new zebra"));
    await kept.putMessage("chat-6", SEARCHED_AGENT, 1, said("assistant", "replaced giraffe"));
    await session(kept, "web-new", ["hello okapi"]);
    const after = await plain.listSessions(200);
    assert.deepEqual([...await index.search("ZEBRA", after, plain)], ["chat-5"]);
    assert.deepEqual([...await index.search("giraffe", after, plain)], ["chat-6"]);
    // The replaced text is gone ("answer 60".."answer 69" still match).
    const six = await index.search("answer 6", after, plain);
    assert.deepEqual([six.has("chat-6"), six.size], [false, 10]);
    assert.equal(reads(), 201, "only the session the index had never seen was read");
    assert.deepEqual([...await index.search("okapi", after, plain)], ["web-new"]);

    // Written by a store without the index (another machine, an older agent): read again.
    await plain.createMessage("chat-9", SEARCHED_AGENT, 2, said("user", "quiet walrus"));
    const later = await plain.listSessions(200);
    assert.deepEqual([...await index.search("walrus", later, plain)], ["chat-9"]);
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
