import assert from "node:assert/strict";
import { tempDir } from "../../tests/_temp_dir.ts";
import { MemoryError } from "./errors.ts";
import { SqliteMemoryStore } from "./sqlite_store.ts";

function open(dir: string, now = () => Date.UTC(2026, 0, 10)) {
  return new SqliteMemoryStore(`${dir}/data/memory.sqlite3`, { now });
}

/** Every file under `dir` whose bytes hold `needle` (as UTF-8). */
function filesHolding(dir: string, needle: string): string[] {
  const want = new TextEncoder().encode(needle);
  const out: string[] = [];
  const walk = (path: string) => {
    for (const entry of Deno.readDirSync(path)) {
      const full = `${path}/${entry.name}`;
      if (entry.isDirectory) walk(full);
      else if (entry.isFile && holds(Deno.readFileSync(full), want)) out.push(full);
    }
  };
  walk(dir);
  return out;
}

function holds(bytes: Uint8Array, want: Uint8Array): boolean {
  outer: for (let i = 0; i + want.length <= bytes.length; i++) {
    for (let j = 0; j < want.length; j++) if (bytes[i + j] !== want[j]) continue outer;
    return true;
  }
  return false;
}

Deno.test("SqliteMemoryStore: the file and its WAL files are 0600 from the first write", async () => {
  using tmp = tempDir();
  const store = open(tmp.path);
  try {
    await store.add({ scope: "owner", text: "Likes green tea", source: "owner" });
    for (const suffix of ["", "-wal", "-shm"]) {
      const mode = Deno.statSync(`${store.file}${suffix}`).mode! & 0o777;
      assert.equal(mode, 0o600, suffix);
    }
  } finally {
    store.close();
  }
});

Deno.test("SqliteMemoryStore: reads never leave the scopes they are given", async () => {
  using tmp = tempDir();
  const store = open(tmp.path);
  try {
    const mine = await store.add({
      scope: "owner",
      text: "The owner's cat is Pamuk",
      source: "owner",
    });
    const bobs = await store.add({
      scope: "person:bob@x.org",
      text: "Bob's cat is Tekir",
      source: "agent",
    });
    await store.add({
      scope: "conversation:messenger:-5",
      text: "The group's cat is Duman",
      source: "agent",
    });
    assert.deepEqual((await store.search("cat", ["owner"])).map((r) => r.memory.id), [mine.id]);
    assert.deepEqual((await store.search("cat", ["person:bob@x.org"])).map((r) => r.memory.id), [
      bobs.id,
    ]);
    assert.equal((await store.search("cat", [])).length, 0);
    assert.equal((await store.list(["person:bob@x.org"])).length, 1);
    assert.equal(await store.get(bobs.id, ["owner"]), undefined);
    assert.equal((await store.list("every")).length, 3);
    await assert.rejects(store.pin(bobs.id, ["owner"], true), MemoryError);
    assert.deepEqual(await store.forget([bobs.id], ["owner"]), []);
    assert.ok(await store.get(bobs.id, "every"));
  } finally {
    store.close();
  }
});

Deno.test("SqliteMemoryStore: search folds Turkish letters and ranks recent matches first", async () => {
  using tmp = tempDir();
  let now = Date.UTC(2025, 0, 1);
  const store = open(tmp.path, () => now);
  try {
    const old = await store.add({
      scope: "owner",
      text: "Ayşe İstanbul'da yaşıyor",
      source: "owner",
    });
    now = Date.UTC(2026, 0, 1);
    const fresh = await store.add({
      scope: "owner",
      text: "Ayşe Iğdır'a taşındı",
      source: "owner",
    });
    await store.add({ scope: "owner", text: "Prefers tea", source: "owner" });
    const found = await store.search("ayse nerede yasiyor", ["owner"], { now });
    assert.deepEqual(found.map((r) => r.memory.id).sort(), [old.id, fresh.id].sort());
    assert.equal((await store.search("istanbul", ["owner"]))[0]?.memory.id, old.id);
    // Equal matches: the newer one first.
    assert.equal((await store.search("ayşe", ["owner"], { now }))[0]?.memory.id, fresh.id);
    // A piece of a word, through the trigram index.
    assert.equal((await store.search("stanbu", ["owner"]))[0]?.memory.id, old.id);
    assert.deepEqual((await store.list(["owner"], { search: "iğdı" })).map((m) => m.id), [
      fresh.id,
    ]);
    assert.deepEqual((await store.list(["owner"], { search: "te" })).length, 1);
  } finally {
    store.close();
  }
});

Deno.test("SqliteMemoryStore: a replacing memory supersedes the old one, which keeps its text", async () => {
  using tmp = tempDir();
  let now = Date.UTC(2026, 0, 1);
  const store = open(tmp.path, () => now);
  try {
    const old = await store.add({
      scope: "owner",
      text: "Lives in Ankara",
      source: "owner",
      pinned: true,
    });
    now += 1000;
    const moved = await store.add({
      scope: "owner",
      text: "Lives in İzmir",
      source: "owner",
      replaces: old.id,
    });
    const kept = (await store.get(old.id, ["owner"]))!;
    assert.equal(kept.text, "Lives in Ankara");
    assert.equal(kept.valid_until_ms, now);
    assert.equal(kept.superseded_by, moved.id);
    assert.equal(kept.pinned, false);
    assert.deepEqual((await store.search("lives", ["owner"])).map((r) => r.memory.id), [moved.id]);
    assert.deepEqual(
      (await store.search("lives", ["owner"], { history: true })).map((r) => r.memory.id).sort(),
      [old.id, moved.id].sort(),
    );
    assert.deepEqual(await store.counts(["owner"]), { active: 1, pending: 0, superseded: 1 });
    // A superseded memory cannot be replaced again.
    const before = await store.list("every", { history: true });
    await assert.rejects(
      store.add({ scope: "owner", text: "Lives in Bursa", source: "owner", replaces: old.id }),
      (e: MemoryError) => e.code === "replaces_gone",
    );
    assert.deepEqual(await store.list("every", { history: true }), before);
  } finally {
    store.close();
  }
});

Deno.test("SqliteMemoryStore: a pending memory is never recalled; approval supersedes what it replaces", async () => {
  using tmp = tempDir();
  const store = open(tmp.path);
  try {
    const old = await store.add({ scope: "owner", text: "Drinks coffee", source: "owner" });
    const wait = await store.add({
      scope: "owner",
      text: "Drinks only tea now",
      source: "agent",
      status: "pending",
      pending_reason: "proposed",
      replaces: old.id,
    });
    assert.equal((await store.get(old.id, ["owner"]))?.valid_until_ms, null);
    assert.deepEqual((await store.search("drinks tea", ["owner"])).map((r) => r.memory.id), [
      old.id,
    ]);
    const approved = await store.approve(wait.id, ["owner"], { text: "Drinks only green tea now" });
    assert.equal(approved.status, "active");
    assert.equal(approved.text, "Drinks only green tea now");
    assert.equal((await store.get(old.id, ["owner"]))?.superseded_by, wait.id);
    assert.deepEqual((await store.search("green", ["owner"])).map((r) => r.memory.id), [wait.id]);
    await assert.rejects(
      store.approve(wait.id, ["owner"]),
      (e: MemoryError) => e.code === "not_pending",
    );
    const other = await store.add({
      scope: "owner",
      text: "Ignore this one",
      source: "agent",
      status: "pending",
      pending_reason: "untrusted",
    });
    assert.deepEqual(await store.forget([other.id], ["owner"]), [other.id]);
    assert.equal(await store.get(other.id, "every"), undefined);
  } finally {
    store.close();
  }
});

Deno.test("SqliteMemoryStore: a forgotten memory's text is in no file of the data folder", async () => {
  using tmp = tempDir();
  const store = open(tmp.path);
  const secret = "Zanzibarquux wobblefrotz allergy";
  try {
    for (let i = 0; i < 300; i++) {
      await store.add({
        scope: "owner",
        text: `ordinary note ${i} about tea ${i % 7}`,
        source: "owner",
      });
    }
    const m = await store.add({ scope: "owner", text: secret, source: "owner", pinned: true });
    for (let i = 0; i < 50; i++) {
      await store.add({ scope: "owner", text: `later note ${i}`, source: "owner" });
    }
    assert.ok(filesHolding(tmp.path, "wobblefrotz").length > 0);
    assert.deepEqual(await store.forget([m.id], ["owner"]), [m.id]);
    for (const needle of [secret, "wobblefrotz", "zanzibarquux", "Zanzibarquux", "obblefr"]) {
      assert.deepEqual(filesHolding(tmp.path, needle), [], needle);
    }
    assert.equal((await store.search("wobblefrotz", ["owner"])).length, 0);
    assert.deepEqual(await store.counts("every"), { active: 350, pending: 0, superseded: 0 });
  } finally {
    store.close();
  }
  for (const needle of ["wobblefrotz", "zanzibarquux"]) {
    assert.deepEqual(filesHolding(tmp.path, needle), [], needle);
  }
});

Deno.test("SqliteMemoryStore: bad input is one sentence and changes nothing", async () => {
  using tmp = tempDir();
  const store = open(tmp.path);
  try {
    const cases: [Parameters<typeof store.add>[0], string][] = [
      [{ scope: "owner", text: "   ", source: "owner" }, "empty_text"],
      [{ scope: "owner", text: "x".repeat(1001), source: "owner" }, "too_long"],
      [{ scope: "owner", text: "tea\u200Bplease", source: "owner" }, "hidden_chars"],
      [{ scope: "owner", text: "a\u202Eb", source: "owner" }, "hidden_chars"],
      [{ scope: "people:x" as never, text: "x", source: "owner" }, "unknown_scope"],
      [{ scope: "owner", text: "x", source: "owner", kind: "rumour" as never }, "unknown_kind"],
      [{ scope: "owner", text: "x", source: "owner", replaces: 99 }, "replaces_gone"],
    ];
    for (const [input, code] of cases) {
      await assert.rejects(store.add(input), (e: MemoryError) => {
        assert.equal(e.code, code);
        assert.equal(e.exitCode, 2);
        assert.ok(!e.message.includes("\n") && e.message.endsWith("."), e.message);
        return true;
      });
    }
    await assert.rejects(store.approve(5, "every"), (e: MemoryError) => e.code === "unknown_id");
    assert.equal((await store.list("every", { history: true })).length, 0);
    // An emoji made with a zero-width joiner is not hidden.
    assert.ok(await store.add({ scope: "owner", text: "Works as 👩‍💻", source: "owner" }));
  } finally {
    store.close();
  }
});

Deno.test("SqliteMemoryStore: the same memory twice is one row", async () => {
  using tmp = tempDir();
  const store = open(tmp.path);
  try {
    const a = await store.add({ scope: "owner", text: "Likes tea.", source: "owner" });
    const b = await store.add({
      scope: "owner",
      text: "likes  TEA",
      source: "agent",
      pinned: true,
    });
    assert.equal(a.id, b.id);
    assert.equal(b.pinned, true);
    const c = await store.add({ scope: "person:bob", text: "Likes tea.", source: "agent" });
    assert.notEqual(c.id, a.id);
  } finally {
    store.close();
  }
});

Deno.test("SqliteMemoryStore: a memory that is already there replaces another (duplicates merged)", async () => {
  using tmp = tempDir();
  const store = open(tmp.path);
  try {
    const a = await store.add({ scope: "owner", text: "Drinks tea", source: "owner" });
    const b = await store.add({ scope: "owner", text: "Drinks green tea", source: "agent" });
    const merged = await store.add({
      scope: "owner",
      text: "Drinks green tea every morning",
      source: "agent",
      replaces: a.id,
    });
    const again = await store.add({
      scope: "owner",
      text: "Drinks green tea every morning",
      source: "agent",
      replaces: b.id,
    });
    assert.equal(again.id, merged.id);
    assert.equal((await store.get(a.id, "every"))?.superseded_by, merged.id);
    assert.equal((await store.get(b.id, "every"))?.superseded_by, merged.id);
    assert.deepEqual(await store.counts("every"), { active: 1, pending: 0, superseded: 2 });
  } finally {
    store.close();
  }
});
