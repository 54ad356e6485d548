/**
 * Jobs benchmark, in process, with the real scheduler, job store, desk and ledger.
 *
 * 1. Idle overhead: 1,000 job files (each due once a day, none in the window) read by
 *    a `JobRunner`, which then waits `IDLE_S` seconds (looking at the folder every
 *    15 s). Goals: under 1% of a core (CPU time over wall time) and under 5 MiB of
 *    heap for the 1,000 jobs.
 * 2. Slot-to-delivery latency: a job every second on the `fake` model, its answer
 *    written pending with the run's result and sent by the delivery worker to the
 *    owner-event bus; the time from each slot's scheduled instant to the `job.result`
 *    event. Goal: p50 under 100 ms.
 *
 * Run: `deno task bench jobs`. Prints `<metric>: <value>` lines.
 *
 * @module
 */
import process from "node:process";
import { jobDesks, loadConfig, OwnerEventBus, setupHome } from "@agent/hub";
import { Logger, resolvePaths } from "@agent/hub/base";
import { Ledger } from "@agent/hub/money";
import { DeliveryWorker, JobRunner, JobStore, jobStoreFile } from "@agent/hub/jobs";
import { median, percentile } from "./_stats.ts";

const JOBS = 1_000;
const IDLE_S = 30;
const SLOTS = 15;

function print(metric: string, value: string): void {
  console.log(`${metric}: ${value}`);
}

const home = Deno.makeTempDirSync({ prefix: "agent-jobs-bench-" });
try {
  const paths = resolvePaths({ home, env: {} });
  await setupHome(paths, { provider: "fake", language: "en", env: {} });
  const config = await loadConfig(paths, { lang: "en" });
  const ledger = Ledger.open(paths.ledgerFile);
  Deno.mkdirSync(paths.netDir, { recursive: true });
  const bus = await OwnerEventBus.open(paths.netDir, { watch: false });
  const store = JobStore.open(jobStoreFile(paths));
  const logger = new Logger({ file: paths.logFile, stderr: "off" });
  const desks = jobDesks({ config, env: {}, paths, lang: "en", logger, ledger, tools: [] });
  const delivery = new DeliveryWorker({
    store: store.deliveries,
    sinks: {
      events: { publish: (event) => bus.publish(event), has: () => Promise.resolve(false) },
    },
    lang: "en",
    logger,
    alive: () => true,
    now: Date.now,
  });
  delivery.start();
  const ctx = {
    config,
    lang: "en" as const,
    logger,
    ledger,
    store,
    desk: desks.desk,
    events: bus,
    chats: [],
    delivered: () => delivery.kick(),
    systemChars: 0,
    now: Date.now,
  };

  // 1. Idle, 1,000 jobs at 03:00 Istanbul, a minute apart, none due in the window.
  const dir = `${paths.personaDir}/jobs`;
  Deno.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < JOBS; i++) {
    const at = `${i % 60} 3 * * *`;
    Deno.writeTextFileSync(
      `${dir}/job-${i}.md`,
      `---\nschedule: ${at}\ndeliver: none\n---\nReport ${i}.\n`,
    );
  }
  // A first runner over ten of them compiles and warms everything the second one uses,
  // so the heap measured next is what 1,000 watched jobs hold.
  const warmDir = `${home}/warm`;
  Deno.mkdirSync(`${warmDir}/persona/jobs`, { recursive: true });
  for (let i = 0; i < 10; i++) {
    Deno.copyFileSync(`${dir}/job-${i}.md`, `${warmDir}/persona/jobs/job-${i}.md`);
  }
  const warm = new JobRunner(ctx, { paths: { ...paths, personaDir: `${warmDir}/persona` } });
  await warm.start();
  await warm.stop();
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  gc();
  const heapBefore = Deno.memoryUsage().heapUsed;
  const startCpu = process.cpuUsage();
  const loadAt = performance.now();
  const idle = new JobRunner(ctx, { paths });
  await idle.start();
  const loadMs = performance.now() - loadAt;
  if (idle.size !== JOBS) throw new Error(`watched ${idle.size} jobs`);
  gc();
  const heapJobs = Deno.memoryUsage().heapUsed - heapBefore;
  const idleCpu0 = process.cpuUsage();
  const idleAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  const idleCpu = process.cpuUsage(idleCpu0);
  const idleWall = performance.now() - idleAt;
  await idle.stop();
  const share = (idleCpu.user + idleCpu.system) / 1000 / idleWall;
  print("jobs watched", String(JOBS));
  print("load 1,000 job files (ms)", loadMs.toFixed(0));
  print("load cpu (ms)", ((process.cpuUsage(startCpu).user) / 1000).toFixed(0));
  print(`idle cpu over ${IDLE_S} s (% of a core)`, (share * 100).toFixed(3));
  print("idle cpu goal", share < 0.01 ? "met (< 1%)" : "MISSED (>= 1%)");
  print("heap for 1,000 jobs (MiB)", (heapJobs / 1048576).toFixed(2));
  print("heap goal", heapJobs < 5 * 1048576 ? "met (< 5 MiB)" : "MISSED (>= 5 MiB)");

  // 2. Latency: one job every second, delivered to the event stream.
  for (const entry of Deno.readDirSync(dir)) Deno.removeSync(`${dir}/${entry.name}`);
  Deno.writeTextFileSync(
    `${dir}/tick.md`,
    "---\nschedule: '* * * * * *'\ndeliver: events\n---\nReport.\n",
  );
  const latencies: number[] = [];
  bus.subscribe((event) => {
    if (event.type !== "job.result") return;
    const slot = Date.parse(event.slot_id.slice(event.slot_id.indexOf("@") + 1));
    latencies.push(Date.now() - slot);
  });
  const ticking = new JobRunner(ctx, { paths });
  await ticking.start();
  const until = Date.now() + 60_000;
  while (latencies.length < SLOTS && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await ticking.stop();
  await delivery.stop();
  const p50 = median(latencies);
  print("slots delivered", String(latencies.length));
  print("slot to delivery p50 (ms)", p50.toFixed(1));
  print("slot to delivery p95 (ms)", percentile(latencies, 95).toFixed(1));
  print("latency goal", p50 < 100 ? "met (p50 < 100 ms)" : "MISSED (p50 >= 100 ms)");
  await desks.close();
  await bus.close();
  store.close();
  ledger.close();
} finally {
  Deno.removeSync(home, { recursive: true });
}
