import assert from "node:assert/strict";
import { LOG_MAX, NetState, SEEN_MAX } from "./state.ts";
import { tempDir } from "../../../tests/_temp_dir.ts";

const contact = {
  address: "bob.example",
  name: "Bob",
  state: "pending_out" as const,
  sign_key: "S".repeat(43),
  box_key: "B".repeat(43),
  note: "",
  created_at: 1,
  updated_at: 1,
};

Deno.test("NetState keeps contacts in a 0600 file inside a 0700 folder", async () => {
  using tmp = tempDir();
  const dir = `${tmp.path}/net`;
  const state = NetState.file(dir);
  await state.saveContact(contact);
  await state.saveContact({ ...contact, state: "accepted" });
  assert.deepEqual((await state.contacts()).map((c) => c.state), ["accepted"]);
  assert.deepEqual((await Deno.stat(dir)).mode! & 0o777, 0o700);
  assert.deepEqual((await Deno.stat(`${dir}/contacts.json`)).mode! & 0o777, 0o600);
  assert.ok(await state.removeContact("bob.example"));
  assert.deepEqual(await state.contacts(), []);
});

Deno.test("NetState tolerates half-written documents", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  await Deno.writeTextFile(`${dir}/contacts.json`, '[{"address": "bo');
  await Deno.writeTextFile(
    `${dir}/log.jsonl`,
    '{"ts":1,"direction":"in","address":"a","id":"x","kind":"message","thread":"x","text":"hi"}\n{"ts":2,"dir',
  );
  const state = NetState.file(dir);
  assert.deepEqual(await state.contacts(), []);
  assert.deepEqual((await state.log()).length, 1);
  // The unparseable contacts are kept aside, so the next write cannot destroy them.
  const aside = [...Deno.readDirSync(dir)].map((e) => e.name)
    .filter((n) => n.startsWith("contacts.json.unreadable-"));
  assert.deepEqual(aside.length, 1);
  assert.deepEqual(Deno.readTextFileSync(`${dir}/${aside[0]}`), '[{"address": "bo');
  await state.saveContact({
    address: "b.example",
    name: "B",
    state: "accepted",
    sign_key: "k",
    box_key: "k",
    note: "",
    created_at: 1,
    updated_at: 1,
  });
  assert.deepEqual((await state.contacts()).map((c) => c.address), ["b.example"]);
  assert.deepEqual(Deno.readTextFileSync(`${dir}/${aside[0]}`), '[{"address": "bo');
});

Deno.test("NetState remembers the last 1 000 handled ids and the last 500 log entries", async () => {
  using tmp = tempDir();
  const state = NetState.file(tmp.path);
  for (let i = 0; i < SEEN_MAX + 5; i++) await state.markSeen("a.example", `id${i}`);
  assert.ok(!(await state.seen("a.example", "id0")));
  assert.ok(await state.seen("a.example", `id${SEEN_MAX + 4}`));
  assert.ok(!(await state.seen("b.example", `id${SEEN_MAX + 4}`)));
  for (let i = 0; i < LOG_MAX + 60; i++) {
    await state.appendLog({
      ts: i,
      direction: "in",
      address: "a.example",
      kind: "message",
      id: `m${i}`,
      thread: "t",
      text: "x",
    });
  }
  const log = await state.log();
  assert.deepEqual(log.length, LOG_MAX);
  assert.deepEqual(log.at(-1)?.id, `m${LOG_MAX + 59}`);
  // Handled again after a crash before the ack: the entry is not written twice;
  // the same id in the other direction (a deterministic reply id) still is.
  const again = { ...log.at(-1)!, text: "x" };
  await state.appendLog(again);
  await state.appendLog({ ...again, direction: "out" });
  const after = await state.log();
  assert.deepEqual(after.filter((e) => e.id === again.id).map((e) => e.direction), ["in", "out"]);
});

Deno.test("NetState counts auto-replies per contact within the last hour", async () => {
  using tmp = tempDir();
  const state = NetState.file(tmp.path);
  await state.recordAutoReply("a.example", 1000);
  await state.recordAutoReply("a.example", 4000);
  assert.deepEqual(await state.autoRepliesLastHour("a.example", 4500), 2);
  assert.deepEqual(await state.autoRepliesLastHour("a.example", 4700), 1);
  assert.deepEqual(await state.autoRepliesLastHour("b.example", 4700), 0);
  const id = await state.sessionFor("a.example/chef");
  assert.deepEqual(await state.sessionFor("a.example/chef"), id);
  await state.setCursor(42);
  assert.deepEqual(await state.cursor(), 42);
});

Deno.test("NetState writers on one folder never lose each other's contacts", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  const one = NetState.file(dir);
  const two = NetState.file(dir);
  await Promise.all(
    Array.from(
      { length: 40 },
      (_, i) => (i % 2 === 0 ? one : two).saveContact({ ...contact, address: `c${i}.example` }),
    ),
  );
  assert.deepEqual((await one.contacts()).length, 40);
});

Deno.test("NetState: a read racing the first write of a document never moves the new file aside", async () => {
  // A reader that found no file used to check for an unreadable one afterwards; when a
  // writer's rename landed in between, the fresh document was taken for garbage and
  // moved aside, and the contact it held was lost (found by the crash-kill suite).
  for (let round = 0; round < 60; round++) {
    using tmp = tempDir();
    const dir = tmp.path;
    const writer = NetState.file(dir);
    const reader = NetState.file(dir);
    let saved = false;
    const reading = (async () => {
      while (!saved) await reader.contacts();
    })();
    await new Promise((r) => setTimeout(r, round % 3));
    await writer.saveContact(contact);
    saved = true;
    await reading;
    const names = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.deepEqual(names.filter((n) => n.includes("unreadable")), [], `round ${round}`);
    assert.deepEqual((await reader.contacts()).map((c) => c.address), ["bob.example"]);
    await Deno.remove(dir, { recursive: true });
  }
});
