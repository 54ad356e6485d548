// Shared helpers for this folder's tests: a fake-model home and a desk over it.
import { loadConfig } from "../config/read.ts";
import { setupHome } from "../config/setup.ts";
import { Logger } from "../log.ts";
import { Ledger } from "../ledger/mod.ts";
import { type AgentPaths, resolvePaths } from "../paths.ts";
import { BUILTIN_TOOLS } from "../tools/mod.ts";
import { Desk, type DeskOptions } from "./desk.ts";
import type { DeskEvent } from "./events.ts";

/** A desk on a fresh home whose `brain` is the fake model. */
export interface TestDesk {
  desk: Desk;
  paths: AgentPaths;
  ledger: Ledger;
  /** Closes the desk and the ledger and removes the home. */
  close(): Promise<void>;
}

/** Options for {@linkcode testDesk}. */
export interface TestDeskOptions extends Partial<Pick<DeskOptions, "approvalTimeoutMs" | "now">> {
  /** The fake brain's replies, in turn. */
  replies?: string[];
  /** Milliseconds between streamed words. */
  wordMs?: number;
  lang?: "en" | "tr";
}

/** Makes a home with the fake provider and a desk over it. */
export async function testDesk(options: TestDeskOptions = {}): Promise<TestDesk> {
  const home = await Deno.makeTempDir({ prefix: "agent-desk-" });
  const paths = resolvePaths({ home, env: {} });
  const lang = options.lang ?? "en";
  await setupHome(paths, { provider: "fake", language: lang, env: {} });
  const params = `{ replies = ${JSON.stringify(options.replies ?? [])}, word_ms = ${
    options.wordMs ?? 0
  } }`;
  const toml = await Deno.readTextFile(paths.configFile);
  await Deno.writeTextFile(
    paths.configFile,
    toml.replace('model_id = "fake-brain"\n', `model_id = "fake-brain"\nparams = ${params}\n`),
  );
  const config = await loadConfig(paths, { lang });
  const ledger = Ledger.open(paths.ledgerFile);
  const desk = new Desk({
    config,
    env: {},
    paths,
    lang,
    logger: new Logger({ stderr: "off" }),
    ledger,
    tools: BUILTIN_TOOLS,
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    desk,
    paths,
    ledger,
    async close() {
      await desk.close();
      ledger.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** Collects events; `until` waits for one that matches. */
export class EventLog {
  readonly events: DeskEvent[] = [];
  #waiters: { test: (e: DeskEvent) => boolean; resolve: (e: DeskEvent) => void }[] = [];

  /** The listener to subscribe. */
  readonly listen = (event: DeskEvent): void => {
    this.events.push(event);
    for (const waiter of [...this.#waiters]) {
      if (waiter.test(event)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  };

  /** The first event from now on (or already seen, with `seen`) that matches. */
  until(test: (e: DeskEvent) => boolean, timeoutMs = 5_000): Promise<DeskEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching event in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiters.push({
        test,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  /** The types (custom events as `CUSTOM:<name>`), in order. */
  types(): string[] {
    return this.events.map((e) => e.type === "CUSTOM" ? `CUSTOM:${e.name}` : e.type);
  }
}
