import assert from "node:assert/strict";
import { HttpError } from "@agent/net";
import { tempDir } from "../../tests/_temp_dir.ts";
import { SqliteMemoryStore } from "../memory/mod.ts";
import { dashboardMemory } from "./memory.ts";

const SESSION = { id: "s", csrf: "c", expiresAt: Infinity };

function call(
  routes: ReturnType<typeof dashboardMemory>,
  name: string,
  body?: unknown,
  lang = "en",
) {
  const url = new URL(`http://127.0.0.1:8790/dashboard/api/${name}`);
  const request = new Request(url, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", "x-agent-lang": lang },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return routes.handle(request, SESSION, { url, path: `/${url.pathname.split("/api/")[1]}` });
}

/** Whether `error` is the HTTP refusal `status` with exactly `detail`. */
function refused(status: number, detail: string) {
  return (error: unknown) =>
    error instanceof HttpError && error.status === status && error.detail === detail;
}

Deno.test("dashboardMemory() refuses a bad id (400) and an unknown one (404) with one sentence, changing nothing", async () => {
  using tmp = tempDir();
  const store = new SqliteMemoryStore(`${tmp.path}/memory.sqlite3`, { lang: "en" });
  try {
    const routes = dashboardMemory({ store: () => store, lang: "en" });
    const kept = await store.add({ scope: "owner", text: "Likes green tea", source: "owner" });
    const waiting = await store.add({
      scope: "person:ayse@example.com",
      text: "Ayşe is vegetarian",
      source: "agent",
      status: "pending",
      pending_reason: "person",
    });
    for (
      const [route, body] of [
        ["memory/forget", { ids: ["abc"] }],
        ["memory/pin", { id: "abc", pinned: true }],
        ["memory/approve", { id: "abc" }],
        ["memory/reject", { id: "abc" }],
      ] as const
    ) {
      await assert.rejects(
        () => call(routes, route, body),
        refused(400, "'abc' is not a memory id (a whole number such as 12)."),
        route,
      );
      const unknown = { ...body, ...("ids" in body ? { ids: [kept.id, 999] } : { id: 999 }) };
      await assert.rejects(
        () => call(routes, route, unknown),
        refused(404, "There is no memory 999."),
        route,
      );
    }
    // The page's language, not the hub's.
    await assert.rejects(
      () => call(routes, "memory/pin", { id: 999, pinned: true }, "tr"),
      refused(404, "999 numaralı bir anı yok."),
    );
    await assert.rejects(
      () => call(routes, "memory/approve", { id: kept.id }),
      refused(400, `Memory ${kept.id} is not waiting for approval.`),
    );
    await assert.rejects(
      () => call(routes, "memory/approve", { id: waiting.id, text: "  " }),
      refused(400, "A memory needs some text."),
    );
    await assert.rejects(
      () => call(routes, "memory?scope=people", undefined),
      (e) => e instanceof HttpError && e.status === 400 && /people/.test(e.detail ?? ""),
    );
    // Nothing changed: the forget with one unknown id kept the known one too.
    assert.deepEqual((await store.list("every", { history: true })).map((m) => m.id).sort(), [
      kept.id,
      waiting.id,
    ]);
    assert.equal((await store.get(waiting.id, "every"))?.status, "pending");
    assert.equal((await store.get(kept.id, "every"))?.pinned, false);
  } finally {
    store.close();
  }
});

Deno.test("dashboardMemory() lists by scope and search, pins, approves as edited, rejects and forgets", async () => {
  using tmp = tempDir();
  const store = new SqliteMemoryStore(`${tmp.path}/memory.sqlite3`, { lang: "en" });
  try {
    const routes = dashboardMemory({ store: () => store, lang: "en" });
    const tea = await store.add({
      scope: "owner",
      text: "Likes green tea",
      source: "owner",
      session_id: "chat-1",
      channel: "chat",
    });
    const ayse = await store.add({
      scope: "person:ayse@example.com",
      text: "Ayşe prefers mornings",
      source: "agent",
    });
    const waiting = await store.add({
      scope: "owner",
      text: "Works at Acme",
      source: "agent",
      status: "pending",
      pending_reason: "proposed",
    });
    const list = async (query: string) =>
      (await (await call(routes, `memory${query}`))!.json()) as {
        memories: { id: number; session_id: string | null; pinned: boolean }[];
        scopes: string[];
      };
    const all = await list("");
    assert.deepEqual(all.memories.map((m) => m.id), [ayse.id, tea.id], "in force only");
    assert.deepEqual(all.scopes, ["owner", "person:ayse@example.com"]);
    assert.equal(all.memories[1]!.session_id, "chat-1");
    assert.deepEqual((await list("?scope=owner")).memories.map((m) => m.id), [tea.id]);
    assert.deepEqual((await list("?q=ayse")).memories.map((m) => m.id), [ayse.id]);
    const pending = await (await call(routes, "memory/pending"))!.json();
    assert.deepEqual(pending.pending.map((m: { id: number }) => m.id), [waiting.id]);
    assert.equal(pending.pending[0].reason, "the memory role proposed it");

    const pin = await (await call(routes, "memory/pin", { id: tea.id, pinned: true }))!.json();
    assert.match(pin.saved, /is pinned/);
    assert.equal((await store.get(tea.id, "every"))?.pinned, true);
    const approved = await call(routes, "memory/approve", {
      id: waiting.id,
      text: "Works at Beta",
    });
    assert.equal((await approved!.json()).saved, `Memory ${waiting.id} is in force.`);
    assert.equal((await store.get(waiting.id, "every"))?.text, "Works at Beta");
    const other = await store.add({
      scope: "owner",
      text: "Owns a boat",
      source: "agent",
      status: "pending",
      pending_reason: "untrusted",
    });
    await call(routes, "memory/reject", { id: String(other.id) });
    assert.equal(await store.get(other.id, "every"), undefined);
    const forgot = await call(routes, "memory/forget", { ids: [ayse.id], redact: true });
    // No sessions folder given (a cloud brain): nothing to clean, and it says only the forget.
    assert.equal((await forgot!.json()).saved, `Forgot 1: #${ayse.id}.`);
    assert.equal(await store.get(ayse.id, "every"), undefined);
    assert.equal((await store.list("every", { search: "Ayşe", history: true })).length, 0);
  } finally {
    store.close();
  }
});

Deno.test("dashboardMemory() says memory is off when the hub has no store", async () => {
  const routes = dashboardMemory({ store: () => undefined, lang: "en" });
  assert.equal((await (await call(routes, "memory"))!.json()).enabled, false);
  await assert.rejects(
    () => call(routes, "memory/forget", { ids: [1] }),
    refused(409, "There is no memory in this conversation."),
  );
});

Deno.test("dashboardMemory() forgets with redact: the text leaves the stored transcripts too", async () => {
  using tmp = tempDir();
  const store = new SqliteMemoryStore(`${tmp.path}/memory.sqlite3`, { lang: "en" });
  try {
    const sessionsDir = `${tmp.path}/sessions`;
    await Deno.mkdir(`${sessionsDir}/chat-1`, { recursive: true });
    const events = `${sessionsDir}/chat-1/events.jsonl`;
    await Deno.writeTextFile(
      events,
      `${JSON.stringify({ role: "user", content: "Remember: my PIN hint is Blue  Heron." })}\n`,
    );
    const routes = dashboardMemory({ store: () => store, lang: "en", sessionsDir });
    assert.equal((await (await call(routes, "memory"))!.json()).redact, true);
    const hint = await store.add({
      scope: "owner",
      text: "PIN hint is blue heron",
      source: "owner",
    });
    const forgot = await call(routes, "memory/forget", { ids: [hint.id], redact: true }, "tr");
    assert.equal(
      (await forgot!.json()).saved,
      `1 anı unutuldu: #${hint.id}. Metin 1 kayıtlı konuşma dökümünden temizlendi.`,
    );
    assert.doesNotMatch(await Deno.readTextFile(events), /heron/i);
    assert.match(await Deno.readTextFile(events), /\[forgotten\]/);
  } finally {
    store.close();
  }
});
