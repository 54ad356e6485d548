/**
 * `agent tui` decides the running hub's approvals too (issue 38: a tool asked for in
 * an e-mail or the messenger is decided in the owner's other channels, the TUI among
 * them): a real hub process whose web chat asks to save a note, the TUI in tmux beside
 * it shows where it was asked, takes no key in its first 500 ms, and Ctrl-Y there runs
 * the tool in the hub. The TUI's guard goes by a clock file the test steps
 * (`AGENT_TEST_CLOCK`): held still while the early keys are sent, so a loaded machine
 * that delivers them late cannot carry them past the 500 ms (stop 46's CI run did), then
 * moved on 600 ms.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { fakeHome } from "./_home.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";
import { freePort } from "../_port.ts";
import { spawnHubProcess, stopHubProcess, untilHub } from "../_hub_process.ts";
import { dashboardSignIn } from "../_dashboard_session.ts";
import { until } from "../_poll.ts";
import { StepClock } from "../jobs/_clock.ts";

const SAVE = '/tool write_note {"name":"x","text":"y"}';
const ASKED = "The agent wants to save the note “x” (1 character).";

Deno.test({
  name:
    "agent tui: an approval the running hub waits on (its web chat's) shows with where it was asked, and Ctrl-Y there runs the tool in the hub",
  ignore: !HAS_TMUX,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    const home = await fakeHome([SAVE, "Saved it."], { port });
    const hub = spawnHubProcess(home);
    let pane: Pane | undefined;
    try {
      await untilHub(port);
      const { api } = await dashboardSignIn(port);
      const clock = await StepClock.create(home);
      pane = await Pane.start(["--home", home, "tui"], {
        columns: 120,
        rows: 40,
        env: clock.env,
      });
      await pane.until("brain · $0.00/$15.00 month");
      const sent = await api("chat/send", {
        method: "POST",
        body: JSON.stringify({ text: "save it" }),
      });
      assert.equal(sent.status, 200, await sent.clone().text());
      const { session } = await sent.json() as { session: string };
      const shown = await pane.until(ASKED);
      assert.match(shown, new RegExp(`Asked in web:${session}, in the running hub:`));
      // A key in the first 500 ms is not an answer; typed text stays text.
      await pane.keys("C-y");
      await pane.type("y");
      await pane.keep("hub-approval-120");
      // Time for a decision, had one been made, to reach the hub and run the tool.
      await new Promise((r) => setTimeout(r, 600));
      await assert.rejects(Deno.stat(`${home}/notes/x.md`));
      await clock.advance(600);
      await pane.keys("C-y");
      await until("the hub ran the tool", async () => {
        try {
          return await Deno.readTextFile(`${home}/notes/x.md`) === "y\n";
        } catch {
          return false;
        }
      });
      const after = await pane.until(/› y\s*$/m);
      assert.ok(!after.includes(ASKED), after);
      const approvals = await (await api("approvals")).json() as { approvals: unknown[] };
      assert.deepEqual(approvals.approvals, []);
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
    } finally {
      await pane?.kill();
      await stopHubProcess(hub);
      await cleanup();
    }
  },
});
