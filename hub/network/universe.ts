/**
 * The hub's side of the universe: signed `join`, `report` and `leave` (with `ts` kept
 * strictly increasing across runs and a `stale` answer retried up to three times), the
 * report's content (accepted contacts listed in the universe, with message counts; the
 * public sub-agents; who is listed asked with `POST /api/listed` when the universe's
 * `GET /api/info` advertises it, else read from document 3's snapshot), and the reporter the hub runs: at start, then every
 * `universe_report_minutes`, re-reading the profile each time, joining again on
 * `not_joined`, and keeping its state for `net.universe` in `/status`.
 *
 * @module
 */
import {
  baseUrlFor,
  errorMessage,
  readLimited,
  signUniverseRequest,
  type UniverseLink,
  type UniversePayload,
  type UniverseSub,
} from "@agent/net";
import type { SubAgentDirectory } from "../subs/directory.ts";
import { reportSubs } from "../subs/directory.ts";
import type { NetNode } from "./node.ts";
import { OwnSpineError } from "./spine_client.ts";

/**
 * The universe answered something other than success, or nothing. With status 0 the
 * code names the culprit: `unreachable` (no answer), `not_https` (it answered an https
 * request in plain http), `scheme_in_host` (`[net] universe` was written as a URL).
 */
export class UniverseError extends Error {
  override name = "UniverseError";
  /** The HTTP status (0 when the universe did not answer). */
  readonly status: number;
  /** The `error` code of the answer, when there was one, or the client's own code. */
  readonly code: string | undefined;
  /** With `scheme_in_host`: the host as it should be written. */
  readonly host: string | undefined;
  /** With status 0: why nothing answered, without the host. */
  readonly reason: string | undefined;
  /** Makes the error. */
  constructor(
    status: number,
    code: string | undefined,
    detail: string,
    options: { host?: string; reason?: string } = {},
  ) {
    super(detail);
    this.status = status;
    this.code = code;
    this.host = options.host;
    this.reason = options.reason;
  }
}

/** What a TLS client meets when the server speaks plain http. */
const PLAIN_HTTP_ANSWER = /InvalidContentType|corrupt message|wrong version number|http request/i;

/** An error's message with its causes (fetch keeps the reason in `cause`). */
function fullMessage(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && parts.length < 4; e = (e as Error).cause) {
    parts.push(errorMessage(e));
    if (!(e instanceof Error)) break;
  }
  return parts.join(": ");
}

/** What `GET /api/universe` holds that a hub reads. */
export interface UniverseSnapshot {
  universe: string;
  taus: { address: string; name: string; online: boolean }[];
  links: { a: string; b: string; messages: number }[];
}

/** What `GET /api/info` advertises (our extension; a universe without it answers 404). */
interface UniverseInfo {
  listed?: { path?: unknown; max_addresses?: unknown };
}

const STALE_RETRIES = 3;
const ANSWER_MAX = 8 * 1024;
const SNAPSHOT_MAX = 32 * 1024 * 1024;
const LISTED_MAX = 512 * 1024;

/** A client of the universe named by `[net] universe`, signing as `node`. */
export class UniverseClient {
  readonly host: string;
  #node: NetNode;
  #base: string;

  /**
   * Makes the client; `host` is `[net] universe`, a host without a scheme.
   *
   * @throws {UniverseError} `scheme_in_host` when it is written as a URL.
   */
  constructor(node: NetNode, host: string) {
    this.host = host.trim().toLowerCase();
    this.#node = node;
    const scheme = this.host.match(/^([a-z][a-z0-9+.-]*):\/\/([^/]*)/);
    if (scheme !== null) {
      throw new UniverseError(
        0,
        "scheme_in_host",
        `[net] universe is a host, not a URL: write "${scheme[2]}"`,
        { host: scheme[2]! },
      );
    }
    this.#base = baseUrlFor(this.host, node.allowInsecure);
  }

  /** The universe's own page for this agent. */
  async pageUrl(): Promise<string> {
    // The scheme the hub speaks to it: a loopback universe tried with plain http is
    // linked as http, not as an https address no browser reaches.
    return `${this.#base}/universe#${await this.#node.address()}`;
  }

  /** `join`: the owner's name and a line about the agent. Returns the universe's URL. */
  async join(owner: string, about: string): Promise<string> {
    const body = await this.#send("join", { owner, about });
    return typeof body.url === "string" && body.url.startsWith(`${this.#base}/`)
      ? body.url
      : await this.pageUrl();
  }

  /** `report`: links and public sub-agents (none listed when `subs` is empty). */
  async report(links: UniverseLink[], subs: UniverseSub[]): Promise<number> {
    const body = await this.#send("report", { links, ...(subs.length > 0 ? { subs } : {}) });
    return typeof body.visible_links === "number" ? body.visible_links : 0;
  }

  /** `leave`. */
  async leave(): Promise<void> {
    await this.#send("leave", {});
  }

  /** `GET /api/universe`. */
  async snapshot(): Promise<UniverseSnapshot> {
    const res = await this.#fetch("/api/universe");
    const text = await this.#read(res, SNAPSHOT_MAX);
    if (res.status !== 200) throw this.#error(res.status, text);
    return JSON.parse(text) as UniverseSnapshot;
  }

  /**
   * Which of `addresses` the universe lists: `POST /api/listed` (1,000 at a time) when
   * `GET /api/info` advertises it, else the whole snapshot (document 3's way).
   */
  async listedAmong(addresses: readonly string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const listed = await this.#listedPath();
    if (listed === undefined) {
      return new Set((await this.snapshot()).taus.map((t) => t.address));
    }
    const found = new Set<string>();
    for (let i = 0; i < addresses.length; i += listed.max) {
      const res = await this.#fetch(listed.path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ addresses: addresses.slice(i, i + listed.max) }),
      });
      const text = await this.#read(res, LISTED_MAX);
      if (res.status !== 200) throw this.#error(res.status, text);
      const body = JSON.parse(text) as { listed?: unknown };
      if (!Array.isArray(body.listed)) {
        throw new UniverseError(res.status, undefined, "the listed answer has no list");
      }
      for (const address of body.listed) if (typeof address === "string") found.add(address);
    }
    return found;
  }

  /** `POST /api/listed`'s path and limit when the universe advertises it. */
  async #listedPath(): Promise<{ path: string; max: number } | undefined> {
    const res = await this.#fetch("/api/info");
    const text = await this.#read(res, ANSWER_MAX);
    if (res.status !== 200) return undefined;
    let info: UniverseInfo;
    try {
      info = JSON.parse(text) as UniverseInfo;
    } catch {
      return undefined;
    }
    const path = info?.listed?.path;
    const max = Number(info?.listed?.max_addresses);
    if (typeof path !== "string" || !path.startsWith("/api/") || !(max >= 1)) return undefined;
    return { path, max: Math.min(Math.floor(max), 1_000) };
  }

  /** `GET /api/taus/<address>` for this agent; `undefined` when it is not listed. */
  async listing(): Promise<
    { name: string; online: boolean; links: { peer: string; messages: number }[] } | undefined
  > {
    const res = await this.#fetch(`/api/taus/${await this.#node.address()}`);
    const text = await this.#read(res, SNAPSHOT_MAX);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.#error(res.status, text);
    return JSON.parse(text);
  }

  async #send(
    kind: UniversePayload["kind"],
    fields: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const node = this.#node;
    const address = await node.address();
    for (let attempt = 0;; attempt++) {
      const profile = await node.state.profile();
      const ts = Math.max(node.nowSec(), (profile.universe_ts ?? 0) + 1);
      await node.state.setProfile({ ...profile, universe_ts: ts });
      const wire = await signUniverseRequest(
        { v: 1, kind, universe: this.host, address, ts, ...fields } as UniversePayload,
        node.identity,
      );
      const res = await this.#fetch(`/api/${kind}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(wire),
      });
      const text = await this.#read(res, ANSWER_MAX);
      if (res.status === 200) return JSON.parse(text);
      const error = this.#error(res.status, text);
      if (error.code !== "stale" || attempt >= STALE_RETRIES) throw error;
    }
  }

  async #fetch(path: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await this.#node.fetch(`${this.#base}${path}`, {
        ...init,
        redirect: "manual",
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      const detail = fullMessage(error);
      const code = await this.#plainHttp(detail) ? "not_https" : "unreachable";
      throw new UniverseError(0, code, `${this.host} does not answer: ${detail}`, {
        reason: detail,
      });
    }
  }

  /**
   * Whether an https request failed because the universe speaks plain http: the TLS
   * client says so, or (a server that stays silent on a TLS hello) a plain http request
   * to the same host gets an answer. Never asked when the connection was refused.
   */
  async #plainHttp(detail: string): Promise<boolean> {
    if (!this.#base.startsWith("https:")) return false;
    if (PLAIN_HTTP_ANSWER.test(detail)) return true;
    if (/refused|dns|name or service|not known/i.test(detail)) return false;
    try {
      const res = await this.#node.fetch(`http://${this.host}/`, {
        redirect: "manual",
        signal: AbortSignal.timeout(3_000),
      });
      await res.body?.cancel();
      return true;
    } catch {
      return false;
    }
  }

  async #read(res: Response, max: number): Promise<string> {
    if (res.body === null) return "";
    const bytes = await readLimited(res.body, max, { drainBytes: 0 });
    if (bytes === undefined) {
      throw new UniverseError(res.status, undefined, "the answer is too large");
    }
    return new TextDecoder().decode(bytes);
  }

  #error(status: number, text: string): UniverseError {
    let code: string | undefined;
    let detail = `HTTP ${status}`;
    try {
      const body = JSON.parse(text);
      if (typeof body?.error === "string") {
        code = body.error;
        detail = typeof body.detail === "string" ? `${body.error}: ${body.detail}` : body.error;
      }
    } catch { /* not JSON */ }
    return new UniverseError(status, code, detail);
  }
}

/**
 * The links a report lists: accepted contacts that the universe lists, with the message
 * envelopes exchanged both ways; none when links are off (`--no-links` or
 * `[net] universe_links = false`). `listed` answers which addresses are listed
 * ({@linkcode UniverseClient.listedAmong}); it is not asked when links are off.
 */
export async function reportLinks(
  node: NetNode,
  listed: (addresses: string[]) => Promise<ReadonlySet<string>>,
): Promise<UniverseLink[]> {
  const profile = await node.state.profile();
  const on = profile.universe_links ?? node.config.net.universe_links;
  if (!on) return [];
  const accepted = (await node.state.contacts()).filter((c) => c.state === "accepted");
  const known = await listed(accepted.map((c) => c.address));
  const counts = (await node.state.counts()).peers;
  return accepted
    .filter((c) => known.has(c.address))
    .slice(0, 500)
    .map((c) => ({
      peer: c.address,
      messages: (counts[c.address]?.in ?? 0) + (counts[c.address]?.out ?? 0),
    }));
}

/** The public sub-agents a report lists (at most 20; private ones never leave the hub). */
export async function publicSubs(subs: SubAgentDirectory | undefined): Promise<UniverseSub[]> {
  if (subs === undefined) return [];
  return reportSubs(await subs.public_subs());
}

/** Joins (when asked) and reports once: what `join` and each reporter round do. */
export async function joinAndReport(
  client: UniverseClient,
  node: NetNode,
  subs: SubAgentDirectory | undefined,
  options: { join?: boolean } = {},
): Promise<{ url: string | undefined; visibleLinks: number }> {
  const profile = await node.state.profile();
  let url: string | undefined;
  if (options.join) {
    url = await client.join(profile.universe_owner ?? "", profile.universe_about ?? "");
  }
  const send = async () =>
    await client.report(
      await reportLinks(node, (addresses) => client.listedAmong(addresses)),
      await publicSubs(subs),
    );
  let visibleLinks: number;
  try {
    visibleLinks = await send();
  } catch (error) {
    // Forgotten by the universe (expired, say) while the profile says joined: join again.
    if (!(error instanceof UniverseError) || error.code !== "not_joined") throw error;
    url = await client.join(profile.universe_owner ?? "", profile.universe_about ?? "");
    visibleLinks = await send();
  }
  return { url, visibleLinks };
}

/** The `net.universe` block of `/status`. */
export interface UniverseStatus {
  /** The universe's host, or `off`. */
  setting: string;
  /** Whether the profile says this agent is listed. */
  joined: boolean;
  last_report_at: string | null;
  /** `ok`, or the error's code. */
  last_result: string | null;
  visible_links: number | null;
  next_report_at: string | null;
  last_error: string | null;
}

/** Options for {@linkcode UniverseReporter}. */
export interface UniverseReporterOptions {
  node: NetNode | undefined;
  subs: SubAgentDirectory | undefined;
  /** @default setTimeout-based waiting */
  now?: () => number;
}

/** The hub's reporter: at start, then every `universe_report_minutes`. */
export class UniverseReporter {
  #o: UniverseReporterOptions;
  #status: UniverseStatus;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;

  /** Makes the reporter; {@linkcode start} runs the first round. */
  constructor(options: UniverseReporterOptions) {
    this.#o = options;
    const host = options.node?.config.net.universe.trim() ?? "";
    this.#status = {
      setting: host === "" ? "off" : host,
      joined: false,
      last_report_at: null,
      last_result: null,
      visible_links: null,
      next_report_at: null,
      last_error: null,
    };
  }

  /** The `net.universe` block. */
  status(): UniverseStatus {
    return { ...this.#status };
  }

  /** Runs a round now and schedules the next ones. */
  start(): void {
    if (this.#status.setting === "off" || this.#o.node === undefined) return;
    this.#running = this.#round();
  }

  /**
   * Reads the profile again after a join, a leave or a links change made while the hub
   * runs (the dashboard's): `/status` says joined or not at once, not at the next round.
   * The act reported to the universe itself, so this sends nothing (the universe counts
   * reports per hour).
   */
  async refresh(): Promise<void> {
    if (this.#o.node === undefined) return;
    this.#status.joined = (await this.#o.node.state.profile()).universe_join === true;
  }

  /** Stops scheduling; waits for a round in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async #round(): Promise<void> {
    const node = this.#o.node!;
    try {
      const profile = await node.state.profile();
      this.#status.joined = profile.universe_join === true;
      if (profile.universe_join === true) {
        const client = new UniverseClient(node, node.config.net.universe);
        const { visibleLinks } = await joinAndReport(client, node, this.#o.subs);
        this.#status.visible_links = visibleLinks;
        this.#status.last_result = "ok";
        this.#status.last_error = null;
        this.#status.last_report_at = new Date().toISOString();
      }
    } catch (error) {
      this.#status.last_result = error instanceof UniverseError
        ? error.code ?? "error"
        : error instanceof OwnSpineError
        ? "own_spine"
        : "error";
      this.#status.last_error = errorMessage(error);
      node.logger.warn(`universe: the report failed: ${errorMessage(error)}`);
    }
    if (this.#stopped) return;
    const ms = node.config.net.universe_report_minutes * 60_000;
    this.#status.next_report_at = new Date(Date.now() + ms).toISOString();
    this.#timer = setTimeout(() => {
      this.#running = this.#round();
    }, ms);
  }
}
