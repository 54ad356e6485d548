/**
 * `/remember`, `/memory` and `/forget` in `agent tui` (issue 36: the TUI in tmux): the
 * desk's memory commands answer in the transcript, a kept memory is recalled into the
 * next turn's request, and a forgotten one is gone from the list.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { fakeHome } from "./_home.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";

Deno.test({
  name:
    "agent tui: /remember keeps a memory, /memory finds it (ayse finds Ayşe), /forget deletes it",
  ignore: !HAS_TMUX,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const home = await fakeHome(["Noted."]);
    const pane = await Pane.start(["--home", home, "tui"], { columns: 120, rows: 40 });
    try {
      await pane.until("brain · $0.00/$15.00 month");
      await pane.type("/remember Ayşe drinks her tea with lemon");
      await pane.keys("Enter");
      const kept = await pane.until(/Remembered as memory (\d+) \(owner\)\./);
      const id = /Remembered as memory (\d+) \(owner\)\./.exec(kept)![1]!;
      await pane.type("/memory ayse");
      await pane.keys("Enter");
      await pane.until(new RegExp(`${id}\\b.*Ayşe drinks her tea with lemon`));
      await pane.keep("memory-120");
      await pane.type(`/forget ${id}`);
      await pane.keys("Enter");
      await pane.until(`Forgot 1: #${id}.`);
      await pane.type("/memory lemon");
      await pane.keys("Enter");
      await pane.until("No memory matches 'lemon'.");
      await pane.keep("memory-forgot-120");
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});
