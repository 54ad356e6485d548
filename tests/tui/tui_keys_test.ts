/**
 * `agent tui` in tmux with keys that arrive together (one `send-keys` is one write to
 * the terminal) and with a long answer: ↓ then Enter on the settings screen, Ctrl-U
 * then Ctrl-D at the input, Ctrl-C and SIGTERM while a 20,000-word answer streams.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";
import { fakeInitHome } from "../_init_home.ts";

const T = { ignore: !HAS_TMUX, sanitizeOps: false, sanitizeResources: false };

/** A fake home whose brain is `brain` (TOML inline) instead of the fake model. */
async function home(brain?: string): Promise<string> {
  const dir = await fakeInitHome();
  if (brain !== undefined) {
    const path = `${dir}/agent.toml`;
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace(
        '[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\n',
        `[models.roles.brain]\n${brain}\n`,
      ),
    );
  }
  return dir;
}

/** A reply of `words` words in paragraphs of 50. */
export function longReply(words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(i % 50 === 49 ? `word${i}.\n\n` : `word${i} `);
  return out.join("");
}

Deno.test({
  name: "agent tui: ↓ then Enter in one write opens the row ↓ moved to on the settings screen",
  ...T,
  async fn() {
    const dir = await home('provider = "vendor-b"\nmodel_id = "gpt-test"');
    const pane = await Pane.start(["--home", dir, "tui"]);
    try {
      await pane.until("▸ VENDOR_B_API_KEY: needed");
      await pane.keys("Down", "Enter");
      const screen = await pane.until("(hidden):");
      assert.match(screen, /AGENT_LOCAL_RUNTIME_URL \(hidden\):/);
      assert.ok(!screen.includes("VENDOR_B_API_KEY (hidden)"), screen);
      await pane.keys("Escape", "Escape");
      assert.equal(await pane.exitCode(), 2);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

Deno.test({
  name: "agent tui: Ctrl-U then Ctrl-D in one write clear the line and quit",
  ...T,
  async fn() {
    const pane = await Pane.start(["--home", await home(), "tui"]);
    try {
      await pane.until("Write a message below and press Enter");
      await pane.type("half typed");
      await pane.until("› half typed");
      await pane.keys("C-u", "C-d");
      assert.equal(await pane.exitCode(), 0);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

Deno.test({
  name: "agent tui: Ctrl-C cancels a 20,000-word answer while it draws; SIGTERM exits 143",
  ...T,
  async fn() {
    const reply = JSON.stringify([longReply(20_000), longReply(20_000)]);
    // A millisecond a word: the answer takes 20 s or more, so it is still drawing when
    // Ctrl-C comes, however slow the machine (unpaced, a busy one finished it first).
    const dir = await home(
      `provider = "fake"\nmodel_id = "fake-brain"\nparams = { word_ms = 1, replies = ${reply} }`,
    );
    const pane = await Pane.start(["--home", dir, "tui"]);
    try {
      await pane.until("Write a message below and press Enter");
      await pane.type("Hello");
      await pane.keys("Enter");
      await pane.until(/word[1-9]\d{2,}/, 30_000);
      const start = performance.now();
      await pane.keys("C-c");
      await pane.until("(answer cancelled)", 5_000);
      const cancelMs = performance.now() - start;
      // The goal is 200 ms (tests/bench/tui_long_bench.ts measures it); a shared test
      // machine gets slack.
      assert.ok(cancelMs < 2_000, `Ctrl-C took ${cancelMs.toFixed(0)} ms`);
      await pane.type("Again");
      await pane.keys("Enter");
      await pane.until(/answering…/, 10_000);
      const pid = (await new Deno.Command("pgrep", {
        // The agent itself: not the tmux server or the shell, whose command lines hold it too.
        args: ["-f", "--", `^${Deno.execPath()} run .*cli/main\\.ts --home ${dir} tui$`],
        stdout: "piped",
      }).output()).stdout;
      const pids = new TextDecoder().decode(pid).trim().split("\n").filter(Boolean);
      assert.ok(pids.length > 0);
      const termAt = performance.now();
      for (const p of pids) Deno.kill(Number(p), "SIGTERM");
      assert.equal(await pane.exitCode(5_000), 143);
      const termMs = performance.now() - termAt;
      assert.ok(termMs < 2_000, `SIGTERM took ${termMs.toFixed(0)} ms`);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});
