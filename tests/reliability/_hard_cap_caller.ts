/**
 * One of several processes spending one hard-capped budget: `deno run --allow-read
 * --allow-write --allow-env --allow-run _hard_cap_caller.ts <ledger> <go file>` waits
 * for the go file, then makes 50 concurrent calls of a priced fake role (each $0.018)
 * through the call chain. Prints how many answered and how many the cap refused.
 *
 * @module
 */
import { ModelRouter, parseConfig } from "@agent/hub";
import { Logger } from "@agent/hub/base";
import { Ledger } from "@agent/hub/money";

const [file, go] = Deno.args;
if (file === undefined || go === undefined) Deno.exit(2);
const config = parseConfig(
  `
[models.roles.brain]
provider = "fake"
model_id = "fake-priced"
max_tokens = 1000
budget = { usd = 1, period = "day", hard = true }
[models.roles.brain.params]
word_ms = 2
replies = []
usage = { input = 1000, output = 1000 }
[models.prices.fake-priced]
input = 3.0
output = 15.0
`,
  "agent.toml",
);
const ledger = Ledger.open(file);
const router = new ModelRouter({
  config,
  env: {},
  ledger,
  logger: new Logger({ file: `${file}.${Deno.pid}.log`, stderr: "off" }),
});
// Ready: the test starts every process at once when all have said so.
Deno.writeTextFileSync(`${go}.ready-${Deno.pid}`, "");
for (;;) {
  try {
    Deno.statSync(go);
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 2));
  }
}
// A prompt of 2,100+ characters: its reservation bound (2 characters a token) is more
// than the 1,000 input tokens the fake reports.
const prompt = "spend ".repeat(350);
let answered = 0;
let refused = 0;
await Promise.all(Array.from({ length: 50 }, async () => {
  try {
    await router.generate("brain", { messages: [{ role: "user", content: prompt }] }, {
      channel: "cli",
      sessionId: `p${Deno.pid}`,
    });
    answered++;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== "BudgetSpentError") throw error;
    refused++;
  }
}));
ledger.close();
console.log(`${answered} ${refused}`);
