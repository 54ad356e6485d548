import assert from "node:assert/strict";
import { ModelRouter } from "../mod.ts";
import { config, workspace } from "../../tests/_models.ts";

const ASK = { messages: [{ role: "user" as const, content: "Hi" }] };

function spentRow(ts: number) {
  return {
    ts,
    role: "brain",
    provider: "fake" as const,
    model_id: "fake-1",
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd: 2,
    channel: "chat" as const,
    session_id: null,
    peer: null,
  };
}

for (
  const [period, spentAt, stillSpent, reset, resetText] of [
    // Sunday 22 Nov 2026 23:59:30 in Istanbul (UTC+3), and the midnight after it.
    [
      "day",
      Date.UTC(2026, 10, 22, 20, 59),
      Date.UTC(2026, 10, 22, 20, 59, 59),
      Date.UTC(2026, 10, 22, 21),
      "23.11.2026 00:00",
    ],
    // The same Sunday night is the end of a week: Monday 00:00 resets it.
    [
      "week",
      Date.UTC(2026, 10, 17, 9),
      Date.UTC(2026, 10, 22, 20, 59, 59),
      Date.UTC(2026, 10, 22, 21),
      "23.11.2026 00:00",
    ],
    // 30 Nov 23:59 in Istanbul, then 1 Dec 00:00.
    [
      "month",
      Date.UTC(2026, 10, 1, 9),
      Date.UTC(2026, 10, 30, 20, 59, 59),
      Date.UTC(2026, 10, 30, 21),
      "01.12.2026 00:00",
    ],
  ] as const
) {
  Deno.test(`ModelRouter: a spent ${period} budget blocks until the Istanbul reset, then answers again`, async () => {
    const ws = workspace();
    try {
      const cfg = config(`
[models.roles.brain]
provider = "fake"
model_id = "fake-1"
budget = { usd = 1, period = "${period}" }
`);
      ws.ledger.record(spentRow(spentAt));
      let now = stillSpent;
      const router = new ModelRouter({
        config: cfg,
        env: {},
        ledger: ws.ledger,
        logger: ws.logger,
        now: () => now,
      });
      const blocked = await router.generate("brain", ASK, { channel: "chat" }).then(
        () => undefined,
        (e) => e,
      );
      assert.deepEqual(
        blocked?.sentence,
        `The brain budget is spent ($2.00 of $1.00) and resets at ${resetText}. To raise the cap, change it in agent.toml.`,
      );
      now = reset;
      assert.deepEqual((await router.generate("brain", ASK, { channel: "chat" })).text, "Okay.");
      assert.deepEqual(ws.rows().map((r) => r.ts), [spentAt, reset]);
    } finally {
      ws.close();
    }
  });
}

Deno.test("ModelRouter ends the turn when the budget and its degrade_to stand-in are both spent, in en and tr", async () => {
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "fake"
model_id = "fake-1"
budget = { usd = 1, period = "month", degrade_to = "fast" }
[models.roles.fast]
provider = "fake"
model_id = "fake-2"
budget = { usd = 1, period = "day" }
`);
    const now = Date.UTC(2026, 10, 22, 9);
    ws.ledger.record(spentRow(now - 1000));
    ws.ledger.record({ ...spentRow(now - 500), role: "fast", model_id: "fake-2" });
    const sentences: string[] = [];
    for (const lang of ["en", "tr"] as const) {
      const router = new ModelRouter({
        config: cfg,
        env: {},
        ledger: ws.ledger,
        logger: ws.logger,
        lang,
        now: () => now,
      });
      const error = await router.generate("brain", ASK, { channel: "chat" }).then(
        () => undefined,
        (e) => e,
      );
      sentences.push(error?.sentence);
    }
    assert.deepEqual(sentences, [
      "The brain budget is spent until 01.12.2026 00:00, and fast, which stands in for it, is spent too until 23.11.2026 00:00.",
      "brain bütçesi 01.12.2026 00:00 saatine kadar tükendi; onun yerine geçen fast de 23.11.2026 00:00 saatine kadar tükendi.",
    ]);
    assert.deepEqual(ws.rows().length, 2, "no call was made");
  } finally {
    ws.close();
  }
});
