import assert from "node:assert/strict";
import { freePort, onFreePort } from "./_port.ts";
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

Deno.test("freePort() hands out a port nothing listens on, below the system's ephemeral range", async () => {
  const port = freePort();
  await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port }));
  // Outgoing connections and port-0 sockets draw from 32768 up (Linux's range).
  for (let i = 0; i < 50; i++) {
    const handed = freePort();
    assert.ok(handed >= 20_000 && handed < 32_768, `${handed}`);
  }
});

Deno.test("onFreePort() picks another port when the first is taken before the server binds it", async () => {
  // A real bind race: the first port handed to the server is bound here first.
  const tried: number[] = [];
  let squatter: Deno.Listener | undefined;
  const bound = await onFreePort(undefined, (port) => {
    tried.push(port);
    if (squatter === undefined) squatter = Deno.listen({ hostname: "127.0.0.1", port });
    return Promise.resolve(Deno.listen({ hostname: "127.0.0.1", port }));
  });
  try {
    assert.equal(tried.length, 2);
    assert.notEqual(tried[0], tried[1]);
    assert.equal((bound.addr as Deno.NetAddr).port, tried[1]);
  } finally {
    bound.close();
    squatter?.close();
  }
});

Deno.test("onFreePort() keeps a named port, and passes on errors that are not a taken port", async () => {
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const named = (held.addr as Deno.NetAddr).port;
  try {
    let calls = 0;
    await assert.rejects(
      onFreePort(named, (port) => {
        calls++;
        return Promise.resolve(Deno.listen({ hostname: "127.0.0.1", port }));
      }),
      Deno.errors.AddrInUse,
    );
    assert.equal(calls, 1);
  } finally {
    held.close();
  }
  let calls = 0;
  await assert.rejects(
    onFreePort(undefined, () => {
      calls++;
      return Promise.reject(new Error("bad config"));
    }),
    /bad config/,
  );
  assert.equal(calls, 1);
});
