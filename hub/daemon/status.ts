/**
 * `agent hub status` and `agent hub stop`: read the lock, heartbeat and last crash,
 * ask the control API, and signal the running hub.
 *
 * @module
 */
import { formatTime, type Lang } from "../i18n.ts";
import { fetchControl } from "../control/client.ts";
import { liveLock, readLock } from "./lock.ts";
import { readCrash, readHeartbeat, uncleanEnd } from "./state_files.ts";
import { LAUNCHD_LABEL, type LaunchdState } from "./launchd.ts";
import { processAlive } from "./process.ts";
import { t } from "./_messages.ts";
import { withSeparators } from "../spend/usd_format.ts";
import { t as netSentence } from "../network/_messages.ts";
import { errorMessage } from "@agent/net/common";

/** What `agent hub status --json` prints. */
export interface HubStatusReport {
  running: boolean;
  pid: number | null;
  started_at: string | null;
  uptime_seconds: number | null;
  heartbeat_at: string | null;
  heartbeat_age_seconds: number | null;
  control: { port: number; answers: boolean };
  last_crash: { at: string; pid: number; reason: string } | null;
  launchd: { state: LaunchdState; label: string };
  /** The running hub's `net` block (`GET /net`), or null. */
  net: Record<string, unknown> | null;
  /** The running hub's `messenger` block (of `GET /status`), or null when it has none. */
  messenger?: Record<string, unknown> | null;
  /** The running hub's `email` block (of `GET /status`), or null when it has none. */
  email?: Record<string, unknown> | null;
}

/** Options for {@linkcode hubStatus}. */
export interface HubStatusOptions {
  port: number;
  /** `<data>/hub.token`, for the routes behind the bearer token. */
  tokenFile?: string;
  launchd: LaunchdState;
  now?: () => number;
  /** The language of a crash's reason found here (a lock left by a killed hub). */
  lang?: Lang;
}

/** Gathers the hub's state from its files and its control API. */
export async function hubStatus(
  lockFile: string,
  options: HubStatusOptions,
): Promise<HubStatusReport> {
  const now = (options.now ?? Date.now)();
  const lock = liveLock(lockFile);
  const beat = readHeartbeat(lockFile);
  // A lock whose hub is gone is a crash the next start will record: shown now already.
  const left = lock === undefined ? readLock(lockFile) : undefined;
  const recorded = readCrash(lockFile);
  const crash = left !== undefined && (recorded === undefined || recorded.at < left.started_at)
    ? uncleanEnd(lockFile, left.pid, now, options.lang ?? "en")
    : recorded;
  const answers = lock !== undefined &&
    (await fetchControl(options.port, "/health", { timeoutMs: 1000 })) !== undefined;
  const token = options.tokenFile ? { tokenFile: options.tokenFile } : {};
  const net = answers
    ? await fetchControl(options.port, "/net", { timeoutMs: 1000, ...token })
    : undefined;
  const status = answers
    ? await fetchControl(options.port, "/status", { timeoutMs: 1000, ...token })
    : undefined;
  const messenger = status?.messenger;
  const email = status?.email;
  const liveBeat = lock !== undefined && beat !== undefined && beat.pid === lock.pid
    ? beat
    : undefined;
  return {
    running: lock !== undefined,
    pid: lock?.pid ?? null,
    started_at: lock === undefined ? null : new Date(lock.started_at).toISOString(),
    uptime_seconds: lock === undefined
      ? null
      : Math.max(0, Math.floor((now - lock.started_at) / 1000)),
    heartbeat_at: beat === undefined ? null : new Date(beat.at).toISOString(),
    heartbeat_age_seconds: liveBeat === undefined
      ? null
      : Math.max(0, Math.floor((now - liveBeat.at) / 1000)),
    control: { port: options.port, answers },
    last_crash: crash === undefined
      ? null
      : { at: new Date(crash.at).toISOString(), pid: crash.pid, reason: crash.reason },
    launchd: { state: options.launchd, label: LAUNCHD_LABEL },
    net: net ?? null,
    messenger: typeof messenger === "object" && messenger !== null
      ? messenger as Record<string, unknown>
      : null,
    email: typeof email === "object" && email !== null ? email as Record<string, unknown> : null,
  };
}

/** The human lines of `agent hub status`. */
export function statusLines(report: HubStatusReport, lang: Lang): string[] {
  const lines: string[] = [];
  if (report.running && report.pid !== null) {
    lines.push(t(lang, "status_running", {
      pid: report.pid,
      uptime: duration(report.uptime_seconds ?? 0),
    }));
  } else {
    lines.push(t(lang, "status_stopped"));
  }
  if (report.heartbeat_at === null) {
    lines.push(t(lang, "status_heartbeat_none"));
  } else {
    const at = Date.parse(report.heartbeat_at);
    const age = report.heartbeat_age_seconds ?? Math.floor((Date.now() - at) / 1000);
    lines.push(t(lang, "status_heartbeat", { age: duration(age), time: formatTime(at) }));
  }
  if (report.net !== null) lines.push(netLine(report.net, lang));
  if (report.messenger) lines.push(messengerLine(report.messenger, lang));
  if (report.email) lines.push(emailLine(report.email, lang));
  if (report.running) {
    lines.push(t(lang, "status_control", {
      state: t(lang, report.control.answers ? "answers" : "no_answer", {
        port: report.control.port,
      }),
    }));
  }
  lines.push(
    report.last_crash === null ? t(lang, "status_crash_none") : t(lang, "status_crash", {
      time: formatTime(Date.parse(report.last_crash.at)),
      pid: report.last_crash.pid,
      reason: report.last_crash.reason,
    }),
  );
  const label = report.launchd.label;
  const state = report.launchd.state === "not_applicable"
    ? t(lang, "launchd_na", { os: Deno.build.os })
    : report.launchd.state === "loaded"
    ? t(lang, "launchd_loaded", { label })
    : report.launchd.state === "installed"
    ? t(lang, "launchd_installed", { label })
    : t(lang, "launchd_absent");
  lines.push(t(lang, "status_launchd", { state }));
  return lines;
}

const MISSING = ["spine_url", "spine_token", "https_spine_url", "identity"] as const;

function netLine(net: Record<string, unknown>, lang: Lang): string {
  const bell = (net.doorbell ?? {}) as Record<string, unknown>;
  if (net.configured !== true) {
    // What the network lacks is worded here, in this command's language (the hub may
    // speak another).
    const missing = net.missing;
    if (typeof missing === "string" && (MISSING as readonly string[]).includes(missing)) {
      return t(lang, "status_net_missing", {
        missing: netSentence(lang, `missing_${missing as (typeof MISSING)[number]}`),
      });
    }
    return t(lang, "status_net_idle", { detail: String(net.detail ?? "-") });
  }
  if (net.state === "failed") return t(lang, "status_net_failed", { detail: String(net.detail) });
  return t(lang, "status_net", {
    state: String(net.state),
    link: String(net.link),
    rings: String(bell.rings ?? 0),
    reconnects: String(bell.reconnects ?? 0),
    handled: String(net.handled ?? 0),
  });
}

/** The messenger's line: connected or not, polling or webhook, last update, last error. */
export function messengerLine(block: Record<string, unknown>, lang: Lang): string {
  const state = String(block.state ?? "");
  const shown = state === "polling" || state === "webhook"
    ? t(lang, "messenger_connected")
    : state === "conflict" || state === "failed" || state === "stopped"
    ? t(lang, `messenger_${state}`)
    : t(lang, "messenger_starting");
  const at = typeof block.last_update_at === "string" ? Date.parse(block.last_update_at) : NaN;
  const error = typeof block.last_error === "string" && block.last_error !== ""
    ? block.last_error
    : t(lang, "messenger_no_error");
  return t(lang, "status_messenger", {
    state: shown,
    mode: String(block.mode ?? "polling"),
    time: Number.isNaN(at) ? t(lang, "messenger_never") : formatTime(at),
    error,
  });
}

/** The e-mail line: connected or not, the mode, the last mail and the last error. */
export function emailLine(block: Record<string, unknown>, lang: Lang): string {
  const state = String(block.state ?? "");
  const shown = state === "connected" || state === "reconnecting" || state === "stopped"
    ? t(lang, `email_${state}`)
    : t(lang, "email_connecting");
  const at = typeof block.last_message_at === "string" ? Date.parse(block.last_message_at) : NaN;
  const error = typeof block.last_error === "string" && block.last_error !== ""
    ? block.last_error
    : t(lang, "messenger_no_error");
  return t(lang, "status_email", {
    state: shown,
    mode: String(block.mode ?? "idle"),
    address: String(block.address ?? "-"),
    time: Number.isNaN(at) ? t(lang, "messenger_never") : formatTime(at),
    error,
  });
}

/** Formats seconds as `42 s`, `5 min 3 s`, `2 h 05 min`, `3 d 4 h`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86400) {
    return `${Math.floor(s / 3600)} h ${String(Math.floor(s % 3600 / 60)).padStart(2, "0")} min`;
  }
  return `${Math.floor(s / 86400)} d ${Math.floor(s % 86400 / 3600)} h`;
}

/** Options for {@linkcode stopHub}. */
export interface StopHubOptions {
  /** Seconds to wait for the hub to go. @default 15 */
  timeoutSeconds?: number;
  lang: Lang;
  out(text: string): void;
  err(text: string): void;
  /** Sends the signal (injectable for tests). */
  kill?: (pid: number) => void;
}

/** Sends SIGTERM to the running hub and waits for it to go; returns the exit code. */
export async function stopHub(lockFile: string, options: StopHubOptions): Promise<number> {
  const { lang } = options;
  const timeout = options.timeoutSeconds ?? 15;
  const lock = liveLock(lockFile);
  if (lock === undefined) {
    options.out(t(lang, "not_running"));
    return 0;
  }
  try {
    (options.kill ?? ((pid) => Deno.kill(pid, "SIGTERM")))(lock.pid);
  } catch (error) {
    options.err(t(lang, "stop_failed", {
      pid: lock.pid,
      detail: errorMessage(error),
    }));
    return 1;
  }
  options.out(t(lang, "stop_sent", { pid: lock.pid }));
  const deadline = Date.now() + timeout * 1000;
  while (Date.now() < deadline) {
    const still = liveLock(lockFile);
    if (still?.pid !== lock.pid || processAlive(lock.pid) === false) {
      options.out(t(lang, "stopped_clean"));
      return 0;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  options.err(t(lang, "stop_timeout", { seconds: secondsText(timeout, lang) }));
  return 1;
}

function secondsText(seconds: number, lang: Lang): string {
  return withSeparators(Number.isInteger(seconds) ? seconds.toFixed(1) : String(seconds), lang);
}
