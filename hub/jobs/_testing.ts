// Shared helpers for this folder's tests: a fake-model home whose `fast` role is priced
// and spends, a job store, the owner-event bus and a run context over them.
import { loadConfig } from "../config/read.ts";
import { setupHome } from "../config/setup.ts";
import { type OwnerEvent, OwnerEventBus } from "../events/mod.ts";
import { Logger } from "../log.ts";
import { Ledger } from "../ledger/mod.ts";
import { type AgentPaths, resolvePaths } from "../paths.ts";
import { BUILTIN_TOOLS } from "../tools/mod.ts";
import type { JobDefinition } from "./definition.ts";
import { jobDesks } from "./desks.ts";
import { jobStoreFile, writeJob } from "./files.ts";
import type { JobRunContext } from "./run/mod.ts";
import { JobStore } from "./store.ts";
import { DeliveryWorker } from "./delivery.ts";
import type { Clock } from "../clock.ts";

/** A home for job tests. */
export interface JobHome {
  paths: AgentPaths;
  ledger: Ledger;
  store: JobStore;
  bus: OwnerEventBus;
  /** Every owner event published, in order. */
  events: OwnerEvent[];
  ctx: JobRunContext;
  /** The delivery worker of {@linkcode JobHome.ctx} (to the bus; no messenger). */
  delivery: DeliveryWorker;
  /** Waits until the answers written so far were sent. */
  flush(): Promise<void>;
  /** A second context on the same files (another hub process). */
  second(): JobRunContext;
  write(job: Partial<JobDefinition> & { name: string }): Promise<JobDefinition>;
  close(): Promise<void>;
}

/**
 * A home whose `fast` role is the fake model at $1 input / $2 output per million
 * tokens, each call using `usage` (default 1000 in, 500 out: $0.002). With `clock`, the
 * runs read their time from it (a scheduler on the same clock fires when it moves).
 */
export async function jobHome(
  usage: { input: number; output: number } = { input: 1000, output: 500 },
  options: { clock?: Clock } = {},
): Promise<JobHome> {
  const now = options.clock === undefined ? Date.now : () => options.clock!.now();
  const home = await Deno.makeTempDir({ prefix: "agent-jobs-" });
  const paths = resolvePaths({ home, env: {} });
  await setupHome(paths, { provider: "fake", language: "en", env: {} });
  const toml = await Deno.readTextFile(paths.configFile);
  await Deno.writeTextFile(
    paths.configFile,
    toml.replace(
      'model_id = "fake-fast"\n',
      `model_id = "fake-fast"\nparams = { replies = ["Done."], usage = { input = ${usage.input}, output = ${usage.output} } }\n`,
    ) + '\n[models.prices."fake-fast"]\ninput = 1.0\noutput = 2.0\n',
  );
  const config = await loadConfig(paths, { lang: "en" });
  const ledger = Ledger.open(paths.ledgerFile);
  await Deno.mkdir(paths.dataDir, { recursive: true });
  const store = JobStore.open(jobStoreFile(paths));
  await Deno.mkdir(paths.netDir, { recursive: true });
  const bus = await OwnerEventBus.open(paths.netDir, { watch: false });
  const events: OwnerEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const logger = new Logger({ stderr: "off" });
  const opened: { close(): Promise<void> }[] = [];
  const stores: JobStore[] = [];
  const ledgers: Ledger[] = [];
  const delivery = new DeliveryWorker({
    store: store.deliveries,
    sinks: {
      events: {
        publish: (event) => bus.publish(event),
        has: (slotId) =>
          Promise.resolve(events.some((e) => e.type === "job.result" && e.slot_id === slotId)),
      },
      notice: async (job, text) => {
        await bus.publish({ ts: Math.floor(Date.now() / 1000), type: "job.notice", job, text });
      },
    },
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    alive: () => true,
    now: Date.now,
  });
  delivery.start();
  const context = (s: JobStore, l: Ledger): JobRunContext => {
    const desks = jobDesks({
      config,
      env: {},
      paths,
      lang: "en",
      logger,
      ledger: l,
      tools: BUILTIN_TOOLS,
    });
    opened.push(desks);
    return {
      config,
      lang: "en",
      logger,
      ledger: l,
      store: s,
      desk: desks.desk,
      events: bus,
      chats: [],
      delivered: () => delivery.kick(),
      systemChars: 0,
      now,
    };
  };
  return {
    paths,
    ledger,
    store,
    bus,
    events,
    ctx: context(store, ledger),
    delivery,
    flush: () => delivery.once(),
    second() {
      const s = JobStore.open(jobStoreFile(paths));
      const l = Ledger.open(paths.ledgerFile);
      stores.push(s);
      ledgers.push(l);
      return context(s, l);
    },
    async write(partial) {
      const job: JobDefinition = {
        schedule: "* * * * * *",
        tz: "Europe/Istanbul",
        role: "fast",
        deliver: "messenger",
        missed: "once",
        tools: "none",
        prompt: "Report.",
        ...partial,
      };
      await writeJob(paths, job);
      return job;
    },
    async close() {
      await delivery.stop();
      for (const o of opened) await o.close();
      await bus.close();
      for (const s of [store, ...stores]) s.close();
      for (const l of [ledger, ...ledgers]) l.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}
