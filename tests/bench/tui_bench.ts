/**
 * `agent tui` as a person meets it, measured from tmux: start to the first drawn frame
 * (the status bar on screen) against `agent version`'s start to its line on screen in
 * the same run (goal: under 6×), and keystroke-to-echo latency in the input line
 * (goal: p99 under 30 ms).
 *
 * Run: `deno task bench tui` (or this file directly).
 *
 * @module
 */
import { percentile } from "./_stats.ts";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { HAS_TMUX, Pane } from "../tui/_tmux.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "7");
const KEYS = Number(Deno.env.get("BENCH_KEYS") ?? "100");

async function timeToScreen(args: string[], text: RegExp): Promise<number> {
  const pane = await Pane.start(args);
  try {
    await pane.until(text, 30_000);
    return pane.elapsed;
  } finally {
    await pane.kill();
  }
}

/**
 * Keystroke-to-echo through a tmux control-mode client: each key goes in as a
 * `send-keys` command and its echo is the first `%output` of the pane that carries it,
 * so no process start sits inside the measurement.
 */
async function keystrokes(pane: Pane, count: number): Promise<number[]> {
  const client = new Deno.Command("tmux", {
    args: ["-S", pane.socket, "-C", "attach-session", "-t", pane.name],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = client.stdin.getWriter();
  const encoder = new TextEncoder();
  const lines = client.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const nextOutput = async (): Promise<string> => {
    for (;;) {
      const newline = buffer.indexOf("\n");
      if (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.startsWith("%output ")) return line;
        continue;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error("tmux control client ended");
      buffer += value;
    }
  };
  const samples: number[] = [];
  let typed = "";
  try {
    for (let i = 0; i < count; i++) {
      const ch = "abcdefghij"[i % 10]!;
      typed += ch;
      const start = performance.now();
      await writer.write(encoder.encode(`send-keys -t ${pane.name} -l ${ch}\n`));
      // Ink redraws what changed on the input line: the first output with the key (and
      // no status bar text, which a refresh may redraw) is the echo.
      for (;;) {
        const out = await nextOutput();
        if (out.includes(ch) && !out.includes(" · ")) break;
      }
      samples.push(performance.now() - start);
      if (i % 50 === 49) {
        await writer.write(encoder.encode(`send-keys -t ${pane.name} C-u\n`));
        await new Promise((r) => setTimeout(r, 100));
        buffer = "";
        typed = "";
      }
      await new Promise((r) => setTimeout(r, 15));
    }
  } finally {
    await writer.close().catch(() => {});
    client.kill();
    await client.status;
  }
  return samples;
}

if (!HAS_TMUX) {
  console.log("tmux is not installed: skipped");
  Deno.exit(0);
}
const home = await tempHome();
try {
  const init = await agent(["--home", home, "init", "--yes", "--provider", "fake"]);
  if (init.code !== 0) throw new Error(init.stderr);
  const tui = ["--home", home, "tui"];
  const version = ["--home", home, "version"];
  // Warm Deno's caches for both.
  await timeToScreen(version, /agent-core/);
  await timeToScreen(tui, /brain · \$/);
  const tuiMs: number[] = [];
  const versionMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    versionMs.push(await timeToScreen(version, /agent-core/));
    tuiMs.push(await timeToScreen(tui, /brain · \$/));
  }
  const v = percentile(versionMs, 50);
  const t = percentile(tuiMs, 50);

  const pane = await Pane.start(tui);
  const echo: number[] = [];
  try {
    await pane.until(/brain · \$/, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    echo.push(...await keystrokes(pane, KEYS));
  } finally {
    await pane.kill();
  }
  console.log(`runs: ${RUNS}, keystrokes: ${KEYS}`);
  console.log(`agent_version_to_screen_ms: ${v.toFixed(1)}`);
  console.log(`agent_tui_first_frame_ms: ${t.toFixed(1)}`);
  console.log(`ratio: ${(t / v).toFixed(2)} (goal < 6)`);
  console.log(
    `keystroke_to_echo_ms: p50 ${percentile(echo, 50).toFixed(1)}, p99 ${
      percentile(echo, 99).toFixed(1)
    } (goal p99 < 30)`,
  );
  if (t / v >= 6 || percentile(echo, 99) >= 30) Deno.exitCode = 1;
} finally {
  await cleanup();
}
