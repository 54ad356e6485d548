/**
 * The dashboard's hub in the test's own process (its tests and benchmarks; a hub process
 * is `_hub_process.ts`, a home's own hub in process `_home_hub.ts`): a home set up with
 * the fake model (scripted replies), a seeded ledger, `startHub()` run by
 * `serveInProcess()` on a free loopback port, and a clock the test can move (the dashboard's login codes
 * expire by it). `code()` asks for a login code the way `agent dashboard` does.
 *
 * @module
 */
import { Ledger, Logger, readHubToken, setupHome, startHub } from "@agent/hub";
import type { CallRecord } from "@agent/hub/money";
import { periodBounds } from "@agent/hub/money";
import { resolvePaths } from "@agent/hub/base";
import { loadConfig } from "@agent/hub/config";
import { type TempDir, tempDir } from "./_temp_dir.ts";
import { type HomeHub, serveInProcess } from "./_home_hub.ts";

/** Options for {@linkcode startDashboardHub}. */
export interface DashboardHubOptions {
  /** The fake brain's replies, in turn (`/tool <name> <json>` calls a tool). */
  replies?: string[];
  /** Milliseconds between streamed words. @default 0 */
  wordMs?: number;
  /** Ledger rows written before the hub starts. */
  calls?: CallRecord[];
  /** Lines appended to the home's `.env` before the hub starts. */
  dotenv?: string;
  /** Text appended to the home's `agent.toml` before the hub starts (an MCP server's table). */
  toml?: string;
}

/** The running hub. */
export interface DashboardHub extends AsyncDisposable {
  home: string;
  port: number;
  base: string;
  /** Moves the hub's clock (login codes, sessions) by `ms`. */
  advance(ms: number): void;
  /** A one-time login code, as `agent dashboard` gets it. */
  code(): Promise<string>;
  /** The sign-in address `agent dashboard` opens. */
  loginUrl(): Promise<string>;
  stop(): Promise<void>;
}

/** The furthest back {@linkcode seededCalls} goes: 3 hours and 2 minutes. */
const SEEDED_SPREAD_MS = 3 * 3_600_000 + 2 * 60_000;

/**
 * Calls over this month, by several roles, channels, sessions and contacts: over the
 * last three hours, or closer together when this Istanbul month is younger than that (in
 * its first hours, 21:00 to 00:02 UTC on a month's last day, three hours back was last
 * month, and the month's pages showed none of those calls).
 */
export function seededCalls(nowMs: number, count = 60): CallRecord[] {
  const calls: CallRecord[] = [];
  const channels = ["chat", "messenger", "net", "tui"] as const;
  const room = Math.max(0, nowMs - periodBounds("month", nowMs).sinceMs - 1);
  const scale = Math.min(1, room / SEEDED_SPREAD_MS);
  for (let i = 0; i < count; i++) {
    const channel = channels[i % channels.length]!;
    calls.push({
      ts: nowMs - Math.floor(((i % 4) * 3_600_000 + (i % 3) * 60_000) * scale),
      role: i % 3 === 0 ? "fast" : "brain",
      provider: "fake",
      model_id: i % 3 === 0 ? "fake-fast" : "fake-brain",
      input_tokens: 100 + i,
      output_tokens: 20 + i,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      usd: 0.01 * (1 + (i % 5)),
      channel,
      session_id: channel === "net" ? null : `${channel}-s${i % 3}`,
      peer: channel === "net" ? `peer${i % 2}.example` : null,
    });
  }
  return calls;
}

/**
 * A month of use as issue 39 measured it: `sessions` sessions (chat, tui, messenger and
 * the net) spread from the start of this Istanbul month to now, each with one brain call
 * and every third with a fast call too, at sub-cent prices (a column of $0.0137s shows
 * whether its parts add up to its total), and a few calls within the last hours, so
 * today has spend in several hours.
 */
export function monthOfCalls(nowMs: number, sessions = 200): CallRecord[] {
  const { sinceMs } = periodBounds("month", nowMs);
  const span = Math.max(1, nowMs - sinceMs - 60_000);
  // An hour apart today, or closer when today is younger than six hours (whole
  // milliseconds: a ledger row's time is; at 00:27 a seventh of today was not).
  const step = Math.min(3_600_000, Math.floor((nowMs - periodBounds("day", nowMs).sinceMs) / 7));
  const channels = ["chat", "tui", "messenger", "net"] as const;
  const calls: CallRecord[] = [];
  for (let i = 0; i < sessions; i++) {
    const channel = channels[i % channels.length]!;
    // The last sessions fall in today's last hours (an hour apart); the rest over the month.
    const recent = i >= sessions - 6;
    const ts = recent
      ? nowMs - (sessions - 1 - i) * step - 2_000
      : sinceMs + Math.floor((span * i) / sessions);
    const base = {
      provider: "fake" as const,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      channel,
      session_id: channel === "net" ? null : `${channel}-${String(i).padStart(3, "0")}`,
      peer: channel === "net" ? `peer${i % 7}.agents.example` : null,
    };
    calls.push({
      ...base,
      ts: Math.max(sinceMs, ts),
      role: "brain",
      model_id: "fake-brain",
      input_tokens: 1_200 + 10 * i,
      output_tokens: 300 + i,
      usd: 0.0137 + 0.001 * (i % 9),
      estimated: i % 25 === 0,
    });
    if (i % 3 === 0) {
      calls.push({
        ...base,
        ts: Math.max(sinceMs, ts + 1_000),
        role: "fast",
        model_id: "fake-fast",
        input_tokens: 400 + i,
        output_tokens: 60,
        usd: 0.0011 + 0.0001 * (i % 4),
      });
    }
  }
  return calls;
}

/** Starts the hub; `await using` stops it and removes the home. */
export async function startDashboardHub(options: DashboardHubOptions = {}): Promise<DashboardHub> {
  const dir: TempDir = await tempDir("agent-dashboard-");
  const home = dir.path;
  const paths = resolvePaths({ home, env: {} });
  let clock = 0;
  const now = () => Date.now() + clock;
  let served: HomeHub | undefined;
  try {
    await setupHome(paths, { provider: "fake", language: "en", env: {} });
    const file = `${home}/agent.toml`;
    const toml = (await Deno.readTextFile(file)).replace(
      'model_id = "fake-brain"\n',
      `model_id = "fake-brain"\nparams = { word_ms = ${options.wordMs ?? 0}, replies = ${
        JSON.stringify(options.replies ?? [])
      } }\n`,
    );
    await Deno.writeTextFile(file, toml + (options.toml ?? ""));
    if (options.dotenv !== undefined) {
      await Deno.writeTextFile(paths.envFile, options.dotenv, { append: true, mode: 0o600 });
    }
    if (options.calls?.length) {
      const ledger = Ledger.open(paths.ledgerFile);
      ledger.recordMany(options.calls);
      ledger.close();
    }
    const logger = new Logger({ stderr: "off" });
    const config = await loadConfig(paths, { lang: "en" });
    const hub = await startHub({ config, env: {}, paths, lang: "en", logger });
    // serveInProcess closes the hub itself when it ends before it listens.
    served = await serveInProcess(hub, { paths, lang: "en", logger, port: 0, now, name: home });
    const port = served.port;
    const base = `http://127.0.0.1:${port}`;
    const code = async () => {
      const res = await fetch(`${base}/dashboard/code`, {
        method: "POST",
        headers: { authorization: `Bearer ${await readHubToken(paths.hubTokenFile)}` },
      });
      const body = await res.json() as { code: string };
      if (!res.ok) throw new Error(`no code: ${res.status}`);
      return body.code;
    };
    let stopped = false;
    const stopAll = async () => {
      if (stopped) return;
      stopped = true;
      await served!.stop();
      await dir[Symbol.asyncDispose]();
    };
    return {
      home,
      port,
      base,
      advance: (ms) => clock += ms,
      code,
      loginUrl: async () => `${base}/dashboard/#code=${await code()}`,
      stop: stopAll,
      [Symbol.asyncDispose]: stopAll,
    };
  } catch (error) {
    await served?.stop().catch(() => {});
    await dir[Symbol.asyncDispose]();
    throw error;
  }
}
