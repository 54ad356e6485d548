/**
 * A process that dies mid-call: `deno run --allow-read --allow-write --allow-env
 * --allow-net --allow-sys=hostname _pending_caller.ts <ledger> <base url>` makes one streamed call of a
 * budgeted vendor-b role and prints `sent` once the answer started; the test kills it.
 *
 * @module
 */
import { ModelRouter, parseConfig } from "@agent/hub";
import { Logger } from "@agent/hub/base";
import { Ledger } from "@agent/hub/money";

const [file, base] = Deno.args;
if (file === undefined || base === undefined) Deno.exit(2);
const config = parseConfig(
  `
[models.roles.brain]
provider = "vendor-b"
model_id = "slow-1"
budget = { usd = 5, period = "day", hard = true }
[models.roles.brain.params]
base_url = "${base}"
[models.prices.slow-1]
input = 3.0
output = 15.0
`,
  "agent.toml",
);
const ledger = Ledger.open(file);
const router = new ModelRouter({
  config,
  env: { VENDOR_B_API_KEY: "k" },
  ledger,
  logger: new Logger({ file: `${file}.log`, stderr: "off" }),
});
let told = false;
for await (
  const event of router.stream("brain", {
    messages: [{ role: "user", content: "a long question ".repeat(50) }],
  }, { channel: "cli", sessionId: "killed" })
) {
  if (event.type === "text" && !told) {
    told = true;
    console.log("sent");
  }
}
