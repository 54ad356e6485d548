/**
 * A job's answer in `agent tui` (issue 39 F17): a real hub runs the job (the
 * dashboard's Run now), its `job.result` reaches the TUI in tmux beside it, and the
 * answer is drawn as answers are, as Markdown (no `##`, `**` or `- ` marks), under the
 * job's name and cost.
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "../cli/_run.ts";
import { fakeHome } from "./_home.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";
import { freePort } from "../_port.ts";
import { spawnHubProcess, stopHubProcess, untilHub } from "../_hub_process.ts";
import { dashboardSignIn } from "../_dashboard_session.ts";

const ANSWER = "## Headlines\\n\\n- **Rain** in Istanbul\\n- Markets `flat`\\n\\nThat is all.";

Deno.test({
  name: "agent tui: a job's answer from the running hub is drawn as Markdown, not its raw marks",
  ignore: !HAS_TMUX,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    const home = await fakeHome([ANSWER.replaceAll("\\n", "\n")], { port });
    const added = await agent([
      "--home",
      home,
      "jobs",
      "add",
      "news",
      "--schedule",
      "0 9 * * *",
      "--role",
      "brain",
      "--deliver",
      "events",
      "--prompt",
      "The news.",
    ]);
    assert.equal(added.code, 0, added.stderr);
    const hub = spawnHubProcess(home);
    let pane: Pane | undefined;
    try {
      await untilHub(port);
      const { api } = await dashboardSignIn(port);
      pane = await Pane.start(["--home", home, "tui"], { columns: 100, rows: 30 });
      await pane.until(/brain · \$0\.00\/\$15\.00 month .*hub: on/);
      const ran = await api("jobs/run", { method: "POST", body: JSON.stringify({ name: "news" }) });
      assert.equal(ran.status, 200, await ran.clone().text());
      const screen = await pane.until("That is all.");
      await pane.keep("job-result-100");
      const lines = screen.split("\n").map((l) => l.trimEnd());
      const head = lines.findIndex((l) => /^Job news \(\$0\.00\):$/.test(l));
      assert.ok(head >= 0, screen);
      const answer = lines.slice(head + 1).filter((l) => l.trim() !== "");
      assert.deepEqual(answer.slice(0, 4), [
        "Headlines",
        "• Rain in Istanbul",
        "• Markets flat",
        "That is all.",
      ], screen);
      assert.ok(!/##|\*\*|`/.test(screen), screen);
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
    } finally {
      await pane?.kill();
      await stopHubProcess(hub);
      await cleanup();
    }
  },
});
