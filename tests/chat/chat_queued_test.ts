/**
 * A line typed in `agent chat` while an answer is awaited (issue 39 F20), in a real
 * terminal (tmux, so the screen is what a person sees after the cursor moves): the
 * line is marked as the person's and as queued where it was typed, and shows again
 * above its own answer when its turn comes, so no answer reads as the answer to it.
 */
import assert from "node:assert/strict";
import { makeHome } from "./_run.ts";
import { startVendorServer } from "../_vendor_server.ts";
import { HAS_TMUX, Pane } from "../tui/_tmux.ts";

Deno.test({
  name:
    "agent chat: a line typed while an answer is awaited is marked queued, then shows above its own answer",
  ignore: !HAS_TMUX,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = startVendorServer({ reply: "The answer." });
    // The first answer waits 2 s: the second line is typed meanwhile.
    server.script.push({ delayMs: 2000 });
    const home = makeHome(`[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-test"
[models.roles.brain.params]
base_url = "${server.url}/v1"
`);
    Deno.writeTextFileSync(`${home}/.env`, "VENDOR_B_API_KEY=k\n", { mode: 0o600 });
    const pane = await Pane.start(["--home", home, "chat"], { columns: 100, rows: 30 });
    try {
      await pane.until(/^›\s*$/m);
      await pane.type("the slow one");
      await pane.keys("Enter");
      await new Promise((r) => setTimeout(r, 500));
      await pane.type("and another");
      await pane.keys("Enter");
      await pane.until("› and another  (queued: answered after the current answer)");
      const screen = await pane.until(/The answer\.\n+› and another\nThe answer\.\n/);
      await pane.keep("chat-queued");
      const lines = screen.split("\n").map((l) => l.trimEnd()).filter((l) => l !== "");
      const start = lines.indexOf("› the slow one");
      assert.deepEqual(lines.slice(start, start + 5), [
        "› the slow one",
        "› and another  (queued: answered after the current answer)",
        "The answer.",
        "› and another",
        "The answer.",
      ], screen);
      // The bare echo of the line, unmarked, is gone.
      assert.ok(!lines.includes("and another"), screen);
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
    } finally {
      await pane.kill();
      await server.close();
      Deno.removeSync(home, { recursive: true });
    }
  },
});
