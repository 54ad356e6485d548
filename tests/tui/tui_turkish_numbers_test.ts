/**
 * `agent tui` in Turkish writes its dollars with Turkish separators (issue 39 W16): the
 * status bar and the first screen's budget read `$0,014/$15,00 ay` and `$14,99`, never
 * the English decimal point the bar's own two-decimal formatter wrote (`$0.01/$15.00`).
 */
import assert from "node:assert/strict";
import { Ledger } from "@agent/hub/money";
import { cleanup } from "../cli/_run.ts";
import { seededCalls } from "../_hub_in_process.ts";
import { fakeHome } from "./_home.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";

Deno.test({
  name: "agent tui in Turkish: the status bar and the budget left use the decimal comma",
  ignore: !HAS_TMUX,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const home = await fakeHome();
    const ledger = Ledger.open(`${home}/data/spend.sqlite3`);
    const [call] = seededCalls(Date.now() - 1000, 1);
    ledger.recordMany([{ ...call!, role: "brain", model_id: "fake-brain", usd: 0.014 }]);
    ledger.close();
    const pane = await Pane.start(["--home", home, "--lang", "tr", "tui"], {
      columns: 100,
      rows: 30,
    });
    try {
      const screen = await pane.until(/brain · \$0,014\/\$15,00 ay · fake fake-brain/);
      await pane.until("$14,99.");
      const kept = await pane.keep("turkish-numbers");
      assert.match(kept, /Kalan bütçe: bu ay \$15,00 içinden \$14,99\./);
      assert.doesNotMatch(screen + kept, /\$\d+\.\d/, "no dollar amount with a decimal point");
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});
