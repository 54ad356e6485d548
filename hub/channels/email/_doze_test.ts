import assert from "node:assert/strict";
import { Doze } from "./_doze.ts";

Deno.test("Doze.sleep() returns at once for a signal that aborted before the call", async () => {
  const stop = new AbortController();
  stop.abort();
  const at = Date.now();
  await new Doze().sleep(60_000, stop.signal);
  assert.ok(Date.now() - at < 1_000, "slept although the loop was stopped");
});

Deno.test("Doze.sleep() ends on a poke and on an abort during the pause", async () => {
  const doze = new Doze();
  const stop = new AbortController();
  const at = Date.now();
  const poked = doze.sleep(60_000, stop.signal);
  doze.poke();
  await poked;
  const aborted = doze.sleep(60_000, stop.signal);
  stop.abort();
  await aborted;
  assert.ok(Date.now() - at < 1_000);
});
