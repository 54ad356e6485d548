import assert from "node:assert/strict";
import { acquireLock, liveLock, readLock, releaseLock } from "./lock.ts";
import { tempDir } from "../../tests/_temp_dir.ts";

Deno.test("acquireLock() takes a free lock and refuses while its holder lives", () => {
  using tmp = tempDir();
  const dir = tmp.path;
  const file = `${dir}/data/hub.lock`;
  const first = acquireLock(file, Deno.pid, Date.now());
  assert.ok(first.ok);
  assert.deepEqual(readLock(file)?.pid, Deno.pid);
  const second = acquireLock(file, 99999999, Date.now());
  assert.ok(!second.ok);
  assert.deepEqual(second.holder.pid, Deno.pid);
  releaseLock(file, Deno.pid);
  assert.deepEqual(readLock(file), undefined);
});

Deno.test("acquireLock() takes over a stale lock whose pid is gone and reports it", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  const file = `${dir}/hub.lock`;
  await Deno.writeTextFile(file, JSON.stringify({ pid: 2 ** 30, started_at: 5 }));
  assert.deepEqual(liveLock(file), undefined);
  const result = acquireLock(file, Deno.pid, Date.now());
  assert.ok(result.ok);
  assert.deepEqual(result.stale?.pid, 2 ** 30);
  assert.deepEqual(readLock(file)?.pid, Deno.pid);
});

Deno.test("acquireLock() treats a half-written lock as stale", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  const file = `${dir}/hub.lock`;
  await Deno.writeTextFile(file, '{"pid": 12');
  const result = acquireLock(file, Deno.pid, Date.now());
  assert.ok(result.ok);
});

Deno.test("acquireLock() treats a lock naming its own pid as left by an earlier run", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  const file = `${dir}/hub.lock`;
  await Deno.writeTextFile(file, JSON.stringify({ pid: Deno.pid, started_at: 1000 }));
  const result = acquireLock(file, Deno.pid, 5000);
  assert.ok(result.ok);
  assert.deepEqual(readLock(file), { pid: Deno.pid, started_at: 5000 });
});

Deno.test("releaseLock() leaves another hub's lock alone", () => {
  using tmp = tempDir();
  const dir = tmp.path;
  const file = `${dir}/hub.lock`;
  assert.ok(acquireLock(file, Deno.pid, Date.now()).ok);
  releaseLock(file, 4242);
  assert.deepEqual(readLock(file)?.pid, Deno.pid);
});
