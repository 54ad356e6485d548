import assert from "node:assert/strict";
import { tempDir } from "../../tests/_temp_dir.ts";
import { JobStore } from "./store.ts";

Deno.test("JobStore.open() makes the store and its WAL files 0600 on a fresh home", () => {
  using tmp = tempDir("job_store_test_");
  const file = `${tmp.path}/data/jobs.sqlite3`;
  const store = JobStore.open(file);
  try {
    // A write makes sure both WAL files exist.
    store.since("news", Date.now());
    for (const path of [file, `${file}-wal`, `${file}-shm`]) {
      assert.equal(Deno.statSync(path).mode! & 0o777, 0o600, path);
    }
    assert.equal(Deno.statSync(`${tmp.path}/data`).mode! & 0o777, 0o700);
  } finally {
    store.close();
  }
});

Deno.test("JobStore.open() closes up WAL files an older version left readable", () => {
  using tmp = tempDir("job_store_test_");
  const file = `${tmp.path}/jobs.sqlite3`;
  JobStore.open(file).close();
  for (const side of ["", "-wal", "-shm"]) {
    Deno.writeFileSync(file + side, new Uint8Array(), { append: true });
    Deno.chmodSync(file + side, 0o644);
  }
  const store = JobStore.open(file);
  try {
    for (const side of ["", "-wal", "-shm"]) {
      assert.equal(Deno.statSync(file + side).mode! & 0o777, 0o600, side);
    }
  } finally {
    store.close();
  }
});
