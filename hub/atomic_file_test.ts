import assert from "node:assert/strict";
import {
  readJsonTolerant,
  readJsonTolerantSync,
  writeFileAtomic,
  writeFileAtomicSync,
} from "./atomic_file.ts";
import { tempDir } from "../tests/_temp_dir.ts";

async function modeOf(path: string): Promise<number> {
  return ((await Deno.stat(path)).mode ?? 0) & 0o777;
}

Deno.test("writeFileAtomic() replaces a file whole, mode 0600, and leaves no temp file", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  await writeFileAtomic(`${dir}/a.json`, '{"v":1}');
  await writeFileAtomic(`${dir}/a.json`, '{"v":2}');
  assert.equal(await Deno.readTextFile(`${dir}/a.json`), '{"v":2}');
  assert.equal(await modeOf(`${dir}/a.json`), 0o600);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["a.json"]);
});

Deno.test("writeFileAtomic() creates a missing folder only with dirMode", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  await assert.rejects(writeFileAtomic(`${dir}/x/a.txt`, "a"), Deno.errors.NotFound);
  await writeFileAtomic(`${dir}/x/y/a.txt`, "a", { dirMode: 0o700, mode: 0o644 });
  assert.equal(await modeOf(`${dir}/x/y`), 0o700);
  assert.equal(await modeOf(`${dir}/x/y/a.txt`), 0o644);
});

Deno.test("writeFileAtomicSync() writes like its async twin", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  writeFileAtomicSync(`${dir}/n/a.txt`, "hello", { dirMode: 0o700 });
  assert.equal(await Deno.readTextFile(`${dir}/n/a.txt`), "hello");
  assert.equal(await modeOf(`${dir}/n/a.txt`), 0o600);
});

Deno.test("readJsonTolerant() reads a half-written or missing file as undefined", async () => {
  using tmp = tempDir();
  const dir = tmp.path;
  await Deno.writeTextFile(`${dir}/half.json`, '{"contacts": [');
  assert.equal(await readJsonTolerant(`${dir}/half.json`), undefined);
  assert.equal(await readJsonTolerant(`${dir}/missing.json`), undefined);
  assert.equal(readJsonTolerantSync(`${dir}/half.json`), undefined);
  await Deno.writeTextFile(`${dir}/ok.json`, '{"a": 1}');
  assert.deepEqual(await readJsonTolerant(`${dir}/ok.json`), { a: 1 });
});
