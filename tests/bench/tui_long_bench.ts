/**
 * `agent tui` with a long answer, measured from tmux: the time from Enter to the last
 * word of a 20,000-word answer on screen (goal: under 1.5 s; once 172 s), for an answer
 * in paragraphs and for one without a line break, and how long Ctrl-C takes to show
 * `(answer cancelled)` while such an answer draws (goal: p99 under 200 ms).
 *
 * The screen is read with `tmux capture-pane` every few milliseconds, so each figure
 * carries up to one capture (a process start, ~5 ms) of slack.
 *
 * Run: `deno task bench tui_long` (or this file directly).
 *
 * @module
 */
import { percentile } from "./_stats.ts";
import { agent, cleanup, tempHome, withReplies } from "../cli/_run.ts";
import { HAS_TMUX, Pane } from "../tui/_tmux.ts";

const WORDS = Number(Deno.env.get("BENCH_WORDS") ?? "20000");
const CANCELS = Number(Deno.env.get("BENCH_CANCELS") ?? "7");

/** `words` words, in paragraphs of 60 (`paragraphs`) or on one line. */
function answer(words: number, paragraphs: boolean, end: string, word = "w"): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    out.push(`${word}${i}`, paragraphs && i % 60 === 59 ? "\n\n" : " ");
  }
  return `${out.join("").trimEnd()} ${end}`;
}

/** Waits until the answer is over (the status bar no longer says it is answering). */
async function idle(pane: Pane): Promise<void> {
  const deadline = performance.now() + 30_000;
  while ((await pane.capture()).includes("answering…")) {
    if (performance.now() > deadline) throw new Error("the answer never ended");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits for `text` on screen, capturing as fast as tmux answers; the time it showed. */
async function seen(pane: Pane, text: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if ((await pane.capture()).includes(text)) return performance.now();
    if (performance.now() > deadline) throw new Error(`never showed ${text}`);
  }
}

/** The agent's process in the pane (not tmux or the shell, whose command lines hold it too). */
async function agentPid(home: string): Promise<number | undefined> {
  const out = await new Deno.Command("pgrep", {
    args: ["-f", "--", `^${Deno.execPath()} run .*cli/main\\.ts --home ${home} tui$`],
    stdout: "piped",
  }).output();
  const pid = Number(new TextDecoder().decode(out.stdout).trim().split("\n")[0]);
  return Number.isFinite(pid) && pid > 0 ? pid : undefined;
}

/** CPU time (user + system) of `pid` so far, in ms; 0 where /proc cannot be read. */
async function cpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  try {
    // Deno opens /proc only under --allow-all; `cat` reads it.
    const out = await new Deno.Command("cat", { args: [`/proc/${pid}/stat`], stdout: "piped" })
      .output();
    const stat = new TextDecoder().decode(out.stdout);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

if (!HAS_TMUX) {
  console.log("tmux is not installed: skipped");
  Deno.exit(0);
}
const home = await tempHome();
try {
  const init = await agent(["--home", home, "init", "--yes", "--provider", "fake"]);
  if (init.code !== 0) throw new Error(init.stderr);
  const replies = [
    answer(WORDS, true, "END-0"),
    answer(WORDS, false, "END-1"),
    ...Array.from({ length: CANCELS }, (_, i) => answer(WORDS, true, "", `c${i}x`)),
  ];
  const path = `${home}/agent.toml`;
  await Deno.writeTextFile(path, withReplies(await Deno.readTextFile(path), replies));
  const pane = await Pane.start(["--home", home, "tui"], { columns: 100, rows: 30 });
  const draw: number[] = [];
  const cpu: number[] = [];
  const cancel: number[] = [];
  let early = 0;
  try {
    await pane.until(/brain · \$/, 30_000);
    const pid = await agentPid(home);
    for (let i = 0; i < 2; i++) {
      await pane.type(`long ${i}`);
      const cpuBefore = await cpuMs(pid);
      const start = performance.now();
      await pane.keys("Enter");
      draw.push(await seen(pane, `END-${i}`, 600_000) - start);
      cpu.push(await cpuMs(pid) - cpuBefore);
      await idle(pane);
    }
    for (let i = 0; i < CANCELS; i++) {
      await pane.type(`cancel ${i}`);
      await pane.keys("Enter");
      await pane.until(new RegExp(`c${i}x\\d+`), 10_000);
      // Into the answer.
      await new Promise((r) => setTimeout(r, 100));
      const marks = (await pane.capture()).split("(answer cancelled)").length - 1;
      const start = performance.now();
      await pane.keys("C-c");
      let ended = false;
      for (;;) {
        const screen = await pane.capture();
        if (screen.split("(answer cancelled)").length - 1 > marks) break;
        // The answer was drawn whole before the key came: no sample.
        if (!screen.includes("answering…") && screen.includes(`cancel ${i}`)) {
          ended = true;
          break;
        }
        if (performance.now() - start > 10_000) throw new Error("Ctrl-C was not answered");
      }
      if (ended) {
        early++;
        continue;
      }
      cancel.push(performance.now() - start);
      await idle(pane);
    }
  } finally {
    await pane.kill();
  }
  console.log(`words: ${WORDS}, cancels: ${cancel.length} (${early} answers ended first)`);
  console.log(
    `draw_paragraphs_ms: ${draw[0]!.toFixed(0)} (goal < 1500; agent cpu ${cpu[0]!.toFixed(0)} ms)`,
  );
  console.log(
    `draw_one_line_ms: ${draw[1]!.toFixed(0)} (goal < 1500; agent cpu ${cpu[1]!.toFixed(0)} ms)`,
  );
  console.log(
    `ctrl_c_to_cancelled_ms: p50 ${percentile(cancel, 50).toFixed(0)}, p99 ${
      percentile(cancel, 99).toFixed(0)
    } (goal p99 < 200)`,
  );
  if (Math.max(...draw) >= 1500 || percentile(cancel, 99) >= 200) Deno.exitCode = 1;
} finally {
  await cleanup();
}
