/**
 * `agent jobs run NAME` on two homes naming one cloud spine on workerd: a run by hand
 * claims and settles its slot on the spine like a scheduled one, so it counts in the
 * job's day on both hubs; once the day (counted across both) leaves less than a run,
 * the other home's run by hand is refused there and its job paused.
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "../cli/_run.ts";
import { CLOUD_TOKEN, cloudSpine, setEnv } from "../cloud/_cloud.ts";
import { hub as hubRequest } from "../spine/_fixtures.ts";
import { HOURLY, PRICED_FAST, query, rows, SLOW, writeJob } from "./_jobs.ts";
import { freePort } from "../_port.ts";
import { initHome } from "../_init_home.ts";

async function home(spineUrl: string): Promise<string> {
  const dir = await initHome();
  let toml = await Deno.readTextFile(`${dir}/agent.toml`);
  toml = toml.replace(/^port = \d+$/m, `port = ${freePort()}`);
  for (const [from, to] of PRICED_FAST) toml = toml.replace(from, to);
  await Deno.writeTextFile(`${dir}/agent.toml`, toml);
  await setEnv(dir, { AGENT_SPINE_URL: spineUrl, AGENT_SPINE_TOKEN: CLOUD_TOKEN });
  // One run costs $0.002 and may cost up to about $0.0031: the day allows two runs.
  await writeJob(
    dir,
    "tick",
    `schedule: '${HOURLY}'\nmax_usd_per_run: 0.005\nmax_usd_per_day: 0.0065\ndeliver: none`,
  );
  return dir;
}

function hubId(dir: string): string {
  const [row] = query<{ value: string }>(dir, "SELECT value FROM meta WHERE key = 'hub_id'");
  assert.match(row?.value ?? "", /^local-[0-9a-f]{8}$/);
  return row!.value;
}

Deno.test({
  name:
    "agent jobs run claims its slot on the cloud spine: the day's ceiling holds across two homes",
  ...SLOW,
  async fn() {
    const { spine } = await cloudSpine();
    try {
      const a = await home(spine.url);
      const b = await home(spine.url);
      for (let i = 0; i < 2; i++) {
        const r = await agent(["--home", a, "jobs", "run", "tick"]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /Done\./);
      }
      // Home b has run nothing itself (it has no job store yet): only the spine knows
      // the day is spent.
      const refused = await agent(["--home", b, "jobs", "run", "tick"]);
      assert.equal(refused.code, 1, refused.stdout);
      // Why it did not run goes to stderr; the outcome line stays on stdout.
      assert.match(refused.stdout, /^Job tick: refused \(\$0\.00\)\.$/m);
      assert.match(
        refused.stderr,
        /Job tick is paused: today's spend \$0\.00(40|400) and one more run would pass its max_usd_per_day of \$0\.0065/,
      );
      assert.deepEqual(rows(b, "tick").map((r) => r.state), ["refused"]);
      const paused = query<{ reason: string }>(b, "SELECT reason FROM paused WHERE job = 'tick'");
      assert.deepEqual(paused.map((p) => p.reason), ["day"]);

      const ran = rows(a, "tick");
      assert.deepEqual(ran.map((r) => r.state), ["ok", "ok"]);
      for (const r of ran) assert.match(r.slot_id, /^tick@now-\d{4}-\d\d-\d\dT/);
      // Each run by hand holds its slot on the spine (another hub asking for it is told
      // taken), and both were settled to their cost (none of home a's is in flight).
      for (const r of ran) {
        const claim = await hubRequest(spine.url, CLOUD_TOKEN, "/hub/jobs/claim", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            slot_id: r.slot_id,
            job: "tick",
            hub: "local-other",
            day_ms: 0,
            max_run_usd: null,
            day_cap_usd: null,
            min_usd: 0,
          }),
        });
        assert.equal(claim.status, 200);
        assert.deepEqual(claim.body, { claimed: false, reason: "taken" });
      }
      for (const dir of [a, b]) {
        const running = await hubRequest(
          spine.url,
          CLOUD_TOKEN,
          `/hub/jobs/running?hub=${hubId(dir)}`,
        );
        assert.equal(running.status, 200);
        assert.deepEqual(running.body.slots, []);
      }
    } finally {
      await spine.stop();
      await cleanup();
    }
  },
});
