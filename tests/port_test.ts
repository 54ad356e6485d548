import assert from "node:assert/strict";
import { freePort } from "./_port.ts";
import { tempDir } from "./_temp_dir.ts";

Deno.test("freePort() claims each port it hands out and never hands out a claimed one", () => {
  using claims = tempDir("ports-test-");
  // Claimed by another file of the run: never handed out here.
  const taken = new Set<number>();
  for (let i = 0; i < 20; i++) {
    const port = freePort();
    taken.add(port);
    Deno.mkdirSync(`${claims.path}/${port}`, { recursive: true });
  }
  const handed = Array.from({ length: 100 }, () => freePort({ claims: claims.path }));
  assert.equal(new Set(handed).size, handed.length);
  assert.deepEqual(handed.filter((port) => taken.has(port)), []);
  const claimed = [...Deno.readDirSync(claims.path)].map((e) => Number(e.name));
  for (const port of handed) assert.ok(claimed.includes(port), `${port} is claimed`);
});

Deno.test("freePort() hands out a port nothing listens on", async () => {
  const port = freePort();
  await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port }));
});
