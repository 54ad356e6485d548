import type {
  DurableObject,
  DurableObjectState,
  SqlStorage,
  WebSocket as EdgeWebSocket,
  WebSocketRequestResponsePair as EdgeAutoResponse,
} from "@cloudflare/workers-types/index.ts";
import type { Env } from "./env.ts";
import type { InboxItem, StoreResult } from "./inbox.ts";
import { errorResponse, HttpError, json } from "@agent/net";
import { parseAckBody, parseUpdatesQuery } from "./hub_query.ts";

// workerd globals that Deno's DOM types do not know.
declare const WebSocketPair: { new (): { 0: EdgeWebSocket; 1: EdgeWebSocket } };
declare const WebSocketRequestResponsePair: {
  new (request: string, response: string): EdgeAutoResponse;
};

/**
 * The Mailbox's schema version, kept in `meta`. 1: the tables; 2: no age index on
 * `seen` (every index costs a page write per stored envelope, and the once-a-minute
 * cleanup can afford a scan of one day's `seen` rows).
 */
export const MAILBOX_SCHEMA_VERSION = 2;

/** Undelivered envelopes the mailbox holds at most. */
export const MAILBOX_CAPACITY = 1_000;

/** Arrivals per sender per hour, counted from `seen`. */
export const HOURLY_PER_SENDER = 60;

/** Open doorbells at most; a fifth closes the oldest. */
export const MAX_DOORBELLS = 4;

/** Mailbox rows older than this are deleted by the cron (seconds). */
export const MAILBOX_RETENTION_SECONDS = 7 * 86_400;

/** `seen` rows older than this are deleted by the cron (seconds). */
export const SEEN_RETENTION_SECONDS = 86_400;

/** The card fields a hub publishes, as the Mailbox stores them. */
export interface StoredCard {
  /** Display name. */
  name: string;
  /** b64u Ed25519 public key. */
  sign_key: string;
  /** b64u X25519 public key. */
  box_key: string;
}

interface DoorbellTag {
  /** Connection number, to find the oldest. */
  n: number;
}

/**
 * The Mailbox Durable Object (one instance, named `hub`): `mailbox` and `seen` in its
 * own SQLite storage, the long poll and the doorbell. The Worker reaches it through
 * {@linkcode MailboxClient} with small internal HTTP requests. (RPC was measured on
 * workerd too: about a tenth more CPU per stored envelope than a JSON body, mostly in
 * serialising the envelope object.)
 */
export class Mailbox implements DurableObject {
  #state: DurableObjectState;
  #sql: SqlStorage;
  #waiters = new Set<() => void>();

  constructor(state: DurableObjectState, _env: Env) {
    this.#state = state;
    this.#sql = state.storage.sql;
    this.#migrate();
    // Answered by the runtime without waking the object.
    state.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  #migrate(): void {
    this.#sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value)");
    const version = Number(this.#meta("schema_version") ?? 0);
    if (version >= MAILBOX_SCHEMA_VERSION) return;
    this.#state.storage.transactionSync(() => {
      if (version < 1) this.#createTables();
      if (version < 2) this.#sql.exec("DROP INDEX IF EXISTS seen_by_age");
      this.#setMeta("schema_version", MAILBOX_SCHEMA_VERSION);
    });
  }

  #createTables(): void {
    this.#sql.exec(`CREATE TABLE IF NOT EXISTS mailbox (
      seq INTEGER PRIMARY KEY,
      sender TEXT NOT NULL,
      id TEXT NOT NULL,
      received_at INTEGER NOT NULL,
      envelope TEXT NOT NULL)`);
    this.#sql.exec(`CREATE TABLE IF NOT EXISTS seen (
      sender TEXT NOT NULL,
      id TEXT NOT NULL,
      ts INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      PRIMARY KEY (sender, id)) WITHOUT ROWID`);
    // The duplicate check uses the primary key, the hourly count this index. The
    // cron's age cleanups scan: `mailbox` holds at most 1 000 rows and `seen` one day.
    this.#sql.exec("CREATE INDEX IF NOT EXISTS seen_by_sender ON seen (sender, received_at)");
    if (this.#meta("next_seq") === undefined) this.#setMeta("next_seq", 1);
    if (this.#meta("doorbells") === undefined) this.#setMeta("doorbells", 0);
  }

  #meta(key: string): string | number | undefined {
    const rows = this.#sql.exec<{ value: string | number }>(
      "SELECT value FROM meta WHERE key = ?",
      key,
    ).toArray();
    return rows[0]?.value;
  }

  #setMeta(key: string, value: string | number): void {
    this.#sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      value,
    );
  }

  // The depth is asked on every store; the object is single-threaded, so a cached count
  // stays right as long as every change to `mailbox` updates or drops it.
  #depthCache: number | undefined;
  // The next seq to hand out; only advanced after a committed store.
  #nextSeq: number | undefined;

  // A seq is never reused: every seq handed out is either still in `mailbox` or was
  // deleted by an ack or the cron, and those persist `meta.next_seq` past it in the same
  // transaction. So the next seq is the larger of `meta.next_seq` and max(seq) + 1, and
  // a store needs no write to `meta`.
  #seqToIssue(): number {
    if (this.#nextSeq === undefined) {
      const top = this.#sql.exec<{ top: number | null }>("SELECT max(seq) AS top FROM mailbox")
        .one().top;
      this.#nextSeq = Math.max(Number(this.#meta("next_seq") ?? 1), (top ?? 0) + 1);
    }
    return this.#nextSeq;
  }

  // Called inside the transaction of anything that deletes `mailbox` rows.
  #keepSeqFloor(): void {
    this.#setMeta("next_seq", this.#seqToIssue());
  }

  #depth(): number {
    const depth = this.#depthCache ??
      this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM mailbox").one().n;
    this.#depthCache = depth;
    return depth;
  }

  /**
   * The last three inbox checks and the store, in one step: `(from, id)` not seen,
   * fewer than 60 arrivals from `from` in the last hour, fewer than 1 000 undelivered;
   * then records `seen`, stores the envelope under the next seq, wakes long polls and
   * rings every doorbell.
   */
  store(item: InboxItem, nowMs: number): StoreResult {
    const now = Math.floor(nowMs / 1000);
    const result = this.#state.storage.transactionSync((): StoreResult => {
      const check = this.#sql.exec<{ dup: number; recent: number }>(
        `SELECT EXISTS (SELECT 1 FROM seen WHERE sender = ?1 AND id = ?2) AS dup,
          (SELECT count(*) FROM seen WHERE sender = ?1 AND received_at > ?3) AS recent`,
        item.from,
        item.id,
        now - 3_600,
      ).one();
      if (check.dup) return { status: "duplicate" };
      if (check.recent >= HOURLY_PER_SENDER) return { status: "rate_limited" };
      const depth = this.#depth();
      if (depth >= MAILBOX_CAPACITY) return { status: "mailbox_full" };
      const seq = this.#seqToIssue();
      this.#sql.exec(
        "INSERT INTO seen (sender, id, ts, received_at) VALUES (?, ?, ?, ?)",
        item.from,
        item.id,
        item.ts,
        now,
      );
      this.#sql.exec(
        "INSERT INTO mailbox (seq, sender, id, received_at, envelope) VALUES (?, ?, ?, ?, ?)",
        seq,
        item.from,
        item.id,
        now,
        JSON.stringify({ payload: item.envelope.payload, sig: item.envelope.sig }),
      );
      return { status: "queued", seq, depth: depth + 1 };
    });
    if (result.status === "queued") {
      this.#depthCache = result.depth;
      this.#nextSeq = result.seq + 1;
      this.#wake();
      this.#ring(result.depth);
    }
    return result;
  }

  #wake(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  #ring(depth: number): void {
    const message = JSON.stringify({ type: "mail", depth });
    for (const ws of this.#state.getWebSockets()) {
      try {
        ws.send(message);
      } catch {
        // A socket closing under us misses one hint; the hub's safety fetch covers it.
      }
    }
  }

  /** Updates as the JSON text of `{updates: [...]}`, seqs above `after`, oldest first. */
  #updatesText(after: number, limit: number): { text: string; count: number } {
    const rows = this.#sql.exec<{ seq: number; received_at: number; envelope: string }>(
      "SELECT seq, received_at, envelope FROM mailbox WHERE seq > ? ORDER BY seq LIMIT ?",
      after,
      limit,
    ).toArray();
    const parts = rows.map((r: { seq: number; received_at: number; envelope: string }) =>
      `{"seq":${r.seq},"received_at":${r.received_at},"envelope":${r.envelope}}`
    );
    return { text: `{"updates":[${parts.join(",")}]}`, count: rows.length };
  }

  /**
   * Answers `GET /hub/updates`. With `timeout` above 0 and nothing queued, waits inside
   * the object until an envelope is stored or the timeout passes, then queries again.
   * The first query and the wait's start happen without a gap, so an envelope stored
   * just before the wait is in the first query.
   */
  async updates(after: number, timeout: number, limit: number): Promise<string> {
    const first = this.#updatesText(after, limit);
    if (first.count > 0 || timeout === 0) return first.text;
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeout * 1000);
      this.#waiters.add(wake);
    });
    return this.#updatesText(after, limit).text;
  }

  /** Deletes the given seqs; returns how many rows were really deleted. */
  ack(seqs: number[]): number {
    this.#depthCache = undefined;
    return this.#state.storage.transactionSync(() => {
      this.#keepSeqFloor();
      // One statement for up to 1 000 seqs (the Worker passed them checked and distinct).
      return this.#sql.exec(
        "DELETE FROM mailbox WHERE seq IN (SELECT value FROM json_each(?))",
        JSON.stringify(seqs),
      ).rowsWritten;
    });
  }

  /** Whether a card is stored and how many envelopes wait. */
  status(): { card: StoredCard | null; mailbox: number } {
    const card = this.#meta("card");
    return { card: card === undefined ? null : JSON.parse(String(card)), mailbox: this.#depth() };
  }

  /** Stores the published card fields. */
  putCard(card: StoredCard): void {
    this.#setMeta(
      "card",
      JSON.stringify({ name: card.name, sign_key: card.sign_key, box_key: card.box_key }),
    );
  }

  /** The cron's cleanup: mailbox rows older than 7 days, seen rows older than 1 day. */
  prune(nowMs: number): { mailbox: number; seen: number } {
    const now = Math.floor(nowMs / 1000);
    this.#depthCache = undefined;
    return this.#state.storage.transactionSync(() => {
      this.#keepSeqFloor();
      return {
        mailbox: this.#sql.exec(
          "DELETE FROM mailbox WHERE received_at < ?",
          now - MAILBOX_RETENTION_SECONDS,
        ).rowsWritten,
        seen: this.#sql.exec(
          "DELETE FROM seen WHERE received_at < ?",
          now - SEEN_RETENTION_SECONDS,
        ).rowsWritten,
      };
    });
  }

  /** Accepts a doorbell: hibernating socket, `hello` with the depth, at most four open. */
  doorbell(): Response {
    const pair = new WebSocketPair();
    const client = pair[0];
    const server = pair[1];
    this.#state.acceptWebSocket(server);
    const n = Number(this.#meta("doorbells") ?? 0) + 1;
    this.#setMeta("doorbells", n);
    server.serializeAttachment({ n } satisfies DoorbellTag);
    server.send(JSON.stringify({ type: "hello", depth: this.#depth() }));
    const open = this.#state.getWebSockets()
      .filter((ws: EdgeWebSocket) => ws.readyState === 1)
      .sort((a: EdgeWebSocket, b: EdgeWebSocket) => tagOf(a) - tagOf(b));
    for (const ws of open.slice(0, Math.max(0, open.length - MAX_DOORBELLS))) {
      try {
        ws.close(1008, "too many doorbells");
      } catch {
        // Already closing.
      }
    }
    return new Response(null, { status: 101, webSocket: client } as ResponseInit);
  }

  /** Anything a hub sends besides `ping` is ignored. */
  webSocketMessage(_ws: EdgeWebSocket, _message: string | ArrayBuffer): void {}

  /** A broken doorbell needs nothing: the hub reconnects and its safety fetch covers the gap. */
  webSocketError(_ws: EdgeWebSocket, _error: unknown): void {}

  /** Completes the closing handshake the hub started. */
  webSocketClose(ws: EdgeWebSocket, code: number, reason: string): void {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }

  /** The Worker's calls, as small internal HTTP requests (see {@linkcode MailboxClient}). */
  async fetch(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      switch (url.pathname) {
        case "/store":
          return json(this.store((await request.json()) as InboxItem, Date.now()));
        case "/updates": {
          const q = parseUpdatesQuery(url.searchParams);
          return new Response(await this.updates(q.after, q.timeout, q.limit), {
            headers: { "content-type": "application/json; charset=utf-8" },
          });
        }
        case "/ack":
          return json({ deleted: this.ack(parseAckBody(await request.json())) });
        case "/status":
          return json(this.status());
        case "/card":
          this.putCard((await request.json()) as StoredCard);
          return json({ ok: true });
        case "/ws":
          return this.doorbell();
        case "/prune":
          return json(this.prune(Number(url.searchParams.get("now"))));
        default:
          throw new HttpError(404, "not_found");
      }
    } catch (error) {
      return errorResponse(error);
    }
  }
}

function tagOf(ws: EdgeWebSocket): number {
  const tag = ws.deserializeAttachment() as DoorbellTag | null;
  return tag?.n ?? 0;
}
