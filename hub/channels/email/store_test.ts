import assert from "node:assert/strict";
import { tempDir } from "../../../tests/_temp_dir.ts";
import { MailStore } from "./store.ts";

function take(store: MailStore, uid: number, receivedMs: number): void {
  store.take({
    messageId: `<m${uid}@x>`,
    folder: "INBOX",
    uidvalidity: 1,
    uid,
    sender: "me@example.com",
    person: "owner",
    thread: "<m1@x>",
    subject: `m${uid}`,
    state: "taken",
    reason: null,
    receivedMs,
    raw: new Uint8Array([uid]),
  });
}

Deno.test("MailStore: unanswered mails come in the order taken, whatever the clock said", () => {
  using tmp = tempDir();
  const file = `${tmp.path}/email.sqlite3`;
  let store = MailStore.open(file);
  try {
    take(store, 1, 2_000_000);
    take(store, 2, 2_000_000);
    // The clock was set back (at a restart, say): later mail, earlier time.
    store.close();
    store = MailStore.open(file);
    take(store, 3, 1_000_000);
    take(store, 4, 1_000_500);
    assert.deepEqual(store.unanswered().map((m) => m.messageId), [
      "<m1@x>",
      "<m2@x>",
      "<m3@x>",
      "<m4@x>",
    ]);
  } finally {
    store.close();
  }
});
