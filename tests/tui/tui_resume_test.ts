/**
 * `/resume` in `agent tui` (issue 39 F18): the picker's row says what a person
 * recognises (the title, how many messages, when), and the session it opens shows its
 * tool outcomes again, each as its sentence, where they came.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { fakeHome } from "./_home.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";

const SAVE = '/tool write_note {"name":"groceries","text":"milk, eggs"}';
const OUTCOME = "✓ Saved the note “groceries” (10 bytes).";

Deno.test({
  name:
    "agent tui: /resume lists 'save a note · 4 messages · today HH:MM' and shows the session's tool outcome again",
  ignore: !HAS_TMUX,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const home = await fakeHome([SAVE, "Saved your list.", "Hello again."]);
    try {
      const first = await Pane.start(["--home", home, "tui"], { columns: 100, rows: 30 });
      try {
        await first.until("brain · $0.00/$15.00 month");
        await first.type("save a note");
        await first.keys("Enter");
        await first.until("The agent wants to save the note “groceries”");
        await new Promise((r) => setTimeout(r, 600));
        await first.keys("C-y");
        await first.until("Saved your list.");
        await first.until(OUTCOME);
        await first.keys("C-d");
        assert.equal(await first.exitCode(), 0);
      } finally {
        await first.kill();
      }
      const pane = await Pane.start(["--home", home, "tui"], { columns: 100, rows: 30 });
      try {
        await pane.until("brain · $0.00/$15.00 month");
        await pane.type("/resume");
        await pane.keys("Enter");
        const picker = await pane.until(/▸ save a note · 4 messages · today \d\d:\d\d\n/);
        await pane.keep("resume-picker");
        assert.doesNotMatch(picker, /▸ \d\d\.\d\d\.\d{4}/, picker);
        await pane.keys("Enter");
        const resumed = await pane.until("Saved your list.");
        await pane.keep("resume-history");
        const lines = resumed.split("\n").map((l) => l.trim());
        const asked = lines.indexOf("› save a note");
        const outcome = lines.indexOf(OUTCOME);
        const answer = lines.indexOf("Saved your list.");
        assert.ok(asked >= 0 && asked < outcome && outcome < answer, resumed);
        assert.ok(!resumed.includes('{"saved"'), resumed);
        await pane.keys("C-d");
        assert.equal(await pane.exitCode(), 0);
      } finally {
        await pane.kill();
      }
    } finally {
      await cleanup();
    }
  },
});
