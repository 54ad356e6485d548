import assert from "node:assert/strict";
import { FileSessionStore } from "./file_store.ts";

function store(now: () => number = Date.now) {
  const dir = Deno.makeTempDirSync({ prefix: "agent-sessions-" });
  return { dir, store: new FileSessionStore(`${dir}/sessions`, { now }) };
}

Deno.test("FileSessionStore follows the session routes: sessions, agents, messages, events", async () => {
  let clock = Date.UTC(2026, 10, 22, 1, 0, 0, 5);
  const { dir, store: s } = store(() => clock);
  try {
    assert.equal(await s.createSession("chat-1", { session_id: "chat-1" }), "created");
    assert.equal(await s.createSession("chat-1", {}), "exists");
    assert.equal(await s.createAgent("nope", "main", {}), "missing");
    assert.equal(await s.createAgent("chat-1", "main", { agent_id: "main" }), "created");
    assert.equal(await s.createAgent("chat-1", "main", {}), "exists");
    assert.equal(await s.createMessage("chat-1", "other", 0, {}), "missing");
    for (const mid of [2, 0, 10, 1]) {
      assert.equal(await s.createMessage("chat-1", "main", mid, { mid }), "created");
    }
    assert.equal(await s.createMessage("chat-1", "main", 1, {}), "exists");
    assert.deepEqual(await s.listMessages("chat-1", "main"), [{ mid: 0 }, { mid: 1 }, { mid: 2 }, {
      mid: 10,
    }]);
    assert.deepEqual(await s.listMessages("chat-1", "main", { offset: 1, limit: 2 }), [
      { mid: 1 },
      { mid: 2 },
    ]);
    assert.equal(await s.listMessages("chat-1", "ghost"), undefined);
    assert.equal(await s.putMessage("chat-1", "main", 2, { mid: 2, edited: true }), true);
    assert.equal(await s.putMessage("chat-1", "main", 3, {}), false);
    assert.deepEqual(await s.getMessage("chat-1", "main", 2), { mid: 2, edited: true });

    clock += 1000;
    assert.deepEqual(await s.patchMeta("chat-1", { title: "Hello", role: "brain" }), {
      title: "Hello",
      role: "brain",
    });
    assert.deepEqual(await s.patchMeta("chat-1", { title: null }), { title: null, role: "brain" });
    assert.deepEqual(await s.getMeta("missing"), {});

    clock += 1000;
    await s.addEvent("fresh", { kind: "a" });
    await s.addEvent("fresh", { kind: "b" });
    assert.deepEqual(await s.listEvents("fresh"), [{ kind: "a" }, { kind: "b" }]);
    assert.deepEqual(await s.listEvents("never"), []);
    const implicit = await s.getSession("fresh") as Record<string, unknown>;
    assert.equal(implicit.session_type, "AGENT");
    assert.equal(implicit.created_at, "2026-11-22T01:00:02.005Z");

    const list = await s.listSessions();
    assert.deepEqual(list.map((x) => [x.session_id, x.message_count]), [["fresh", 0], [
      "chat-1",
      4,
    ]]);
    assert.equal(list[1]?.created_at, "2026-11-22T01:00:00.005Z");
    assert.equal(list[1]?.updated_at, "2026-11-22T01:00:01.005Z");
    assert.deepEqual(list[1]?.meta, { title: null, role: "brain" });
    assert.equal((await s.listSessions(1)).length, 1);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("FileSessionStore refuses invalid ids and writes private files", async () => {
  const { dir, store: s } = store();
  try {
    await assert.rejects(() => s.createSession("../x", {}), TypeError);
    await assert.rejects(() => s.createSession(".hidden", {}), TypeError);
    await assert.rejects(() => s.getMessage("ok", "main", -1), TypeError);
    await s.createSession("ok.1_a-b", {});
    const mode = Deno.statSync(`${dir}/sessions/ok.1_a-b/session.json`).mode! & 0o777;
    assert.equal(mode, 0o600);
    // A half-written file from a crash reads as missing, never as an error.
    Deno.writeTextFileSync(`${dir}/sessions/ok.1_a-b/session.json`, '{"data": {');
    assert.equal(await s.getSession("ok.1_a-b"), undefined);
    assert.deepEqual(await s.listSessions(), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
