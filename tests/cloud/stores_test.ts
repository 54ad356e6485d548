/**
 * One suite, two backends: the session store and the network store behave the same on
 * files (`backend = "file"`, `store = file`) and on a cloud-mode spine on workerd
 * (`backend = "spine"`, `store = spine`).
 */
import assert from "node:assert/strict";
import {
  FileSessionStore,
  NetState,
  type SessionStore,
  SpineDocuments,
  SpineSessionStore,
} from "@agent/hub";
import { fileSpines } from "../spine/_harness.ts";

const TOKEN = "stores-token-0123456789";

// One cloud spine for both suites: the session store's tables and the network store's
// documents (`/hub/state`) do not meet.
const spines = fileSpines();
const cloudSpine = () => spines({ hubToken: TOKEN, mode: "cloud" });

interface Backend<T> {
  make(): Promise<{ store: T; close(): Promise<void> }>;
}

const sessionBackends: Record<string, Backend<SessionStore>> = {
  file: {
    make() {
      const dir = Deno.makeTempDirSync({ prefix: "agent-stores-" });
      return Promise.resolve({
        store: new FileSessionStore(`${dir}/sessions`),
        close: () => Deno.remove(dir, { recursive: true }),
      });
    },
  },
  spine: {
    async make() {
      const spine = await cloudSpine();
      return { store: new SpineSessionStore(spine.url, TOKEN), close: () => Promise.resolve() };
    },
  },
};

const netBackends: Record<string, Backend<NetState>> = {
  file: {
    make() {
      const dir = Deno.makeTempDirSync({ prefix: "agent-stores-" });
      return Promise.resolve({
        store: NetState.file(`${dir}/net`),
        close: () => Deno.remove(dir, { recursive: true }),
      });
    },
  },
  spine: {
    async make() {
      const spine = await cloudSpine();
      return {
        store: new NetState(new SpineDocuments(spine.url, TOKEN)),
        close: () => Promise.resolve(),
      };
    },
  },
};

const tick = () => new Promise((r) => setTimeout(r, 3));

for (const [name, backend] of Object.entries(sessionBackends)) {
  Deno.test({
    name: `sessions (${name}): sessions, agents, messages, meta and events`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const { store: s, close } = await backend.make();
      try {
        assert.equal(await s.createSession("chat-1", { session_id: "chat-1", n: 1 }), "created");
        assert.equal(await s.createSession("chat-1", {}), "exists");
        assert.deepEqual(await s.getSession("chat-1"), { session_id: "chat-1", n: 1 });
        assert.equal(await s.getSession("nope"), undefined);
        assert.equal(await s.createAgent("nope", "main", {}), "missing");
        assert.equal(await s.createAgent("chat-1", "main", { agent_id: "main" }), "created");
        assert.equal(await s.createAgent("chat-1", "main", {}), "exists");
        assert.deepEqual(await s.getAgent("chat-1", "main"), { agent_id: "main" });
        assert.equal(await s.putAgent("chat-1", "main", { agent_id: "main", v: 2 }), true);
        assert.equal(await s.putAgent("chat-1", "ghost", {}), false);
        assert.deepEqual(await s.getAgent("chat-1", "main"), { agent_id: "main", v: 2 });
        assert.equal(await s.createMessage("chat-1", "other", 0, {}), "missing");
        for (const mid of [2, 0, 10, 1]) {
          assert.equal(await s.createMessage("chat-1", "main", mid, { mid }), "created");
        }
        assert.equal(await s.createMessage("chat-1", "main", 1, {}), "exists");
        assert.deepEqual(await s.listMessages("chat-1", "main"), [
          { mid: 0 },
          { mid: 1 },
          { mid: 2 },
          { mid: 10 },
        ]);
        assert.deepEqual(await s.listMessages("chat-1", "main", { offset: 1, limit: 2 }), [
          { mid: 1 },
          { mid: 2 },
        ]);
        assert.equal(await s.listMessages("chat-1", "ghost"), undefined);
        assert.equal(await s.putMessage("chat-1", "main", 2, { mid: 2, edited: true }), true);
        assert.equal(await s.putMessage("chat-1", "main", 3, {}), false);
        assert.deepEqual(await s.getMessage("chat-1", "main", 2), { mid: 2, edited: true });
        assert.equal(await s.getMessage("chat-1", "main", 3), undefined);

        await tick();
        assert.deepEqual(await s.patchMeta("chat-1", { title: "Hello", role: "brain" }), {
          title: "Hello",
          role: "brain",
        });
        assert.deepEqual(await s.patchMeta("chat-1", { title: null }), {
          title: null,
          role: "brain",
        });
        assert.deepEqual(await s.getMeta("chat-1"), { title: null, role: "brain" });
        assert.deepEqual(await s.getMeta("missing"), {});

        await tick();
        await s.addEvent("fresh", { kind: "a" });
        await s.addEvent("fresh", { kind: "b" });
        assert.deepEqual(await s.listEvents("fresh"), [{ kind: "a" }, { kind: "b" }]);
        assert.deepEqual(await s.listEvents("never"), []);
        const implicit = await s.getSession("fresh") as Record<string, unknown>;
        assert.deepEqual(Object.keys(implicit), [
          "session_id",
          "session_type",
          "created_at",
          "updated_at",
        ]);
        assert.equal(implicit.session_type, "AGENT");

        const list = await s.listSessions();
        assert.deepEqual(list.map((x) => [x.session_id, x.message_count]), [
          ["fresh", 0],
          ["chat-1", 4],
        ]);
        for (const item of list) {
          assert.match(item.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          assert.ok(item.updated_at >= item.created_at);
        }
        assert.deepEqual(list[1]?.meta, { title: null, role: "brain" });
        assert.equal((await s.listSessions(1)).length, 1);
        // A meta patch on a missing session creates it.
        await s.patchMeta("made-by-meta", { role: "fast" });
        assert.equal(
          ((await s.getSession("made-by-meta")) as { session_type: string }).session_type,
          "AGENT",
        );
        for (const bad of ["", "-x", "a/b", "x".repeat(129)]) {
          await assert.rejects(() => s.getSession(bad), TypeError, bad);
          await assert.rejects(() => s.createAgent("chat-1", bad, {}), TypeError, bad);
        }
        await assert.rejects(() => s.createMessage("chat-1", "main", -1, {}), TypeError);
        await assert.rejects(() => s.getMessage("chat-1", "main", 1.5), TypeError);
      } finally {
        await close();
      }
    },
  });
}

for (const [name, backend] of Object.entries(netBackends)) {
  Deno.test({
    name: `network store (${name}): contacts, sessions, seen, log, cursor, profile, counts, outbox`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const { store: state, close } = await backend.make();
      try {
        assert.deepEqual(await state.contacts(), []);
        const contact = {
          address: "bob.example",
          name: "Bob",
          state: "accepted" as const,
          sign_key: "s",
          box_key: "b",
          note: "hi",
          created_at: 1,
          updated_at: 2,
        };
        await state.saveContact(contact);
        await state.saveContact({ ...contact, address: "amy.example", name: "Amy" });
        assert.deepEqual((await state.contacts()).map((c) => c.address), [
          "amy.example",
          "bob.example",
        ]);
        assert.deepEqual(await state.contact("bob.example"), contact);
        assert.equal(await state.removeContact("amy.example"), true);
        assert.equal(await state.removeContact("amy.example"), false);

        const sid = await state.sessionFor("bob.example");
        assert.equal(await state.sessionFor("bob.example"), sid);
        assert.notEqual(await state.sessionFor("bob.example/writer"), sid);

        assert.equal(await state.seen("bob.example", "id1"), false);
        await state.markSeen("bob.example", "id1");
        assert.equal(await state.seen("bob.example", "id1"), true);

        const entry = {
          ts: 10,
          direction: "in" as const,
          address: "bob.example",
          kind: "message",
          id: "e1",
          thread: "e1",
          text: "hello",
        };
        await state.appendLog(entry);
        await state.appendLog(entry);
        await state.appendLog({ ...entry, id: "e2", text: "" });
        assert.deepEqual((await state.log()).map((e) => e.id), ["e1", "e2"]);

        assert.equal(await state.cursor(), 0);
        await state.setCursor(42);
        assert.equal(await state.cursor(), 42);

        assert.deepEqual(await state.profile(), {});
        await state.setProfile({ name: "Me", universe_join: true });
        assert.deepEqual(await state.profile(), { name: "Me", universe_join: true });

        await state.count({ received: 2, sent: 1 }, { peer: "bob.example", direction: "in" });
        const counts = await state.counts();
        assert.deepEqual([counts.received, counts.sent, counts.peers], [2, 1, {
          "bob.example": { in: 1, out: 0 },
        }]);

        assert.deepEqual(await state.outbox(), []);
        await state.updateOutbox((entries) => {
          entries.push({
            id: "o1",
            to: "bob.example",
            box_key: "b",
            kind: "message",
            plaintext: { text: "later" },
            thread: "o1",
            reply_to: null,
            hops: 0,
            log: { text: "later" },
            created_at: 1,
            attempts: 0,
            next_at: 1,
            state: "pending",
          });
        });
        assert.deepEqual((await state.outbox()).map((e) => e.id), ["o1"]);
      } finally {
        await close();
      }
    },
  });
}
