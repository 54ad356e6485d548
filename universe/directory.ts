import type {
  DurableObject,
  DurableObjectState,
  R2Bucket,
  SqlStorage,
} from "@cloudflare/workers-types/index.ts";
import { cleanText, errorResponse, HttpError, json } from "@agent/net";
import { configuredHost, type Env } from "./env.ts";
import { directoryMapRoute } from "./map/routes.ts";
import { arrangeMapIndex, indexMapAgent, pruneMapIndex } from "./map/store.ts";
import { type BuildResult, buildSnapshot, ONLINE_SECONDS, tauOf } from "./snapshot_build.ts";
import { DIRECTORY_SCHEMA_VERSION, migrateDirectory } from "./directory_schema.ts";
import type {
  AcceptedRequest,
  ApplyResult,
  DirectoryChange,
  SnapshotTau,
} from "./directory_types.ts";

export { DIRECTORY_SCHEMA_VERSION, ONLINE_SECONDS };
export type {
  AcceptedRequest,
  ApplyResult,
  DirectoryChange,
  Snapshot,
  SnapshotTau,
} from "./directory_types.ts";

/** Accepted requests per address per hour. */
export const HOURLY_PER_ADDRESS = 30;

/** An agent not seen for this long is removed by the cron (seconds). */
export const EXPIRY_SECONDS = 30 * 86_400;

/** The snapshot is rebuilt at most this often, and this long after a write (seconds). */
export const SNAPSHOT_MAX_AGE_SECONDS = 60;

/** Rows the cron deletes per transaction (writes run between batches). */
const CRON_BATCH = 1_000;

type Row = Record<string, unknown>;

/** One of an agent's visible links: the peer, its name and state, the messages. */
export interface TauLink {
  peer: string;
  messages: number;
  name: string;
  online: boolean;
}

/**
 * The Directory Durable Object (one instance, named `directory`): agents, their
 * reported links, the replay and rate-limit rows, in its own SQLite storage. Every
 * accepted request runs its checks and effect in one transaction, in O(its links). The
 * public snapshot is not built here on a request: a write schedules the object's alarm
 * (at most one build per {@linkcode SNAPSHOT_MAX_AGE_SECONDS}), which streams it into
 * R2 for `GET /api/universe`. Reached through {@linkcode DirectoryClient} with small
 * internal HTTP requests.
 */
export class Directory implements DurableObject {
  #state: DurableObjectState;
  #sql: SqlStorage;
  #bucket: R2Bucket;
  #rebuildMs: number;
  /** The host the stored snapshot names: `UNIVERSE`, or `""` (each reader's own). */
  #host: string;
  /** When the last build began (epoch ms). */
  #lastBuildMs: number;
  /** The alarm this instance set and has not seen fire, epoch ms. */
  #alarmAt: number | undefined;
  #building: Promise<BuildResult> | undefined;

  constructor(state: DurableObjectState, env: Env) {
    this.#state = state;
    this.#sql = state.storage.sql;
    this.#bucket = env.SNAPSHOTS;
    const seconds = Number(env.SNAPSHOT_REBUILD_SECONDS);
    this.#rebuildMs =
      (Number.isFinite(seconds) && seconds > 0 ? seconds : SNAPSHOT_MAX_AGE_SECONDS) *
      1000;
    migrateDirectory(state.storage);
    this.#host = configuredHost(env);
    this.#lastBuildMs = Number(this.#meta("last_build_ms") ?? 0);
  }

  /**
   * Internal routes: `POST /apply` (and `/apply-batch` for seeding), `GET /tau`, `POST /listed`, `POST /build`,
   * `POST /poke`, `POST /cron`, `GET /meta`.
   */
  async fetch(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      const now = Number(url.searchParams.get("now") ?? Math.floor(Date.now() / 1000));
      switch (url.pathname) {
        case "/apply": {
          const accepted = await request.json() as AcceptedRequest;
          const result = this.apply(accepted);
          // The map's index follows every accepted write (universe/map/store.ts).
          if (result.status === 200) indexMapAgent(this.#sql, accepted.address);
          return json(result.body, result.status);
        }
        case "/apply-batch": {
          // Seeding only (benchmarks and tests): many accepted requests in one call, each
          // through apply() and its own transaction, as one by one.
          const requests = await request.json() as AcceptedRequest[];
          return json({
            statuses: requests.map((r) => {
              const status = this.apply(r).status;
              if (status === 200) indexMapAgent(this.#sql, r.address);
              return status;
            }),
          });
        }
        case "/tau": {
          const tau = this.tau(url.searchParams.get("address") ?? "", now);
          return tau === undefined ? json({ error: "not_found" }, 404) : json(tau);
        }
        case "/listed": {
          const body = await request.json() as { addresses: string[] };
          return json({ listed: this.listed(body.addresses) });
        }
        case "/build":
          return json(await this.build(now));
        case "/poke":
          this.#scheduleBuild();
          return json({ ok: true });
        case "/cron": {
          const result = await this.cron(now);
          if (result.expired > 0) pruneMapIndex(this.#sql);
          return json(result);
        }
        case "/meta":
          return json({
            schema_version: Number(this.#meta("schema_version")),
            messages: Number(this.#meta("messages") ?? 0),
            last_build_ms: this.#lastBuildMs,
          });
        default:
          if (url.pathname.startsWith("/map/")) return directoryMapRoute(this.#sql, url, now);
          throw new HttpError(404, "not_found");
      }
    } catch (error) {
      return errorResponse(error);
    }
  }

  /** The alarm a write (or a stale read) set: the snapshot is built into R2. */
  async alarm(): Promise<void> {
    this.#alarmAt = undefined;
    await this.build(Math.floor(Date.now() / 1000));
  }

  /** Builds the snapshot now (the alarm's work; one build at a time). */
  build(now: number): Promise<BuildResult> {
    this.#building ??= (async () => {
      try {
        this.#lastBuildMs = Date.now();
        this.#setMeta("last_build_ms", this.#lastBuildMs);
        const built = await buildSnapshot({
          sql: this.#sql,
          bucket: this.#bucket,
          host: this.#host,
          now,
          messages: Number(this.#meta("messages") ?? 0),
        });
        // The map's places follow the links at the same pace (universe/map/arrange.ts).
        arrangeMapIndex(this.#sql);
        return built;
      } finally {
        this.#building = undefined;
      }
    })();
    return this.#building;
  }

  /** Sets the alarm for the next build unless one is set: never sooner than a max-age after the last. */
  #scheduleBuild(): void {
    if (this.#alarmAt !== undefined) return;
    const at = Math.max(Date.now() + 1_000, this.#lastBuildMs + this.#rebuildMs);
    this.#alarmAt = at;
    void this.#state.storage.setAlarm(at);
  }

  /**
   * Replay, joined and rate checks, then the effect, in one transaction. Text is
   * cleaned here, whoever calls: no control or bidi character is ever stored.
   */
  apply(request: AcceptedRequest): ApplyResult {
    const r: AcceptedRequest = {
      ...request,
      name: cleanText(request.name, 80) || request.address,
      ...(request.owner !== undefined ? { owner: cleanText(request.owner, 60) } : {}),
      ...(request.about !== undefined ? { about: cleanText(request.about, 200) } : {}),
      ...(request.subs !== undefined
        ? { subs: request.subs.map((s) => ({ name: s.name, about: cleanText(s.about, 200) })) }
        : {}),
    };
    const result = this.#state.storage.transactionSync((): ApplyResult => {
      const last = this.#one("SELECT last_ts FROM replay WHERE address = ?", r.address);
      if (last !== undefined && r.ts <= Number(last.last_ts)) {
        return { status: 400, body: { error: "stale" } };
      }
      const joined = this.#one("SELECT 1 AS x FROM agents WHERE address = ?", r.address) !==
        undefined;
      if (r.kind !== "join" && !joined) return { status: 404, body: { error: "not_joined" } };
      const hits = Number(
        this.#one(
          "SELECT COUNT(*) AS n FROM hits WHERE address = ? AND at > ?",
          r.address,
          r.now - 3_600,
        )?.n ?? 0,
      );
      if (hits >= HOURLY_PER_ADDRESS) return { status: 429, body: { error: "rate_limited" } };
      this.#sql.exec("INSERT INTO hits (address, at) VALUES (?, ?)", r.address, r.now);
      this.#sql.exec(
        "INSERT INTO replay (address, last_ts) VALUES (?, ?) ON CONFLICT (address) DO UPDATE SET last_ts = excluded.last_ts",
        r.address,
        r.ts,
      );
      return this.#write(
        r.kind === "join"
          ? { kind: "join", request: r, joined }
          : r.kind === "report"
          ? { kind: "report", request: r }
          : { kind: "leave", address: r.address },
      );
    });
    if (result.status === 200) this.#scheduleBuild();
    return result;
  }

  /**
   * The one write path: every change to agents and links (join, report, leave and the
   * cron's expiry) goes through here, inside the caller's transaction, in O(the
   * agent's links). It keeps the visible-link message sum (`stats.messages`) current.
   * Anything else derived from agents and links (an index for the map, say) is kept
   * up to date here, at the end.
   */
  #write(change: DirectoryChange): ApplyResult {
    let result: ApplyResult = { status: 200, body: { ok: true } };
    switch (change.kind) {
      case "join":
        this.#join(change.request, change.joined);
        break;
      case "report": {
        const before = this.#visible(change.request.address).sum;
        const { sum, ...answer } = this.#report(change.request);
        result = answer;
        this.#addMessages(sum - before);
        break;
      }
      case "leave":
      case "expire":
        this.#addMessages(-this.#visible(change.address).sum);
        this.#sql.exec("DELETE FROM agents WHERE address = ?", change.address);
        this.#sql.exec("DELETE FROM links WHERE a = ?", change.address);
        break;
    }
    return result;
  }

  /** `address`'s visible links: how many, and the sum of their messages. */
  #visible(address: string): { links: number; sum: number } {
    const row = this.#one(
      `SELECT COUNT(*) AS n, COALESCE(SUM(MIN(l1.messages, l2.messages)), 0) AS sum
       FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a WHERE l1.a = ?`,
      address,
    );
    return { links: Number(row?.n ?? 0), sum: Number(row?.sum ?? 0) };
  }

  #addMessages(delta: number): void {
    if (delta === 0) return;
    this.#sql.exec(
      "UPDATE meta SET value = value + ? WHERE key = 'messages'",
      delta,
    );
  }

  #join(r: AcceptedRequest, joined: boolean): void {
    if (joined) {
      this.#sql.exec(
        "UPDATE agents SET name = ?, sign_key = ?, owner = ?, about = ?, last_seen = ? WHERE address = ?",
        r.name,
        r.sign_key,
        r.owner ?? "",
        r.about ?? "",
        r.ts,
        r.address,
      );
    } else {
      this.#sql.exec(
        "INSERT INTO agents (address, name, sign_key, owner, about, joined_at, last_seen, subs) VALUES (?, ?, ?, ?, ?, ?, ?, '[]')",
        r.address,
        r.name,
        r.sign_key,
        r.owner ?? "",
        r.about ?? "",
        r.ts,
        r.ts,
      );
    }
  }

  #report(r: AcceptedRequest): ApplyResult & { sum: number } {
    // A repeated peer keeps its last entry; a link to itself is ignored; only peers
    // joined at this moment are kept.
    const peers = new Map<string, number>();
    for (const link of r.links ?? []) {
      if (link.peer === r.address) continue;
      peers.delete(link.peer);
      peers.set(link.peer, link.messages);
    }
    this.#sql.exec("DELETE FROM links WHERE a = ?", r.address);
    for (const [peer, messages] of peers) {
      this.#sql.exec(
        `INSERT INTO links (a, b, messages)
         SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM agents WHERE address = ?)`,
        r.address,
        peer,
        messages,
        peer,
      );
    }
    const subs = new Map<string, string>();
    for (const sub of r.subs ?? []) {
      subs.delete(sub.name);
      subs.set(sub.name, sub.about);
    }
    const list = [...subs].map(([name, about]) => ({ name, about }))
      .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    this.#sql.exec(
      "UPDATE agents SET name = ?, last_seen = ?, subs = ? WHERE address = ?",
      r.name,
      r.ts,
      JSON.stringify(list),
      r.address,
    );
    const visible = this.#visible(r.address);
    return { status: 200, body: { ok: true, visible_links: visible.links }, sum: visible.sum };
  }

  #tau(row: Row, now: number): SnapshotTau {
    return tauOf(row, now);
  }

  /** One agent's snapshot fields with its visible links, or `undefined`. */
  tau(
    address: string,
    now: number,
  ): (SnapshotTau & { links: TauLink[] }) | undefined {
    const row = this.#one(
      "SELECT address, name, owner, about, joined_at, last_seen, subs FROM agents WHERE address = ?",
      address,
    );
    if (row === undefined) return undefined;
    // Each peer with its name and state: a map that has not drawn the peer (100,000
    // agents, zoomed in elsewhere) still names it and shows whether it is online.
    const links = this.#all(
      `SELECT l1.b AS peer, MIN(l1.messages, l2.messages) AS messages, a.name AS name,
              a.last_seen AS last_seen
       FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a
       LEFT JOIN agents a ON a.address = l1.b
       WHERE l1.a = ? ORDER BY l1.b`,
      address,
    ).map((r) => ({
      peer: String(r.peer),
      messages: Number(r.messages),
      name: r.name === null || r.name === undefined ? String(r.peer) : String(r.name),
      online: r.last_seen !== null && r.last_seen !== undefined &&
        now - Number(r.last_seen) <= ONLINE_SECONDS,
    }));
    return { ...this.#tau(row, now), links };
  }

  /** Which of `addresses` are listed, in the order asked, each once. */
  listed(addresses: readonly string[]): string[] {
    const found = new Set(
      this.#all(
        "SELECT address FROM agents WHERE address IN (SELECT value FROM json_each(?))",
        JSON.stringify(addresses),
      ).map((row) => String(row.address)),
    );
    return [...new Set(addresses)].filter((address) => found.has(address));
  }

  /**
   * The hourly cron: expired agents with their links (through the write path), old
   * rate and replay rows, in small transactions so that requests run in between.
   */
  async cron(now: number): Promise<{ expired: number; pruned: number }> {
    let expired = 0;
    for (;;) {
      const batch = this.#state.storage.transactionSync(() => {
        const addresses = this.#all(
          "SELECT address FROM agents WHERE last_seen < ? LIMIT ?",
          now - EXPIRY_SECONDS,
          CRON_BATCH,
        ).map((r) => String(r.address));
        for (const address of addresses) this.#write({ kind: "expire", address });
        return addresses.length;
      });
      expired += batch;
      if (batch < CRON_BATCH) break;
      await yieldToRequests();
    }
    // Rows are appended in time order, so each batch finds its old rows at the start.
    let pruned = 0;
    for (;;) {
      const batch = this.#sql.exec(
        "DELETE FROM hits WHERE rowid IN (SELECT rowid FROM hits WHERE at <= ? LIMIT ?)",
        now - 3_600,
        CRON_BATCH * 10,
      ).rowsWritten;
      pruned += batch;
      if (batch < CRON_BATCH * 10) break;
      await yieldToRequests();
    }
    // A request's ts must be within 300 s of the clock, so older replay rows guard
    // against nothing.
    this.#sql.exec("DELETE FROM replay WHERE last_ts < ?", now - 86_400);
    if (expired > 0) this.#scheduleBuild();
    return { expired, pruned };
  }

  #meta(key: string): unknown {
    return this.#one("SELECT value FROM meta WHERE key = ?", key)?.value;
  }

  #setMeta(key: string, value: unknown): void {
    this.#sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, value);
  }

  #all(query: string, ...params: unknown[]): Row[] {
    return this.#sql.exec(query, ...params).toArray() as Row[];
  }

  #one(query: string, ...params: unknown[]): Row | undefined {
    return this.#all(query, ...params)[0] as Row | undefined;
  }
}

function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
