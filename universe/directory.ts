import type {
  DurableObject,
  DurableObjectState,
  SqlStorage,
} from "@cloudflare/workers-types/index.ts";
import type { UniverseLink, UniverseSub } from "@agent/net";
import { errorResponse, HttpError, json } from "@agent/net";
import type { Env } from "./env.ts";
import { cleanText } from "@agent/net";
import { directoryMapRoute } from "./map/routes.ts";
import { indexMapAgent, pruneMapIndex } from "./map/store.ts";

/**
 * The directory's schema version, kept in `meta`. 1: agents, links, replay and rate
 * rows; 2: the agents' public sub-agents (a JSON column).
 */
export const DIRECTORY_SCHEMA_VERSION = 2;

/** Accepted requests per address per hour. */
export const HOURLY_PER_ADDRESS = 30;

/** An agent not seen for this long is removed by the cron (seconds). */
export const EXPIRY_SECONDS = 30 * 86_400;

/** "Online" means seen within this window (seconds). */
export const ONLINE_SECONDS = 2 * 3_600;

/** A cached snapshot is rebuilt after this long even without a write (seconds). */
export const SNAPSHOT_MAX_AGE_SECONDS = 60;

/** A request that passed the web layer's checks, for the directory to apply. */
export interface AcceptedRequest {
  kind: "join" | "report" | "leave";
  address: string;
  ts: number;
  /** The card's name (cleaned here; the address when nothing is left). */
  name: string;
  sign_key: string;
  owner?: string;
  about?: string;
  links?: UniverseLink[];
  subs?: UniverseSub[];
  /** The directory's clock, Unix seconds. */
  now: number;
}

/** What applying a request gives: the answer's status and body. */
export interface ApplyResult {
  status: number;
  body: Record<string, unknown>;
}

/** One agent of the public snapshot. */
export interface SnapshotTau {
  address: string;
  name: string;
  owner: string;
  about: string;
  joined_at: number;
  last_seen: number;
  online: boolean;
  subs: UniverseSub[];
}

/** The public snapshot (`GET /api/universe`). */
export interface Snapshot {
  universe: string;
  generated_at: number;
  stats: { taus: number; online: number; messages: number };
  taus: SnapshotTau[];
  links: { a: string; b: string; messages: number }[];
}

type Row = Record<string, unknown>;

/**
 * The Directory Durable Object (one instance, named `directory`): agents, their
 * reported links, the replay and rate-limit rows, in its own SQLite storage. Every
 * accepted request runs its checks and effect in one transaction. The snapshot is
 * built once and kept until a write (or a minute) makes it old. Reached through
 * {@linkcode DirectoryClient} with small internal HTTP requests.
 */
export class Directory implements DurableObject {
  #state: DurableObjectState;
  #sql: SqlStorage;
  #snapshot: { host: string; at: number; json: string } | undefined;

  constructor(state: DurableObjectState, _env: Env) {
    this.#state = state;
    this.#sql = state.storage.sql;
    this.#migrate();
  }

  #migrate(): void {
    this.#sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value)");
    const version = Number(
      this.#one("SELECT value FROM meta WHERE key = 'schema_version'")?.value ?? 0,
    );
    if (version >= DIRECTORY_SCHEMA_VERSION) return;
    this.#state.storage.transactionSync(() => {
      if (version < 1) {
        this.#sql.exec(`
          CREATE TABLE IF NOT EXISTS agents (
            address TEXT PRIMARY KEY, name TEXT NOT NULL, sign_key TEXT NOT NULL,
            owner TEXT NOT NULL, about TEXT NOT NULL, joined_at INTEGER NOT NULL,
            last_seen INTEGER NOT NULL
          );
          CREATE TABLE IF NOT EXISTS links (
            a TEXT NOT NULL, b TEXT NOT NULL, messages INTEGER NOT NULL, PRIMARY KEY (a, b)
          ) WITHOUT ROWID;
          CREATE TABLE IF NOT EXISTS replay (address TEXT PRIMARY KEY, last_ts INTEGER NOT NULL);
          CREATE TABLE IF NOT EXISTS hits (address TEXT NOT NULL, at INTEGER NOT NULL);
          CREATE INDEX IF NOT EXISTS hits_address_at ON hits (address, at);
        `);
      }
      if (version < 2) {
        this.#sql.exec("ALTER TABLE agents ADD COLUMN subs TEXT NOT NULL DEFAULT '[]'");
      }
      this.#sql.exec(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
        DIRECTORY_SCHEMA_VERSION,
      );
    });
  }

  /** Internal routes: `POST /apply`, `GET /snapshot`, `GET /tau`, `POST /cron`, `GET /meta`. */
  async fetch(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      const now = Number(url.searchParams.get("now") ?? Math.floor(Date.now() / 1000));
      const host = url.searchParams.get("host") ?? "";
      switch (url.pathname) {
        case "/apply": {
          const accepted = await request.json() as AcceptedRequest;
          const result = this.apply(accepted);
          // The map's index follows every accepted write (universe/map/store.ts).
          if (result.status === 200) indexMapAgent(this.#sql, accepted.address);
          return json(result.body, result.status);
        }
        case "/snapshot":
          return new Response(this.snapshotJson(host, now), {
            headers: { "content-type": "application/json" },
          });
        case "/tau": {
          const tau = this.tau(host, url.searchParams.get("address") ?? "", now);
          return tau === undefined ? json({ error: "not_found" }, 404) : json(tau);
        }
        case "/cron": {
          const result = this.cron(now);
          if (result.expired > 0) pruneMapIndex(this.#sql);
          return json(result);
        }
        case "/meta":
          return json({
            schema_version: Number(
              this.#one("SELECT value FROM meta WHERE key = 'schema_version'")?.value,
            ),
          });
        default:
          if (url.pathname.startsWith("/map/")) return directoryMapRoute(this.#sql, url, now);
          throw new HttpError(404, "not_found");
      }
    } catch (error) {
      return errorResponse(error);
    }
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
    return this.#state.storage.transactionSync((): ApplyResult => {
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
      this.#snapshot = undefined;
      switch (r.kind) {
        case "join":
          return this.#join(r, joined);
        case "report":
          return this.#report(r);
        case "leave":
          this.#sql.exec("DELETE FROM agents WHERE address = ?", r.address);
          this.#sql.exec("DELETE FROM links WHERE a = ?", r.address);
          return { status: 200, body: { ok: true } };
      }
    });
  }

  #join(r: AcceptedRequest, joined: boolean): ApplyResult {
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
    return { status: 200, body: { ok: true } };
  }

  #report(r: AcceptedRequest): ApplyResult {
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
      if (this.#one("SELECT 1 AS x FROM agents WHERE address = ?", peer) === undefined) continue;
      this.#sql.exec(
        "INSERT INTO links (a, b, messages) VALUES (?, ?, ?)",
        r.address,
        peer,
        messages,
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
    const visible = Number(
      this.#one(
        "SELECT COUNT(*) AS n FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a WHERE l1.a = ?",
        r.address,
      )?.n ?? 0,
    );
    return { status: 200, body: { ok: true, visible_links: visible } };
  }

  /** The public snapshot as JSON text, from the cache while it is fresh. */
  snapshotJson(host: string, now: number): string {
    const cached = this.#snapshot;
    if (cached && cached.host === host && now - cached.at < SNAPSHOT_MAX_AGE_SECONDS) {
      return cached.json;
    }
    const snapshot = this.#build(host, now);
    const text = JSON.stringify(snapshot);
    this.#snapshot = { host, at: now, json: text };
    return text;
  }

  #build(host: string, now: number): Snapshot {
    const taus = this.#all(
      "SELECT address, name, owner, about, joined_at, last_seen, subs FROM agents ORDER BY joined_at, address",
    ).map((row) => this.#tau(row as Row, now));
    const links = this.#all(
      `SELECT l1.a AS a, l1.b AS b, MIN(l1.messages, l2.messages) AS messages
       FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a
       WHERE l1.a < l1.b ORDER BY l1.a, l1.b`,
    ).map((row) => ({
      a: String(row.a),
      b: String(row.b),
      messages: Number(row.messages),
    }));
    return {
      universe: host,
      generated_at: now,
      stats: {
        taus: taus.length,
        online: taus.filter((t) => t.online).length,
        messages: links.reduce((sum, l) => sum + l.messages, 0),
      },
      taus,
      links,
    };
  }

  #tau(row: Row, now: number): SnapshotTau {
    let subs: UniverseSub[] = [];
    try {
      subs = JSON.parse(String(row.subs ?? "[]"));
    } catch {
      subs = [];
    }
    const lastSeen = Number(row.last_seen);
    return {
      address: String(row.address),
      name: String(row.name),
      owner: String(row.owner),
      about: String(row.about),
      joined_at: Number(row.joined_at),
      last_seen: lastSeen,
      online: now - lastSeen <= ONLINE_SECONDS,
      subs,
    };
  }

  /** One agent's snapshot fields with its visible links, or `undefined`. */
  tau(
    _host: string,
    address: string,
    now: number,
  ): (SnapshotTau & { links: { peer: string; messages: number }[] }) | undefined {
    const row = this.#one(
      "SELECT address, name, owner, about, joined_at, last_seen, subs FROM agents WHERE address = ?",
      address,
    );
    if (row === undefined) return undefined;
    const links = this.#all(
      `SELECT l1.b AS peer, MIN(l1.messages, l2.messages) AS messages
       FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a
       WHERE l1.a = ? ORDER BY l1.b`,
      address,
    ).map((r) => ({ peer: String(r.peer), messages: Number(r.messages) }));
    return { ...this.#tau(row, now), links };
  }

  /** The hourly cron: expired agents with their links, old rate and replay rows. */
  cron(now: number): { expired: number; pruned: number } {
    return this.#state.storage.transactionSync(() => {
      const expired = this.#all(
        "SELECT address FROM agents WHERE last_seen < ?",
        now - EXPIRY_SECONDS,
      ).map((r) => String(r.address));
      for (const address of expired) {
        this.#sql.exec("DELETE FROM agents WHERE address = ?", address);
        this.#sql.exec("DELETE FROM links WHERE a = ?", address);
      }
      const pruned = this.#sql.exec("DELETE FROM hits WHERE at <= ?", now - 3_600).rowsWritten;
      // A request's ts must be within 300 s of the clock, so older replay rows guard
      // against nothing.
      this.#sql.exec("DELETE FROM replay WHERE last_ts < ?", now - 86_400);
      if (expired.length > 0) this.#snapshot = undefined;
      return { expired: expired.length, pruned };
    });
  }

  #all(query: string, ...params: unknown[]): Row[] {
    return this.#sql.exec(query, ...params).toArray() as Row[];
  }

  #one(query: string, ...params: unknown[]): Row | undefined {
    return this.#all(query, ...params)[0] as Row | undefined;
  }
}
