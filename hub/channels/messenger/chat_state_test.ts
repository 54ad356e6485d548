import assert from "node:assert/strict";
import { MessengerStateFile } from "./chat_state.ts";

async function withState(content: string | undefined, fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "agent-messenger-state-" });
  try {
    if (content !== undefined) {
      await Deno.mkdir(`${dir}/messenger`);
      await Deno.writeTextFile(`${dir}/messenger/state.json`, content);
    }
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("MessengerStateFile.load() starts a fresh state at the events of this second", async () => {
  await withState(undefined, async (dir) => {
    const state = await new MessengerStateFile(dir).load(1_767_225_600);
    assert.equal(state.last_event_id, "1767225600000");
    assert.ok("1767225599999-000000" < state.last_event_id);
    assert.ok("1767225600000-000000" > state.last_event_id);
  });
});

Deno.test("MessengerStateFile.load() goes on after the second an older state told last", async () => {
  const old = { chats: {}, events_after: 1_700_000_000, events_seen: ["{}"], buttons: {} };
  await withState(JSON.stringify(old), async (dir) => {
    const file = new MessengerStateFile(dir);
    const state = await file.load(1_767_225_600);
    assert.equal(state.last_event_id, "1700000001000");
    state.last_event_id = "1767225600000-000003";
    await file.save();
    const saved = JSON.parse(await Deno.readTextFile(`${dir}/messenger/state.json`));
    assert.equal(saved.last_event_id, "1767225600000-000003");
    assert.equal(saved.events_after, undefined);
    assert.equal((await new MessengerStateFile(dir).load(0)).last_event_id, "1767225600000-000003");
  });
});
