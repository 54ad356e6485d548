/**
 * Every call that was sent is a ledger row, however it ends: 100 calls to a loopback
 * provider that streams slowly, each cancelled at a random point (before the first
 * word, mid-answer, or not at all), leave exactly 100 rows; the cancelled ones are
 * marked estimated with the prompt and what streamed, the finished ones carry the
 * provider's usage.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ModelRouter, parseConfig } from "@agent/hub";
import { Logger } from "@agent/hub/base";
import { Ledger } from "@agent/hub/money";
import { tempDir } from "../_temp_dir.ts";
import { startSlowProvider } from "./_slow_provider.ts";

const CALLS = 100;
const WORDS = 20;
const WORD_MS = 5;

Deno.test("100 calls cancelled at random points against a slow provider leave 100 rows", async () => {
  await using tmp = await tempDir("cancel_rows_");
  const provider = startSlowProvider({ words: WORDS, wordMs: WORD_MS });
  const ledger = Ledger.open(`${tmp.path}/spend.sqlite3`);
  try {
    const config = parseConfig(
      `
[models.roles.brain]
provider = "vendor-b"
model_id = "slow-1"
budget = { usd = 1000, period = "day" }
[models.roles.brain.params]
base_url = "${provider.base}"
[models.prices.slow-1]
input = 3.0
output = 15.0
`,
      "agent.toml",
    );
    const router = new ModelRouter({
      config,
      env: { VENDOR_B_API_KEY: "k" },
      ledger,
      logger: new Logger({ file: `${tmp.path}/agent.log`, stderr: "off" }),
    });
    let cancelled = 0;
    // Ten at a time, so the run stays short on a loaded machine.
    for (let batch = 0; batch < CALLS / 10; batch++) {
      await Promise.all(Array.from({ length: 10 }, async (_, i) => {
        const abort = new AbortController();
        const question = `question ${batch * 10 + i};`;
        // 0..300 ms after the provider has the request: before the first word,
        // mid-answer, or after the end (an answer takes about 100-300 ms). One call in five
        // is not cancelled at all, so some finish however slowly a loaded machine streams.
        const at = i % 5 === 4 ? undefined : Math.floor(Math.random() * 300);
        let timer: ReturnType<typeof setTimeout> | undefined;
        void provider.received(question).then(() => {
          if (at !== undefined) timer = setTimeout(() => abort.abort(), at);
        });
        try {
          for await (
            const _ of router.stream("brain", {
              messages: [{ role: "user", content: question }],
            }, { channel: "cli", sessionId: `s${batch * 10 + i}`, signal: abort.signal })
          ) { /* read to the end */ }
        } catch (error) {
          if (!abort.signal.aborted) throw error;
          cancelled++;
        } finally {
          clearTimeout(timer);
        }
      }));
    }
    // A cancelled call's row is written in the abort listener; give the last ones a turn.
    await new Promise((r) => setTimeout(r, 50));
    const db = new DatabaseSync(`${tmp.path}/spend.sqlite3`, { readOnly: true });
    try {
      const rows = db.prepare("SELECT * FROM calls").all() as {
        input_tokens: number;
        output_tokens: number;
        usd: number;
        estimated: number;
      }[];
      const pending = db.prepare("SELECT COUNT(*) AS n FROM pending").get() as { n: number };
      const estimated = rows.filter((r) => r.estimated === 1);
      console.log(
        `cancel rows: ${CALLS} calls, ${provider.requests} sent, ${cancelled} cancelled, ${rows.length} rows (${estimated.length} estimated), ${pending.n} pending`,
      );
      assert.equal(provider.requests, CALLS);
      assert.equal(rows.length, CALLS, "one row per call that was sent");
      assert.equal(pending.n, 0);
      assert.ok(cancelled > 0, "some calls were cancelled");
      assert.ok(estimated.length >= 1 && estimated.length <= cancelled);
      assert.ok(rows.length - estimated.length >= 1, "some calls finished");
      for (const row of estimated) {
        assert.ok(row.input_tokens > 0, "the prompt is estimated");
        assert.ok(row.output_tokens <= WORDS * 2, "what streamed, no more");
        assert.ok(row.usd > 0, "an estimated row is priced");
      }
      for (const row of rows.filter((r) => r.estimated === 0)) {
        assert.equal(row.input_tokens, 40);
        assert.equal(row.output_tokens, WORDS);
      }
      const day = db.prepare("SELECT TOTAL(calls) AS n, TOTAL(estimated_calls) AS e FROM spend_day")
        .get() as { n: number; e: number };
      assert.equal(day.n, CALLS);
      assert.equal(day.e, estimated.length);
    } finally {
      db.close();
    }
  } finally {
    ledger.close();
    await provider.close();
  }
});

Deno.test("a connection lost mid-answer leaves one estimated row of the prompt and what streamed", async () => {
  await using tmp = await tempDir("cancel_rows_");
  const provider = startSlowProvider({ words: 50, wordMs: 2, dropAfter: 12 });
  const ledger = Ledger.open(`${tmp.path}/spend.sqlite3`);
  try {
    const config = parseConfig(
      `
[models.roles.brain]
provider = "vendor-b"
model_id = "slow-1"
budget = { usd = 1000, period = "day" }
[models.roles.brain.params]
base_url = "${provider.base}"
`,
      "agent.toml",
    );
    const router = new ModelRouter({
      config,
      env: { VENDOR_B_API_KEY: "k" },
      ledger,
      logger: new Logger({ file: `${tmp.path}/agent.log`, stderr: "off" }),
    });
    await assert.rejects(async () => {
      for await (
        const _ of router.stream("brain", {
          messages: [{ role: "user", content: "tell me a long story" }],
        }, { channel: "cli" })
      ) { /* read to the end */ }
    });
    const [row] = ledger.breakdown("channel", { sinceMs: 0 });
    assert.equal(row?.calls, 1);
    assert.equal(row?.estimated_calls, 1);
    assert.ok((row?.input_tokens ?? 0) > 0, "the prompt, estimated");
    // 12 words of "wordN " (6-7 characters) streamed: about 20 tokens at 4 characters each.
    assert.ok(
      (row?.output_tokens ?? 0) >= 15 && (row?.output_tokens ?? 0) <= 25,
      `${row?.output_tokens}`,
    );
    assert.equal(ledger.pending().length, 0);
  } finally {
    ledger.close();
    await provider.close();
  }
});
