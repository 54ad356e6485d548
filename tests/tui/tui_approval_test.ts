/**
 * `agent tui`'s approvals in tmux, as a person meets them: keys typed one at a time
 * while an approval appears are text (nothing decided, nothing lost, the line sent is
 * queued), and only the deliberate key decides: Ctrl-Y allows once, Ctrl-N denies,
 * Ctrl-C at an approval leaves with 130. Screens kept at 120x40 and 60x20.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { fakeHome } from "./_home.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";

const T = { ignore: !HAS_TMUX, sanitizeOps: false, sanitizeResources: false };

const SEND = '/tool net_send {"to":"friend.example","text":"hi"}';
const SAVE = '/tool write_note {"name":"x","text":"y"}';
const ASKED = "The agent wants to save the note “x” (1 character).";
/** Past the 500 ms in which no key decides an approval. */
const GUARD_MS = 600;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name:
    "agent tui: y, n, space and Enter typed one at a time as an approval appears decide nothing; the line is queued; Ctrl-Y then runs the tool and the line is answered",
  ...T,
  async fn() {
    const home = await fakeHome([SAVE, "Saved it.", "Answered the queued line."]);
    const pane = await Pane.start(["--home", home, "tui"], { columns: 120, rows: 40 });
    try {
      await pane.until("brain · $0.00/$15.00 month");
      await pane.type("save it");
      await pane.keys("Enter");
      // Typing ahead, each key its own write, while the answer is worked on and its
      // approval appears.
      for (const key of ["m", "y", " ", "n", "e", "x", "t"]) await pane.type(key);
      await pane.until(ASKED);
      for (const key of [" ", "y", "e", "s", " ", "n", "o"]) await pane.type(key);
      const typed = await pane.until("› my next yes no");
      assert.match(typed, /Allow once \(Ctrl-Y\) {4}Allow for this session {4}Deny \(Ctrl-N\)/);
      assert.match(typed, /Approval: Ctrl-Y allow once · Ctrl-N deny · Tab more choices/);
      await pane.keys("Enter");
      const queued = await pane.until("(queued) my next yes no");
      assert.ok(queued.includes(ASKED), `the approval still waits:\n${queued}`);
      assert.ok(!queued.includes("Saved the note"), queued);
      await assert.rejects(Deno.stat(`${home}/notes/x.md`));
      await pane.keep("approval-typing-120");
      await pane.resize(60, 20);
      const narrow = await pane.until(/^ {2}Deny \(Ctrl-N\)\n/m);
      for (const line of narrow.split("\n")) assert.ok(line.length <= 60, line);
      assert.match(narrow, /\(queued\) my next yes no/);
      await pane.keep("approval-typing-60");
      await pause(GUARD_MS);
      await pane.keys("C-y");
      const done = await pane.until("Answered the queued line.");
      await pane.keep("approval-decided-60");
      assert.match(done, /✓ Saved the note “x” \(1 byte\)\./);
      assert.ok(done.indexOf("Saved it.") < done.indexOf("› my next yes no"), done);
      assert.equal(await Deno.readTextFile(`${home}/notes/x.md`), "y\n");
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

for (const [key, after] of [["C-y", "Sent, or tried."], ["C-n", "Declined."]] as const) {
  Deno.test({
    name: `agent tui: a tier-2 approval decided with ${key}`,
    ...T,
    async fn() {
      const home = await fakeHome([SEND, after]);
      const pane = await Pane.start(["--home", home, "tui"]);
      try {
        await pane.until("brain · $0.00/$15.00 month");
        await pane.type("send it");
        await pane.keys("Enter");
        await pane.until("The agent wants to send friend.example a message");
        await pane.keep(`approval-${key}`);
        await pause(GUARD_MS);
        await pane.keys(key);
        const screen = await pane.until(after);
        assert.ok(!screen.includes("The agent wants to send"), screen);
        assert.match(
          screen,
          key === "C-y" ? /net_send (ran|failed)/ : /✗ net_send did not run: you denied it\./,
        );
        await pane.keys("C-d");
        assert.equal(await pane.exitCode(), 0);
      } finally {
        await pane.kill();
        await cleanup();
      }
    },
  });
}

Deno.test({
  name: "agent tui: Ctrl-C at an approval abandons the TUI with exit 130",
  ...T,
  async fn() {
    const home = await fakeHome([SEND, "never"]);
    const pane = await Pane.start(["--home", home, "tui"]);
    try {
      await pane.until("brain · $0.00/$15.00 month");
      await pane.type("send it");
      await pane.keys("Enter");
      await pane.until("The agent wants to send friend.example a message");
      await pane.keys("C-c");
      assert.equal(await pane.exitCode(), 130);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});
