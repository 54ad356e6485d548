/**
 * `agent tui` end to end in tmux: the setup and settings screens, streamed answers
 * from the fake model and a vendor wire-format server, `/status`, the status bar with
 * a spent budget, a resize, and the exit codes (approvals: `tui_approval_test.ts`).
 */
import assert from "node:assert/strict";
import { JobStore } from "@agent/hub/jobs";
import { Ledger } from "@agent/hub/money";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { fakeHome } from "./_home.ts";
import { startVendorServer } from "../_vendor_server.ts";
import { HAS_TMUX, Pane } from "./_tmux.ts";

const T = { ignore: !HAS_TMUX, sanitizeOps: false, sanitizeResources: false };

Deno.test("agent tui without a terminal: one sentence pointing to agent chat, exit 2", async () => {
  try {
    const r = await agent(["--home", await fakeHome(), "tui"], { stdin: "hi\n" });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      "`agent tui` needs a terminal; use `agent chat` for pipes and scripts.\n",
    );
  } finally {
    await cleanup();
  }
});

Deno.test({
  name: "agent tui: the setup screen when agent.toml is missing; Esc exits 2 and writes nothing",
  ...T,
  async fn() {
    const home = await tempHome();
    const pane = await Pane.start(["--home", home, "tui"]);
    try {
      await pane.until("Language of the agent and its files:");
      await pane.keep("setup");
      await pane.keys("Escape");
      assert.equal(await pane.exitCode(), 2);
      await assert.rejects(Deno.stat(`${home}/agent.toml`));
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

Deno.test({
  name: "agent tui: setup writes agent.toml (the same files as init) and the chat opens",
  ...T,
  async fn() {
    const home = await tempHome();
    const pane = await Pane.start(["--home", home, "tui"]);
    try {
      await pane.until("Language of the agent and its files:");
      await pane.keys("Enter");
      await pane.until("Provider for the brain and fast roles:");
      // No key on this machine: the fake provider is preselected, as init would choose.
      await pane.until("▸ fake");
      await pane.keys("Enter");
      await pane.until("Write agent.toml with fake in en?");
      await pane.keys("Enter");
      await pane.until(/brain · \$0\.00\/\$15\.00 month · fake fake-brain/);
      for (const file of ["agent.toml", "persona/persona.md", "persona/user.md", ".env.example"]) {
        await Deno.stat(`${home}/${file}`);
      }
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
    "agent tui: the settings screen takes a missing key hidden, writes .env 0600, then a vendor answer streams",
  ...T,
  async fn() {
    const vendor = startVendorServer({ reply: "Answer from the vendor wire format." });
    const home = await fakeHome();
    const path = `${home}/agent.toml`;
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace(
        '[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\n',
        `[models.roles.brain]\nprovider = "vendor-a"\nmodel_id = "claude-sonnet-5"\nparams = { base_url = "${vendor.url}/v1" }\n`,
      ),
    );
    const pane = await Pane.start(["--home", home, "tui"]);
    try {
      await pane.until("VENDOR_A_API_KEY: needed");
      await pane.keep("settings");
      await pane.keys("Enter");
      await pane.type("sk-secret-value-42");
      const typing = await pane.until("VENDOR_A_API_KEY (hidden): ••••••••••••••••••");
      assert.ok(!typing.includes("sk-secret"), typing);
      await pane.keys("Enter");
      await pane.until(/brain · \$0\.00\/\$15\.00 month · vendor-a claude-sonnet-5/);
      const env = await Deno.readTextFile(`${home}/.env`);
      assert.match(env, /^VENDOR_A_API_KEY=sk-secret-value-42$/m);
      assert.equal((await Deno.stat(`${home}/.env`)).mode! & 0o777, 0o600);
      await pane.type("Hello");
      await pane.keys("Enter");
      await pane.until("Answer from the vendor wire format.");
      await pane.keep("vendor-answer");
      assert.equal(vendor.requests.filter((r) => r.path === "/v1/messages").length, 1);
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
    } finally {
      await pane.kill();
      await vendor.close();
      await cleanup();
    }
  },
});

Deno.test({
  name: "agent tui: Esc on the settings screen before the chat exits 2",
  ...T,
  async fn() {
    const home = await fakeHome();
    const path = `${home}/agent.toml`;
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace(
        'provider = "fake"\nmodel_id = "fake-brain"',
        'provider = "vendor-a"\nmodel_id = "claude-sonnet-5"',
      ),
    );
    const pane = await Pane.start(["--home", home, "tui"]);
    try {
      await pane.until("VENDOR_A_API_KEY: needed");
      await pane.keys("Escape");
      assert.equal(await pane.exitCode(), 2);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "agent tui: a streamed answer, /status with the Budget line, history, a resize, Ctrl-D exits 0",
  ...T,
  async fn() {
    const home = await fakeHome(["First answer from the fake model.", "Second answer."]);
    const pane = await Pane.start(["--home", home, "tui"]);
    try {
      await pane.until("brain · $0.00/$15.00 month");
      await pane.type("Hello there");
      await pane.keys("Enter");
      await pane.until("First answer from the fake model.");
      await pane.type("/status");
      await pane.keys("Enter");
      const status = await pane.until(/Budget: brain \$0\.00 of \$15\.00 this month \(resets/);
      assert.match(status, /Session chat-\d{8}-\d{6}-[0-9a-f]{4} · 2 messages · role brain/);
      await pane.keep("status");
      // Up recalls the last line sent.
      await pane.keys("Up");
      await pane.until("› /status\n");
      await pane.keys("C-u");
      await pane.resize(48, 16);
      const narrow = await pane.until(/brain · \$0\.00\/\$15\.00 month · fake fake-brain\s*\n/);
      for (const line of narrow.split("\n")) assert.ok(line.length <= 48, line);
      await pane.keep("resized");
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
      const log = await Deno.readTextFile(`${home}/data/logs/agent.log`).catch(() => "");
      assert.doesNotMatch(narrow, /^warning: /m);
      void log;
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "agent tui: the status bar shows a spent budget and its stand-in; the warning goes only to the log",
  ...T,
  async fn() {
    const home = await fakeHome();
    {
      using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
      ledger.record({
        ts: Date.now() - 1000,
        role: "brain",
        provider: "fake",
        model_id: "fake-brain",
        input_tokens: 1,
        output_tokens: 1,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        usd: 15.5,
        channel: "chat",
        session_id: null,
        peer: null,
      });
    }
    const pane = await Pane.start(["--home", home, "tui"]);
    try {
      await pane.until("brain · $15.50/$15.00 month SPENT → fast");
      await pane.type("hi");
      await pane.keys("Enter");
      const screen = await pane.until("fast answered.)");
      await pane.keep("spent");
      assert.doesNotMatch(screen, /^warning: /m);
      await pane.keys("C-d");
      assert.equal(await pane.exitCode(), 0);
      const log = await Deno.readTextFile(`${home}/data/logs/agent.log`);
      assert.match(log, /WARNING role brain: budget spent/);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

Deno.test({
  name: "agent tui: an invalid agent.toml is one sentence and exit 2, before any screen",
  ...T,
  async fn() {
    const home = await fakeHome();
    await Deno.writeTextFile(`${home}/agent.toml`, "[models\nbroken");
    const pane = await Pane.start(["--home", home, "tui"]);
    try {
      assert.equal(await pane.exitCode(), 2);
      const screen = await pane.keep("invalid-config");
      assert.match(screen, /agent\.toml: not valid TOML at line 1/);
      assert.doesNotMatch(screen, /at .*\.ts:\d+/);
    } finally {
      await pane.kill();
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "agent tui: /jobs at 80 and 60 columns shows each job on whole lines, none wrapped, a long name cut",
  ...T,
  async fn() {
    try {
      const home = await fakeHome();
      const add = async (name: string, schedule: string, tz: string) => {
        const r = await agent([
          "--home",
          home,
          "jobs",
          "add",
          name,
          "--schedule",
          schedule,
          "--tz",
          tz,
          "--prompt",
          "Report.",
        ]);
        assert.equal(r.code, 0, r.stderr);
      };
      await add("morning-digest", "*/15 6-22 * * 1-5", "America/New_York");
      await add("news", "0 9 * * *", "America/Argentina/Buenos_Aires");
      await add("quarterly-investor-summary-xyz1", "0 8 * * *", "Europe/Istanbul");
      assert.equal((await agent(["--home", home, "jobs", "pause", "morning-digest"])).code, 0);
      // A run of news that failed, as the runner writes it.
      const store = JobStore.open(`${home}/data/jobs.sqlite3`);
      const now = Date.now();
      store.claim("news@failed", "news", now - 60_000, now - 60_000);
      store.finish("news@failed", { state: "failed", usd: 0.01, nowMs: now, detail: "HTTP 500" });
      store.close();
      const pane = await Pane.start(["--home", home, "tui"], { columns: 80, rows: 40 });
      try {
        await pane.until("brain · $0.00/$15.00 month");
        await pane.type("/jobs");
        await pane.keys("Enter");
        const wide = (await pane.until(/last failed {2}today \$0\.01 {2}30 days \$0\.01/)).split(
          "\n",
        );
        await pane.keep("jobs-80");
        const first = wide.findIndex((l) => l.startsWith("morning-digest "));
        assert.ok(first >= 0, wide.join("\n"));
        const next =
          /^ {2}next \d\d\.\d\d\.\d{4} \d\d:\d\d {2}last (- {5}|failed) {2}today \$0\.0\d {2}30 days \$0\.0\d$/;
        const rows80 = wide.slice(first, first + 6).map((l) => l.trimEnd());
        assert.deepEqual(
          rows80.filter((_, i) => i % 2 === 0),
          [
            "morning-digest       */15 6-22 * * 1-5 (America/New_York)        [paused: owner]",
            "news                 0 9 * * * (America/Argentina/Buenos_Aires)",
            "quarterly-investor…  0 8 * * * (Europe/Istanbul)",
          ],
          wide.join("\n"),
        );
        for (const i of [1, 3, 5]) assert.match(rows80[i]!, next, wide.join("\n"));
        assert.match(rows80[3]!, /last failed/);
        assert.equal(wide[first + 6]!.trim(), "›", "nothing after the jobs: no line wrapped");
        // At 60 columns the figures no longer fit beside the schedule: four lines a job.
        // The screen narrowed under the running TUI leaves nothing of the wider frame.
        await pane.resize(60, 40);
        await pane.until(/^Enter send .*…$/m);
        await pane.type("/jobs");
        await pane.keys("Enter");
        const narrow = (await pane.until(/\n {2}today \$0\.00 {2}30 days \$0\.00\n›/)).split("\n");
        await pane.keep("jobs-60");
        assert.equal(narrow.filter((l) => l.startsWith("brain · ")).length, 1, narrow.join("\n"));
        assert.equal(narrow.filter((l) => l.startsWith("› /jobs")).length, 2, narrow.join("\n"));
        const top = narrow.findLastIndex((l) => l.startsWith("morning-digest "));
        const rows60 = narrow.slice(top, top + 12).map((l) => l.trimEnd());
        for (const line of rows60) assert.ok(line.length <= 60, `${line.length}: ${line}`);
        assert.deepEqual(
          rows60.filter((_, i) => i % 4 === 0 || i % 4 === 1),
          [
            "morning-digest                   [paused: owner]",
            "  */15 6-22 * * 1-5 (America/New_York)",
            "news",
            "  0 9 * * * (America/Argentina/Buenos_Aires)",
            "quarterly-investor-summary-xyz1",
            "  0 8 * * * (Europe/Istanbul)",
          ],
          narrow.join("\n"),
        );
        for (const i of [2, 6, 10]) {
          assert.match(rows60[i]!, /^ {2}next \d\d\.\d\d\.\d{4} \d\d:\d\d {2}last (-|failed)$/);
          assert.match(rows60[i + 1]!, /^ {2}today \$0\.0\d {2}30 days \$0\.0\d$/);
        }
        assert.equal(narrow[top + 12]!.trim(), "›", narrow.join("\n"));
      } finally {
        await pane.kill();
      }
    } finally {
      await cleanup();
    }
  },
});
