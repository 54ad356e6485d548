/**
 * The hub's owner events reach the terminals as they happen: with `agent hub run` up for
 * the home, a stranger's contact request written by another process is shown at once in
 * terminal chat and in the TUI (whose status bar counts it); a budget warning is left to
 * each terminal's own warning before an answer.
 */
import assert from "node:assert/strict";
import { appendNetEvent } from "@agent/hub";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { chatDriver, type Driver, removeHome, type Setup, tuiDriver } from "./_drivers.ts";
import { freePort } from "../_port.ts";

const DRIVERS: [string, (setup: Setup) => Promise<Driver>][] = [
  ["terminal chat", chatDriver],
  ["TUI", (setup) => tuiDriver(setup, { start: true })],
];

for (const [name, start] of DRIVERS) {
  Deno.test({
    name: `owner events in ${name}: a contact request shows at once, budget events do not`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const port = freePort();
      const driver = await start({
        replies: [],
        wordMs: 0,
        approvalTimeoutSeconds: 600,
        spentUsd: 0,
        hubPort: port,
      });
      const hub = spawnHubProcess(driver.home);
      try {
        await untilHub(port);
        // Written by another process than the hub: the hub's bus picks the line up.
        const netDir = `${driver.home}/data/net`;
        const send = async () => {
          await appendNetEvent(netDir, {
            ts: Math.floor(Date.now() / 1000),
            type: "budget.warning",
            role: "brain",
            spent_usd: 12,
            cap_usd: 15,
            period: "month",
            text: "Budget warning from the hub.",
          });
          await appendNetEvent(netDir, {
            ts: Math.floor(Date.now() / 1000),
            type: "net.contact_request",
            address: "stranger.example",
            name: "Stranger\u001b[2J",
            text: "hello there",
          });
        };
        // The terminal finds the hub within its 5 s look; then the events stream.
        const started = Date.now();
        let shown = false;
        while (!shown && Date.now() - started < 15_000) {
          await send();
          shown = await driver.until("asks to become a contact", 1_500).then(
            () => true,
            () => false,
          );
        }
        assert.ok(shown, driver.shown());
        const text = driver.shown();
        assert.match(
          text,
          /Stranger\\x1b\[2J \(stranger\.example\) asks to become a contact: “hello there”\. `agent net accept stranger\.example` accepts\./,
        );
        assert.ok(!text.includes("Budget warning from the hub."), text);
      } finally {
        try {
          hub.kill("SIGTERM");
        } catch { /* gone */ }
        await hub.status;
        await driver.close();
        await removeHome(driver.home);
      }
    },
  });
}
