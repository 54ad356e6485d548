/**
 * Cloud mode's memory on workerd (`POST /hub/memory` over D1), through the hub's own
 * client (`SpineMemoryStore`): scopes built into every read, supersede, pending and
 * approval, and a forget that leaves neither the row nor a term of it in the indexes.
 */
import assert from "node:assert/strict";
import { MemoryError, SpineMemoryStore } from "@agent/hub/memory";
import { hub } from "./_fixtures.ts";
import { spineTest, TOKEN } from "./_setup.ts";
import { agent } from "../cli/_run.ts";

spineTest("memory: the token first, and local mode answers cloud_mode_off", {
  relationalStore: true,
}, async (spine) => {
  const body = { method: "POST", body: JSON.stringify({ op: "scopes" }) };
  const denied = await hub(spine.url, "wrong-token", "/hub/memory", body);
  assert.deepEqual([denied.status, denied.body], [401, { error: "unauthorized" }]);
  const off = await hub(spine.url, TOKEN, "/hub/memory", body);
  assert.deepEqual([off.status, off.body], [404, { error: "cloud_mode_off" }]);
});

spineTest("memory: scopes, supersede, pending and a forget that leaves no trace in D1", {
  mode: "cloud",
}, async (spine) => {
  const store = new SpineMemoryStore(spine.url, TOKEN);
  const mine = await store.add({
    scope: "owner",
    text: "Ayşe İstanbul'da yaşıyor",
    source: "owner",
  });
  const bobs = await store.add({
    scope: "person:bob@example.org",
    text: "Bob's cat is Tekir",
    source: "agent",
  });
  await store.add({
    scope: "conversation:messenger:-5",
    text: "The group's cat is Duman",
    source: "agent",
  });
  assert.equal(
    (await store.add({ scope: "owner", text: "ayşe  istanbul'da yaşıyor.", source: "owner" })).id,
    mine.id,
  );
  // Reads stay in their scopes; Turkish letters fold as on a local store.
  assert.deepEqual((await store.search("ayse yasiyor", ["owner"])).map((r) => r.memory.id), [
    mine.id,
  ]);
  assert.deepEqual(
    (await store.search("cat", ["person:bob@example.org"])).map((r) => r.memory.id),
    [bobs.id],
  );
  assert.equal((await store.search("cat", ["owner"])).length, 0);
  assert.equal(await store.get(bobs.id, ["owner"]), undefined);
  assert.deepEqual(await store.forget([bobs.id], ["owner"]), []);
  await assert.rejects(
    store.pin(bobs.id, ["owner"], true),
    (e: MemoryError) => e.code === "unknown_id",
  );
  // Supersede: the old row keeps its text and gets its end.
  const moved = await store.add({
    scope: "owner",
    text: "Ayşe İzmir'e taşındı",
    source: "owner",
    replaces: mine.id,
  });
  const old = (await store.get(mine.id, ["owner"]))!;
  assert.equal(old.superseded_by, moved.id);
  assert.ok(old.valid_until_ms !== null);
  assert.deepEqual((await store.search("ayse", ["owner"])).map((r) => r.memory.id), [moved.id]);
  assert.equal((await store.search("ayse", ["owner"], { history: true })).length, 2);
  await assert.rejects(
    store.add({ scope: "owner", text: "Ayşe Bursa'da", source: "owner", replaces: mine.id }),
    (e: MemoryError) => e.code === "replaces_gone",
  );
  // Pending: never recalled, approved with an edit, then in force.
  const wait = await store.add({
    scope: "owner",
    text: "Prefers green tea",
    source: "agent",
    status: "pending",
    pending_reason: "proposed",
  });
  assert.equal((await store.search("tea", ["owner"])).length, 0);
  await assert.rejects(
    store.approve(mine.id, "every"),
    (e: MemoryError) => e.code === "not_pending",
  );
  const approved = await store.approve(wait.id, ["owner"], { text: "Prefers green tea, no sugar" });
  assert.equal(approved.status, "active");
  assert.deepEqual((await store.search("sugar", ["owner"])).map((r) => r.memory.id), [wait.id]);
  assert.deepEqual(await store.counts("every"), { active: 4, pending: 0, superseded: 1 });
  assert.deepEqual(await store.scopes(), [
    "owner",
    "conversation:messenger:-5",
    "person:bob@example.org",
  ]);
  // Bad input is refused before anything is sent, with the local sentence.
  await assert.rejects(
    store.add({ scope: "owner", text: " ", source: "owner" }),
    (e: MemoryError) => e.message === "A memory needs some text.",
  );
  const raw = await hub(spine.url, TOKEN, "/hub/memory", {
    method: "POST",
    body: JSON.stringify({ op: "list", scopes: ["people:x"] }),
  });
  assert.equal(raw.status, 400);
  // A forget: the row and every index entry of it.
  assert.deepEqual(await store.forget([bobs.id], "every"), [bobs.id]);
  const db = await spine.mf.getD1Database("DB");
  const terms = await db.prepare("SELECT term FROM memories_vocab WHERE term IN ('tekir', 'bob')")
    .all();
  assert.deepEqual(terms.results, []);
  assert.equal(
    (await db.prepare("SELECT COUNT(*) AS n FROM memories WHERE text LIKE '%Tekir%'").first<
      { n: number }
    >())?.n,
    0,
  );
  assert.equal(await store.get(bobs.id, "every"), undefined);
  // The memory role's marks.
  await store.markExtracted("chat-1", 7);
  assert.equal(await store.extractedThrough("chat-1"), 7);
  assert.equal(await store.extractedThrough("chat-2"), 0);
});

spineTest("agent memory --cloud: the owner's commands on the cloud brain's memory", {
  mode: "cloud",
}, async (spine) => {
  const env = { AGENT_SPINE_URL: spine.url, AGENT_SPINE_TOKEN: TOKEN };
  let r = await agent(["memory", "add", "Prefers tea", "--pin", "--cloud"], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), "Remembered as memory 1 (owner).");
  r = await agent(["memory", "list", "--cloud"], { env });
  assert.match(r.stdout, /^#1 📌 owner · fact · .* · Prefers tea$/m);
  r = await agent(["--lang", "tr", "memory", "show", "9", "--cloud"], { env });
  assert.deepEqual([r.code, r.stderr.trim().split("\n").at(-1)], [2, "9 numaralı bir anı yok."]);
  r = await agent(["memory", "forget", "1", "--cloud"], { env });
  assert.equal(r.stdout.trim(), "Forgot 1: #1.");
  const store = new SpineMemoryStore(spine.url, TOKEN);
  assert.deepEqual(await store.list("every", { history: true }), []);
  r = await agent(["memory", "list", "--cloud"], { env: { AGENT_SPINE_URL: spine.url } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Cloud mode needs AGENT_SPINE_TOKEN in \.env or the environment\./);
});
