/**
 * The data folder of a fresh home after the hub's first start: every file in it is
 * private (0600), the job store's and the ledger's WAL files too, which SQLite makes with
 * the main file's mode.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { portHome, SLOW, stopHub, writeJob } from "./_jobs.ts";

/** Every file under `dir` with its mode, walked depth first. */
async function modes(dir: string): Promise<[string, number][]> {
  const found: [string, number][] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await modes(path));
    else found.push([path, (await Deno.lstat(path)).mode! & 0o777]);
  }
  return found;
}

Deno.test({
  name: "jobs: on a fresh home's first start every file of the data folder is 0600",
  ...SLOW,
  async fn() {
    const { home, port } = await portHome();
    await writeJob(home, "later", "schedule: '0 8 * * *'");
    const hub = spawnHubProcess(home);
    try {
      await untilHub(port, (s) => s.jobs?.count === 1, "the hub watches the job");
      const files = await modes(`${home}/data`);
      const names = files.map(([path]) => path.slice(home.length + 1));
      for (const store of ["data/jobs.sqlite3", "data/spend.sqlite3"]) {
        for (const side of ["", "-wal", "-shm"]) {
          assert.ok(names.includes(store + side), names.join());
        }
      }
      const open = files.filter(([, mode]) => mode !== 0o600);
      assert.deepEqual(open.map(([path, mode]) => `${path} ${mode.toString(8)}`), []);
    } finally {
      await stopHub(hub);
      await cleanup();
    }
  },
});
