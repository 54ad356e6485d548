import assert from "node:assert/strict";
import { ModelRouter } from "../mod.ts";
import { config, workspace } from "../../tests/_models.ts";

Deno.test("a priced fake role with params.usage spends, and its budget is reached", async () => {
  const ws = workspace();
  try {
    const cfg = config(`
[models.roles.brain]
provider = "fake"
model_id = "fake-priced"
budget = { usd = 0.03, period = "day" }
[models.roles.brain.params]
usage = { input = 1000, output = 1000 }
[models.prices.fake-priced]
input = 3.0
output = 15.0
`);
    const router = new ModelRouter({ config: cfg, env: {}, ledger: ws.ledger, logger: ws.logger });
    const ask = { messages: [{ role: "user" as const, content: "Hi" }] };
    await router.generate("brain", ask, { channel: "cli" });
    await router.generate("brain", ask, { channel: "cli" });
    const rows = ws.rows();
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.input_tokens, 1000);
    assert.equal(rows[0]!.output_tokens, 1000);
    assert.ok(Math.abs(Number(rows[0]!.usd) - 0.018) < 1e-9, "1000 × $3/M + 1000 × $15/M");
    assert.equal(rows[0]!.estimated, 0);
    // $0.036 of $0.03: the third call is refused like any spent budget.
    await assert.rejects(
      () => router.generate("brain", ask, { channel: "cli" }),
      (e: Error) => e.name === "BudgetSpentError",
    );
  } finally {
    ws.close();
  }
});
