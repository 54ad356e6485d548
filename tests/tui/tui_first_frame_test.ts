/**
 * The first frame of `agent tui` when something else writes to the terminal while it
 * starts (issue 39 F4). On a fresh Deno cache the agent's modules are downloaded as the
 * TUI loads them, after its first frame, and Deno's `Download https://…` lines land on
 * the screen. The test stands in for them: it holds the chat's start-up after its first
 * frame (a listed module that loads only when the test lets it), or stops the program as
 * the setup screen starts (SIGSTOP), writes such lines to its terminal, and lets it go
 * on. The screen must then be whole:
 * the setup box with its top border, or the status bar from its first column with the
 * role and the spend, and the key hints under it; no download line left.
 */
import assert from "node:assert/strict";
import { cleanup, tempHome } from "../cli/_run.ts";
import { fakeHome } from "./_home.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";

const GATE_COMPONENT = new URL("./_gate_component.ts", import.meta.url).pathname;

const T = { ignore: !HAS_TMUX, sanitizeOps: false, sanitizeResources: false };

/** Lines like the ones Deno prints while it downloads (to stderr, `\n` only). */
const DOWNLOADS = [
  "@ai-sdk/anthropic/-/anthropic-4.0.105.tgz",
  "@ai-sdk/openai/-/openai-4.0.118.tgz",
  "@ai-sdk/google/-/google-4.0.121.tgz",
  "@ai-sdk/amazon-bedrock/-/amazon-bedrock-5.0.101.tgz",
  "@ai-sdk/openai-compatible/-/openai-compatible-3.0.92.tgz",
  "@modelcontextprotocol/sdk/-/sdk-1.32.2.tgz",
].map((p) => `Download https://registry.npmjs.org/${p}\n`).join("");

/**
 * Starts `agent <args>` and, as it starts (once `starting(screen)` holds and `ready`
 * does not yet), stops it, writes {@linkcode DOWNLOADS} to its terminal and lets it go
 * on. Tries again when the program was already past its start-up when stopped.
 */
async function startWithNoise(
  args: string[],
  starting: (pane: Pane, screen: string) => Promise<boolean> | boolean,
  ready: RegExp,
): Promise<Pane> {
  // A loaded machine captures the screen slower than the TUI gets past its start-up, so
  // many tries may miss it (all 5 did in stop 46's CI run, all 15 in a run beside a busy
  // loop); each try costs ~1.5 s, and only a loaded machine needs more than one.
  for (let attempt = 0; attempt < 30; attempt++) {
    const pane = await Pane.start(args, { columns: 100, rows: 30 });
    try {
      const pid = await pane.programPid();
      let screen = "";
      const deadline = Date.now() + 30_000;
      while (!(await starting(pane, screen = await pane.capture())) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
      }
      Deno.kill(pid, "SIGSTOP");
      screen = await pane.capture();
      if (ready.test(screen)) {
        Deno.kill(pid, "SIGCONT");
        await pane.kill();
        continue;
      }
      await pane.writeTerminal(DOWNLOADS);
      Deno.kill(pid, "SIGCONT");
      return pane;
    } catch (error) {
      await pane.kill();
      throw error;
    }
  }
  throw new Error("the program was never caught in its start-up");
}

Deno.test({
  name:
    "agent tui: lines written to the terminal during start-up leave the status bar whole, from its first column, with the key hints",
  ...T,
  async fn() {
    // A listed module that loads only once the gate file exists holds the TUI after its
    // first frame for as long as the test needs (stopping it with a signal once the
    // frame showed missed, in CI runs and beside a busy loop, however often it tried).
    const home = await fakeHome(undefined, { modules: [GATE_COMPONENT] });
    const gate = `${home}/gate`;
    const pane = await Pane.start(["--home", home, "tui"], {
      columns: 100,
      rows: 30,
      env: { AGENT_TEST_GATE: gate },
    });
    try {
      // The first frame's bar has no hub segment; the chat's, once ready, does.
      const first = await pane.until("brain · $0.00/$15.00 month");
      assert.ok(!/hub: off|Write a message below/.test(first), first);
      await pane.writeTerminal(DOWNLOADS);
      await pane.until("Download https://registry.npmjs.org/");
      await Deno.writeTextFile(gate, "");
      await pane.until("hub: off");
      await new Promise((r) => setTimeout(r, 300));
      const screen = await pane.keep("first-frame-noise");
      const lines = screen.split("\n");
      assert.ok(!screen.includes("Download"), screen);
      const bar = lines.findIndex((l) =>
        l.startsWith("brain · $0.00/$15.00 month · fake fake-brain")
      );
      assert.ok(bar >= 0, `the status bar starts at the first column:\n${screen}`);
      assert.match(lines[bar]!, /· hub: off · chat-\d{8}-\d{6}-[0-9a-f]{4}/, screen);
      assert.match(lines[bar + 1]!, /^Enter send · Alt\+Enter new line/, screen);
      assert.match(lines[bar - 1]!, /^›/, screen);
      assert.match(screen, /Write a message below and press Enter/);
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "agent tui: lines written to the terminal while the setup screen loads leave its box whole, top border first",
  ...T,
  async fn() {
    const home = tempHome();
    const pane = await startWithNoise(
      ["--home", home, "tui"],
      (pane) => pane.alternateOn(),
      /Language of the agent/,
    );
    try {
      const screen = await pane.until("Language of the agent and its files:");
      await new Promise((r) => setTimeout(r, 300));
      const shown = await pane.keep("setup-noise");
      assert.ok(!shown.includes("Download"), shown);
      const lines = shown.split("\n");
      assert.match(lines[0]!, /^╭─+╮$/, `the box's top border is the first row:\n${screen}`);
      assert.match(lines[1]!, /^│ /, shown);
      await pane.keys("Escape");
      assert.equal(await pane.exitCode(), 2);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});
