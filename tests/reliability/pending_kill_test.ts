/**
 * A process killed mid-call leaves its call pending (with its hard-cap reservation);
 * the next process that opens the ledger settles it as an estimated row and frees the
 * reservation.
 */
import assert from "node:assert/strict";
import { Ledger } from "@agent/hub/money";
import { tempDir } from "../_temp_dir.ts";
import { startSlowProvider } from "./_slow_provider.ts";

const CALLER = new URL("./_pending_caller.ts", import.meta.url).pathname;

Deno.test("a call whose process is killed is settled as estimated at the next open", async () => {
  await using tmp = await tempDir("pending_kill_");
  const provider = startSlowProvider({ words: 2000, wordMs: 10 });
  const file = `${tmp.path}/spend.sqlite3`;
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-net=127.0.0.1",
        "--allow-sys=hostname",
        CALLER,
        file,
        provider.base,
      ],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("sent")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    assert.ok(out.includes("sent"), "the answer started");
    const reading = Ledger.openExisting(file)!;
    const inFlight = reading.pending();
    reading.close();
    assert.equal(inFlight.length, 1, "the call is pending while it runs");
    assert.equal(inFlight[0]!.pid, child.pid);
    assert.ok(inFlight[0]!.reserved_usd > 0, "the hard cap's reservation is held");
    child.kill("SIGKILL");
    await child.status;
    await reader.cancel();
    await child.stderr.cancel();

    using ledger = Ledger.open(file);
    assert.equal(ledger.pending().length, 0, "settled at the next open");
    const [row] = ledger.breakdown("session", { sinceMs: 0 });
    assert.equal(row?.calls, 1);
    assert.equal(row?.estimated_calls, 1);
    assert.ok((row?.input_tokens ?? 0) > 100, "the prompt, estimated");
    assert.ok((row?.usd ?? 0) > 0);
    console.log(
      `pending kill: 1 call pending ($${
        inFlight[0]!.reserved_usd.toFixed(4)
      } reserved), killed, settled as 1 estimated row of ${row?.input_tokens} input tokens ($${
        row?.usd.toFixed(6)
      })`,
    );
  } finally {
    await provider.close();
  }
});
