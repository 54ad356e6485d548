/**
 * A job's day ceiling holds across processes (issue 34, J1): three `agent jobs run probe`
 * at the same moment, the hub's every-second scheduled run and the dashboard's Run now
 * (the control API route its button calls) together never pass `max_usd_per_day`. A run
 * holds its share of the day in the ledger before its first call and overlapping runs
 * are refused by a claim row in SQLite, so whichever process comes second is refused
 * with a sentence: a run still going, or the day's ceiling with when the job can run
 * again.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { agent, cleanup } from "../cli/_run.ts";
import { dashboardSignIn } from "../_dashboard_session.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { portHome, SLOW, stopHub, writeJob } from "./_jobs.ts";

/** A run costs $2.00 (1000 tokens in at $1000/M, 500 out at $2000/M) and may cost ~$3.1. */
const PRICED_DEAR: [string | RegExp, string][] = [
  [
    'model_id = "fake-fast"\n',
    'model_id = "fake-fast"\nparams = { word_ms = 250, replies = ["Probe done for now."], usage = { input = 1000, output = 500 } }\n',
  ],
  [/$/, '\n[models.prices."fake-fast"]\ninput = 1000.0\noutput = 2000.0\n'],
];

const DAY_CAP = 4.1;

/** What the job's calls cost in the ledger, and how many are still in flight. */
function ledgerSpend(home: string): { usd: number; pending: number } {
  const db = new DatabaseSync(`${home}/data/spend.sqlite3`, { readOnly: true });
  try {
    const spent = db.prepare(
      "SELECT TOTAL(usd) AS usd FROM calls WHERE session_id LIKE 'job-probe-%'",
    ).get() as { usd: number };
    const pending = db.prepare("SELECT COUNT(*) AS n FROM pending").get() as { n: number };
    return { usd: spent.usd, pending: pending.n };
  } finally {
    db.close();
  }
}

const REFUSALS = [
  /^Job probe did not run: its run that began at \d\d:\d\d:\d\d is still going \(in this or another process\)\. Try again when it ends\.$/,
  /^Job probe is paused: today's spend \$\d\.\d\d and one more run would pass its max_usd_per_day of \$4\.10\. Its day starts anew at 00:00 \(Istanbul\): 'agent jobs resume probe' lets it run from then on; to run it today, raise max_usd_per_day in persona\/jobs\/probe\.md first\.$/,
  /^Job probe is paused at its max_usd_per_day of \$4\.10: it can run again after 00:00 \(Istanbul\), once 'agent jobs resume probe' resumes it, or today once max_usd_per_day in persona\/jobs\/probe\.md is raised and it is resumed\.$/,
];

Deno.test({
  name:
    "jobs: concurrent 'agent jobs run', the hub's slot and the dashboard's Run now never pass max_usd_per_day",
  ...SLOW,
  async fn() {
    const { home, port } = await portHome(PRICED_DEAR);
    await writeJob(
      home,
      "probe",
      `schedule: '* * * * * *'\nmax_usd_per_run: 3.2\nmax_usd_per_day: ${DAY_CAP}\ndeliver: none`,
    );
    const hub = spawnHubProcess(home);
    try {
      await untilHub(port, (s) => s.jobs?.count === 1, "the hub watches the job");
      const { api } = await dashboardSignIn(port);
      const runNow = async () => {
        const res = await api("jobs/run", {
          method: "POST",
          body: JSON.stringify({ name: "probe" }),
        });
        assert.equal(res.status, 200);
        return await res.json() as { kind: string; usd: number; text: string | null };
      };
      // All at once, while the hub's every-second slot comes due as well.
      const [dashboard, ...cli] = await Promise.all([
        runNow(),
        agent(["--home", home, "jobs", "run", "probe"]),
        agent(["--home", home, "jobs", "run", "probe"]),
        agent(["--home", home, "jobs", "run", "probe"]),
      ]);
      // Slots keep coming until the job is paused at its day: let them.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const spent = ledgerSpend(home);
      assert.equal(spent.pending, 0);
      assert.ok(spent.usd >= 2 - 1e-9, `nothing ran: $${spent.usd}`);
      assert.ok(spent.usd <= DAY_CAP + 1e-9, `spent $${spent.usd} under a $${DAY_CAP} day`);
      // Each refused run says why in one sentence on stderr (exit 1); a run that went
      // prints its answer and its cost.
      for (const run of cli) {
        if (run.code === 0) {
          assert.equal(run.stdout, "Probe done for now.\nJob probe: ok ($2.00).\n");
          continue;
        }
        assert.equal(run.code, 1, run.stderr);
        const said = run.stderr.trim();
        assert.ok(REFUSALS.some((r) => r.test(said)), said);
      }
      assert.ok(
        dashboard.kind === "ok" || REFUSALS.some((r) => r.test(dashboard.text ?? "")),
        JSON.stringify(dashboard),
      );
      // The day is spent: the job is paused at it, and a run by hand says until when.
      const again = await agent(["--home", home, "jobs", "run", "probe"]);
      assert.equal(again.code, 1);
      assert.match(again.stderr.trim(), REFUSALS[2]!);
      const tr = await agent(["--home", home, "--lang", "tr", "jobs", "run", "probe"]);
      assert.equal(
        tr.stderr.trim(),
        "probe görevi max_usd_per_day sınırı olan $4,10 yüzünden duraklatılmış: 'agent jobs resume probe' ile sürdürülünce İstanbul saatiyle 00:00'dan sonra, ya da persona/jobs/probe.md içindeki max_usd_per_day yükseltilip sürdürülünce bugün yeniden çalışabilir.",
      );
      assert.ok(ledgerSpend(home).usd <= DAY_CAP + 1e-9);
    } finally {
      await stopHub(hub);
      await cleanup();
    }
  },
});
