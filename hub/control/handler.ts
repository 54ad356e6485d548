/**
 * The hub control API: a loopback-only HTTP surface for `agent hub status`, `doctor`
 * and local tools.
 *
 * | Method and path | Response |
 * | --- | --- |
 * | GET /health | `{ok: true, pid, version, started_at, data_dir}` |
 * | GET /status | `{ok, pid, version, started_at, uptime_seconds, heartbeat_at, home, data_dir, port, spend: {roles, forecast}, net}` |
 * | GET /spend | `{roles: {<role>: <spend object>}}` |
 * | GET /spend?by=channel\|contact\|session\|purpose\|day\|job[&role=R][&period=P] | the breakdown, as `agent spend --by --json` prints it |
 * | GET /net | the `net` block alone |
 * | GET /net/events?after=<unix seconds> | `{events: [...]}`: owner events newer than that second, oldest first, each with its `event_id` |
 * | GET /events | `text/event-stream`: owner events as they happen (`id:` the event id, `event:` its type, `data:` the event JSON); resumes after `Last-Event-ID` (or `?after=<id>`, `0` for all that is kept); a `: ping` comment every 15 s; 404 when the hub has no event bus |
 * | GET /approvals | `{approvals: [...]}`: every approval waiting in the hub's conversations (messenger, e-mail, web chat), as the desk's `approval.requested` carries it |
 * | POST /approvals/decide `{id, decision, by?}` | `once`, `session` or `deny` (`by`: `tui` or `cli`, who decided); `{decided}`: `false` when it was decided already or expired |
 * | POST /config/reload | `{applied, restart}`: `agent.toml` read again; roles, models and budgets apply at once, `restart` names the sections that wait for a restart; 400 `{detail}` with the reader's sentence for a bad file |
 * | POST /messenger/webhook | the messenger's updates in webhook mode (secret in `X-Telegram-Bot-Api-Secret-Token`) |
 *
 * Requests whose `Host` is not exactly a loopback name (`127.0.0.1`, `localhost`,
 * `[::1]`, each with an optional port) are refused (403), so a web page cannot reach
 * the API through DNS rebinding; a browser `Origin` other than loopback is refused too
 * (`GET /events` included). Every route but `GET /health` and the channels' own routes
 * (the messenger's webhook keeps Telegram's secret header) needs
 * `Authorization: Bearer <token>`, the token the hub wrote to `<data>/hub.token` (0600)
 * when it started; without it the answer is `401 {"error":"unauthorized"}`.
 *
 * @module
 */
import { errorMessage, errorResponse, HttpError, json, Router } from "@agent/net";
import {
  forecastReport,
  isSpendBy,
  SPEND_BY,
  type SpendByOptions,
  type SpendByReport,
  type SpendObject,
} from "../spend/mod.ts";
import { type OwnerEventFeed, ownerEventStream, resumeFrom } from "../events/mod.ts";
import { hasBearer } from "./token.ts";
import { ConfigError } from "../config/error.ts";
import type { DashboardDoor } from "../dashboard/handler.ts";
import { isUnder, secured } from "../dashboard/guard.ts";
import { jsonBody } from "../dashboard/body.ts";
import type { ApprovalRequest, PersonDecision } from "../desk/mod.ts";

/** The hub's open approvals, decided from outside the hub's process (the TUI). */
export interface ControlApprovals {
  open(): ApprovalRequest[];
  /** `false` when `id` waits no more (decided elsewhere first, or expired). */
  decide(id: string, decision: PersonDecision, by: string): boolean;
}

const DECISIONS: readonly string[] = ["once", "session", "deny"];
/** Who may be named as the decider over the control API. */
const DECIDERS: readonly string[] = ["tui", "cli"];

/** Where the control API reads the live state from. */
export interface ControlSources {
  pid: number;
  version: string;
  /** Epoch ms when the hub started. */
  startedAt: number;
  home: string;
  dataDir: string;
  port: number;
  /** The bearer token every route but `/health` and the channels' routes asks for. */
  token: string;
  now(): number;
  /** Epoch ms of the last heartbeat. */
  heartbeatAt(): number | undefined;
  /** `{<role>: <spend object>}` from the ledger; throws when the ledger cannot be read. */
  spend(): Record<string, unknown>;
  /** Spend broken down over a period (`GET /spend?by=`); throws when the ledger cannot be read. */
  spendBy?(options: Omit<SpendByOptions, "nowMs">): SpendByReport;
  /** The `net` block of the network service. */
  net(): Record<string, unknown>;
  /** The channels' blocks of `/status`, by key (`net`, a messenger's `messenger`, ...). */
  blocks?(): Record<string, Record<string, unknown>>;
  /** Network events newer than `afterSec`, oldest first. */
  events?(afterSec: number): Promise<unknown[]>;
  /** The owner-event bus, for `GET /events`. */
  ownerEvents?: OwnerEventFeed;
  /** Aborted when the hub stops: open event streams end. */
  closing?: AbortSignal;
  /** The event streams' heartbeat. @default 15000 */
  eventsHeartbeatMs?: number;
  /** The channels' `POST` routes (the messenger's webhook), by path. */
  routes?(): Record<string, (request: Request) => Promise<Response>>;
  /** `POST /config/reload`: `agent.toml` into the running hub (throws `ConfigError`). */
  reload?(): Promise<{ applied: string[]; restart: string[] }>;
  /** `GET /approvals`, `POST /approvals/decide`: the hub desk's approvals. */
  approvals?: ControlApprovals;
  /**
   * The web dashboard under `/dashboard` (its own login); given the status the control
   * API answers, so both read the same, and who may have a sign-in code.
   */
  dashboard?(
    status: () => Record<string, unknown>,
    authorizeCode: (request: Request) => boolean,
  ): DashboardDoor;
  /**
   * Where the detail of an unexpected error goes (the hub's log); the answer carries
   * only `{error: "internal"}`.
   * @default nowhere
   */
  log?(line: string): void;
}

/** The control API's own routes; `/health` is the only one answered without the token. */
function controlRoutes(sources: ControlSources): Router<undefined> {
  return new Router()
    .get("/health", () =>
      json({
        ok: true,
        pid: sources.pid,
        version: sources.version,
        started_at: new Date(sources.startedAt).toISOString(),
        // Which home's hub this is: another home's hub may hold the same port.
        data_dir: sources.dataDir,
      }))
    .get("/status", () => json(status(sources)))
    .get("/spend", (_request, { url }) => json(spendAnswer(url.searchParams, sources)))
    .get("/net", () => json(sources.net()))
    .get("/net/events", async (_request, { url }) => {
      const after = Number(url.searchParams.get("after") ?? "0");
      if (!Number.isFinite(after)) throw new HttpError(400, "bad_request");
      return json({ events: sources.events ? await sources.events(after) : [] });
    })
    // A stream has no body for HEAD to stand for.
    .on("GET", "/events", (request, { url }) => {
      if (sources.ownerEvents === undefined) throw new HttpError(404, "not_found");
      return ownerEventStream(sources.ownerEvents, resumeFrom(request, url), {
        ...(sources.closing ? { signal: sources.closing } : {}),
        ...(sources.eventsHeartbeatMs ? { heartbeatMs: sources.eventsHeartbeatMs } : {}),
      });
    })
    .get("/approvals", () => json({ approvals: sources.approvals?.open() ?? [] }))
    .post("/approvals/decide", async (request) => {
      if (sources.approvals === undefined) throw new HttpError(404, "not_found");
      const body = await jsonBody(request);
      const { id, decision, by = "tui" } = body;
      if (typeof id !== "string" || !DECISIONS.includes(decision as string)) {
        throw new HttpError(400, "bad_request", {
          detail: "id and decision (once, session or deny) are needed",
        });
      }
      if (typeof by !== "string" || !DECIDERS.includes(by)) {
        throw new HttpError(400, "bad_request", { detail: "by: tui or cli" });
      }
      return json({ decided: sources.approvals.decide(id, decision as PersonDecision, by) });
    })
    .post("/config/reload", async () => {
      if (sources.reload === undefined) throw new HttpError(404, "not_found");
      try {
        return json(await sources.reload());
      } catch (error) {
        // A bad `agent.toml` changes nothing: its sentence, as every command says it.
        if (error instanceof ConfigError) {
          throw new HttpError(400, "bad_request", { detail: error.message });
        }
        throw error;
      }
    });
}

/**
 * Builds the control API handler.
 *
 * @example
 * ```ts
 * import { controlHandler } from "./handler.ts";
 * const handle = controlHandler({
 *   pid: 1, version: "0.1.0", startedAt: 0, home: "/h", dataDir: "/h/data", port: 8790,
 *   token: "t0ken", now: () => 1000, heartbeatAt: () => 1000, spend: () => ({}),
 *   net: () => ({ configured: false }),
 * });
 * const res = await handle(new Request("http://127.0.0.1:8790/health"));
 * if (res.status !== 200) throw new Error();
 * const status = await handle(new Request("http://127.0.0.1:8790/status"));
 * if (status.status !== 401) throw new Error("the token is needed");
 * ```
 */
export function controlHandler(sources: ControlSources): (request: Request) => Promise<Response> {
  // `agent dashboard` asks for a sign-in code with the control token; a browser never
  // does (it sends an Origin).
  const door = sources.dashboard?.(
    () => status(sources),
    (request) => request.headers.get("origin") === null && hasBearer(request, sources.token),
  );
  const own = controlRoutes(sources);
  return async (request) => {
    let response: Response;
    try {
      response = await route(request, sources, own, door);
    } catch (error) {
      // An unexpected error is answered 500 `internal`; its text goes to the log only.
      response = errorResponse(error, (line) => sources.log?.(`control api: ${line}`));
    }
    // Under /dashboard a refusal made here (a foreign Host, no dashboard at all) carries
    // the page's headers too.
    return isUnder(request.url, "/dashboard") ? secured(response) : response;
  };
}

async function route(
  request: Request,
  sources: ControlSources,
  own: Router<undefined>,
  door: DashboardDoor | undefined,
): Promise<Response> {
  // The Host header is checked before the URL is parsed: the server builds the URL from
  // it, so a malformed one (`[::1`) would make the parse throw.
  const host = request.headers.get("host");
  if (host === null ? !isLoopbackUrl(request.url) : !isLoopbackHost(host)) {
    throw new HttpError(403, "forbidden");
  }
  const url = parseUrl(request.url);
  // The dashboard makes its own checks: same origin, the session, the CSRF token.
  if (door !== undefined && isUnder(request.url, "/dashboard")) {
    return await door.handle(request, url);
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !isLoopbackOrigin(origin)) throw new HttpError(403, "forbidden");
  const path = url.pathname.replace(/\/+$/, "") || "/";
  // The channels' routes (the messenger's webhook) keep their own secret.
  const channels = new Router();
  for (const [at, handler] of Object.entries(sources.routes?.() ?? {})) {
    channels.post(at, (request) => handler(request));
  }
  const channelAnswer = await channels.handle(request, undefined, { url, path });
  if (channelAnswer !== undefined) return channelAnswer;
  // A path of the table: the token before anything else (even a wrong method).
  if (!own.routes.some((r) => r.pattern === path)) throw new HttpError(404, "not_found");
  if (path !== "/health" && !hasBearer(request, sources.token)) {
    throw new HttpError(401, "unauthorized");
  }
  return (await own.handle(request, undefined, { url, path }))!;
}

const PERIODS = ["day", "week", "month"] as const;

function spendAnswer(query: URLSearchParams, sources: ControlSources): unknown {
  const by = query.get("by");
  if (by === null) return { roles: spendOrThrow(sources) };
  if (!isSpendBy(by)) {
    throw new HttpError(400, "bad_request", {
      detail: `by: one of ${SPEND_BY.join(", ")}`,
    });
  }
  const period = query.get("period") ?? undefined;
  if (period !== undefined && !(PERIODS as readonly string[]).includes(period)) {
    throw new HttpError(400, "bad_request", { detail: "period: one of day, week, month" });
  }
  const role = query.get("role") ?? undefined;
  if (sources.spendBy === undefined) throw new HttpError(404, "not_found");
  try {
    return sources.spendBy({ by, role, period: period as typeof PERIODS[number] | undefined });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    sources.log?.(`control api: ledger_unreadable: ${errorMessage(error)}`);
    throw new HttpError(500, "ledger_unreadable");
  }
}

function spendOrThrow(sources: ControlSources): Record<string, unknown> {
  try {
    return sources.spend();
  } catch (error) {
    sources.log?.(`control api: ledger_unreadable: ${errorMessage(error)}`);
    throw new HttpError(500, "ledger_unreadable");
  }
}

function status(sources: ControlSources): Record<string, unknown> {
  const now = sources.now();
  const beat = sources.heartbeatAt();
  let spend: Record<string, unknown>;
  try {
    const roles = sources.spend();
    spend = { roles, forecast: forecastReport(roles as Record<string, SpendObject>, now) };
  } catch (error) {
    // The status stays useful when the ledger is locked or damaged: spend says it is
    // unreadable (the code `GET /spend` answers), the log says why.
    sources.log?.(`control api: ledger_unreadable: ${errorMessage(error)}`);
    spend = { roles: {}, error: "ledger_unreadable" };
  }
  return {
    ok: true,
    pid: sources.pid,
    version: sources.version,
    started_at: new Date(sources.startedAt).toISOString(),
    uptime_seconds: Math.max(0, Math.floor((now - sources.startedAt) / 1000)),
    heartbeat_at: beat === undefined ? null : new Date(beat).toISOString(),
    home: sources.home,
    data_dir: sources.dataDir,
    port: sources.port,
    spend,
    net: sources.net(),
    ...sources.blocks?.(),
  };
}

const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i;

/**
 * Whether a `Host` header is exactly a loopback name (`127.0.0.1`, `localhost`,
 * `[::1]`) with an optional port; anything else (`[::1`, `[::1]evil.com`,
 * `localhost:80@evil`, `localhost.evil`) is not. Never throws.
 *
 * @example
 * ```ts
 * import { isLoopbackHost } from "./handler.ts";
 * if (!isLoopbackHost("[::1]:8790") || isLoopbackHost("localhost:80@evil")) throw new Error();
 * ```
 */
export function isLoopbackHost(host: string): boolean {
  const match = LOOPBACK_HOST.exec(host);
  if (match === null) return false;
  return match[1] === undefined || Number(match[1]) <= 65535;
}

/** Whether a browser `Origin` is `http://` on a loopback host. Never throws. */
export function isLoopbackOrigin(origin: string): boolean {
  const match = /^http:\/\/([^/]*)$/i.exec(origin);
  return match !== null && isLoopbackHost(match[1]!);
}

function isLoopbackUrl(url: string): boolean {
  const match = /^http:\/\/([^/?#]*)/i.exec(url);
  return match !== null && isLoopbackHost(match[1]!);
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new HttpError(400, "bad_request");
  }
}
