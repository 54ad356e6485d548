import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "../../tests/_temp_dir.ts";
import { FileSessionStore } from "../sessions/file_store.ts";
import { withSearchIndex } from "../sessions/indexed.ts";
import { dropHeldIndex, HELD_MAX, heldFiles, heldIndex } from "./held.ts";
import { SEARCHED_AGENT } from "./index.ts";

/** The bodies the index at `file` holds, read through a connection of its own. */
function bodies(file: string): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare("SELECT body FROM said ORDER BY rowid").all() as { body: string }[])
      .map((row) => row.body);
  } finally {
    db.close();
  }
}

function record(file: string, sessionId: string, id: number, text: string): void {
  heldIndex(file).record(sessionId, SEARCHED_AGENT, { id, text }, true);
}

Deno.test("heldIndex() keeps one index open per file; another connection sees each write", () => {
  using tmp = tempDir();
  const file = `${tmp.path}/data/session_search.sqlite3`;
  try {
    const first = heldIndex(file);
    assert.equal(heldIndex(file), first);
    record(file, "chat-1", 0, "first words");
    assert.deepEqual(bodies(file), ["first words"]);
    record(file, "chat-1", 1, "second words");
    assert.deepEqual(bodies(file), ["first words", "second words"]);
    assert.equal(heldIndex(file), first);
    assert.equal((Deno.statSync(file).mode ?? 0) & 0o777, 0o600);
  } finally {
    dropHeldIndex(file);
  }
});

Deno.test("heldIndex() follows its file: a data folder removed and made again gets the next write", () => {
  using tmp = tempDir();
  const file = `${tmp.path}/data/session_search.sqlite3`;
  try {
    const before = heldIndex(file);
    record(file, "chat-1", 0, "into the old file");
    Deno.removeSync(`${tmp.path}/data`, { recursive: true });
    record(file, "chat-2", 0, "into a new file");
    assert.notEqual(heldIndex(file), before);
    assert.deepEqual(bodies(file), ["into a new file"]);
  } finally {
    dropHeldIndex(file);
  }
});

Deno.test("heldIndex() holds at most HELD_MAX files, closing the least recently used", () => {
  using tmp = tempDir();
  const files = Array.from(
    { length: HELD_MAX + 2 },
    (_, i) => `${tmp.path}/home-${i}/session_search.sqlite3`,
  );
  try {
    for (const file of files) record(file, "chat-1", 0, file);
    assert.deepEqual(heldFiles().filter((f) => files.includes(f)), files.slice(2));
    // The oldest held one used again moves to the end; a closed one opens again.
    record(files[2]!, "chat-1", 1, "again");
    record(files[0]!, "chat-1", 1, "reopened");
    assert.deepEqual(
      heldFiles().filter((f) => files.includes(f)),
      [...files.slice(4), files[2]!, files[0]!],
    );
    assert.deepEqual(bodies(files[0]!), [files[0]!, "reopened"]);
  } finally {
    for (const file of files) dropHeldIndex(file);
  }
  assert.deepEqual(heldFiles().filter((f) => files.includes(f)), []);
});

Deno.test("withSearchIndex(): a failed write lets go of the held index; the next one opens the file again", async () => {
  using tmp = tempDir();
  const file = `${tmp.path}/data/session_search.sqlite3`;
  const store = withSearchIndex(new FileSessionStore(`${tmp.path}/sessions`), file);
  const said = (id: number, text: string) => ({
    version: 2,
    message_id: id,
    created_at: "2026-11-30T10:00:00.000Z",
    message: { role: "user", content: text },
  });
  try {
    await store.createSession("chat-1", {});
    await store.createAgent("chat-1", SEARCHED_AGENT, {});
    await store.createMessage("chat-1", SEARCHED_AGENT, 0, said(0, "held"));
    assert.ok(heldFiles().includes(file));
    // Another connection drops the table the held one writes to: its next write fails.
    const other = new DatabaseSync(file);
    other.exec("DROP TABLE said");
    other.close();
    await store.createMessage("chat-1", SEARCHED_AGENT, 1, said(1, "stored anyway"));
    assert.ok(!heldFiles().includes(file));
    // The next write opens the file again (its schema made again) and is recorded.
    await store.createMessage("chat-1", SEARCHED_AGENT, 2, said(2, "after"));
    assert.ok(heldFiles().includes(file));
    assert.deepEqual(bodies(file), ["after"]);
    assert.equal((await store.listMessages("chat-1", SEARCHED_AGENT))?.length, 3);
  } finally {
    dropHeldIndex(file);
  }
});
