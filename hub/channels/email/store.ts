/**
 * What the e-mail channel must not forget: every mail it took (by Message-ID, and by
 * folder, `UIDVALIDITY` and UID), what became of it, and the answers waiting to be
 * sent. `<data>/email.sqlite3` (0600, WAL).
 *
 * A mail is recorded before anything is done with it, and its answer is recorded (in
 * the outbox, with its final bytes and its derived Message-ID) in the same transaction
 * that marks the mail answered, before the first try to send it. So a restart, a crash
 * between the answer and its send, or the same mail delivered twice gives one answer:
 * a known Message-ID or UID is never taken again, a mail taken but not answered is
 * answered after a restart, an answer recorded but not sent is sent from the outbox.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { openPrivateDatabase } from "../../sqlite_file.ts";
import type { Refusal } from "./trust.ts";

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mails (
  message_id TEXT PRIMARY KEY,
  folder TEXT NOT NULL,
  uidvalidity INTEGER NOT NULL,
  uid INTEGER NOT NULL,
  sender TEXT,
  person TEXT,
  thread TEXT,
  subject TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL,
  reason TEXT,
  received_ms INTEGER NOT NULL,
  done_ms INTEGER,
  flagged INTEGER NOT NULL DEFAULT 0,
  told INTEGER NOT NULL DEFAULT 0,
  raw BLOB,
  UNIQUE (folder, uidvalidity, uid)
);
CREATE INDEX IF NOT EXISTS mails_sender ON mails (sender, received_ms);
CREATE INDEX IF NOT EXISTS mails_state ON mails (state);
CREATE TABLE IF NOT EXISTS threads (root TEXT PRIMARY KEY, sender TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
  id TEXT PRIMARY KEY,
  answers TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'answer',
  recipient TEXT NOT NULL,
  raw BLOB NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  first_ms INTEGER NOT NULL,
  next_ms INTEGER NOT NULL,
  last_error TEXT
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (state, next_ms);
CREATE TABLE IF NOT EXISTS watermarks (
  folder TEXT NOT NULL,
  uidvalidity INTEGER NOT NULL,
  uid INTEGER NOT NULL,
  PRIMARY KEY (folder, uidvalidity)
);
`;

/** An outbox row `o` that is pending with nothing pending before it for its recipient. */
const FIRST_PENDING = `o.state = 'pending' AND NOT EXISTS (SELECT 1 FROM outbox p
  WHERE p.state = 'pending' AND p.recipient = o.recipient AND p.rowid < o.rowid)`;

/** Where a mail is: taken (its turn runs or waits), refused, answered (in the outbox), sent. */
export type MailState = "taken" | "refused" | "answered" | "sent" | "undelivered";

/** A mail as the store records it when it is taken. */
export interface MailRow {
  messageId: string;
  folder: string;
  uidvalidity: number;
  uid: number;
  sender: string | null;
  person: string | null;
  thread: string | null;
  subject: string;
  state: "taken" | "refused";
  reason: Refusal | null;
  receivedMs: number;
  /** The mail's bytes, kept until it is answered (a refused mail's are not kept). */
  raw: Uint8Array | null;
}

/** An answer in the outbox. */
export interface OutboxRow {
  /** The answer's Message-ID. */
  id: string;
  /** The Message-ID of the mail it answers. */
  answers: string;
  recipient: string;
  /** The whole message (RFC 5322 bytes), exactly as it is sent each time. */
  raw: Uint8Array;
  attempts: number;
  firstMs: number;
  nextMs: number;
}

/** A mail taken and not answered yet. */
export interface TakenMail {
  messageId: string;
  sender: string;
  person: "owner" | `person:${string}`;
  /** The thread's root Message-ID, for the conversation key. */
  thread: string;
  raw: Uint8Array;
}

/** A refused mail not yet told to the owner. */
export interface RefusedRow {
  messageId: string;
  sender: string | null;
  reason: Refusal;
  receivedMs: number;
}

/** Counts for `/status`. */
export interface StoreCounts {
  answered: number;
  refused: number;
  outbox: number;
  undelivered: number;
}

/** The channel's SQLite store. */
export class MailStore {
  #db: DatabaseSync;
  #take: StatementSync;
  #known: StatementSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
    this.#take = db.prepare(
      `INSERT OR IGNORE INTO mails (message_id, folder, uidvalidity, uid, sender, person, thread,
         subject, state, reason, received_ms, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#known = db.prepare(
      "SELECT 1 FROM mails WHERE message_id = ? OR (folder = ? AND uidvalidity = ? AND uid = ?)",
    );
  }

  /** Opens (creates, 0600) the store at `file`. */
  static open(file: string): MailStore {
    const db = openPrivateDatabase(file, {
      synchronous: "FULL",
      setup(db) {
        db.exec(SCHEMA);
        db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)")
          .run(String(SCHEMA_VERSION));
      },
    });
    return new MailStore(db);
  }

  /** Closes the file. */
  close(): void {
    this.#db.close();
  }

  /** Whether a mail with this Message-ID, or at this place, was taken before. */
  known(messageId: string, folder: string, uidvalidity: number, uid: number): boolean {
    return this.#known.get(messageId, folder, uidvalidity, uid) !== undefined;
  }

  /** Records a mail once; `false` when its Message-ID or its place is known already. */
  take(row: MailRow): boolean {
    const result = this.#take.run(
      row.messageId,
      row.folder,
      row.uidvalidity,
      row.uid,
      row.sender,
      row.person,
      row.thread,
      row.subject,
      row.state,
      row.reason,
      row.receivedMs,
      row.raw,
    );
    return Number(result.changes) === 1;
  }

  /** The highest UID looked at in `folder` under `uidvalidity`, if any. */
  watermark(folder: string, uidvalidity: number): number | undefined {
    const row = this.#db.prepare("SELECT uid FROM watermarks WHERE folder = ? AND uidvalidity = ?")
      .get(folder, uidvalidity) as { uid: number } | undefined;
    return row?.uid;
  }

  /** Moves the watermark up to `uid` (never down). */
  setWatermark(folder: string, uidvalidity: number, uid: number): void {
    this.#db.prepare(
      `INSERT INTO watermarks (folder, uidvalidity, uid) VALUES (?, ?, ?)
       ON CONFLICT (folder, uidvalidity) DO UPDATE SET uid = MAX(uid, excluded.uid)`,
    ).run(folder, uidvalidity, uid);
  }

  /**
   * The sender a thread belongs to, set by its first mail: a later mail naming the same
   * root from someone else does not join that conversation.
   */
  threadOwner(root: string, sender: string): string {
    this.#db.prepare("INSERT OR IGNORE INTO threads (root, sender) VALUES (?, ?)").run(
      root,
      sender,
    );
    const row = this.#db.prepare("SELECT sender FROM threads WHERE root = ?").get(root) as {
      sender: string;
    };
    return row.sender;
  }

  /** Mails of `sender` taken to be answered since `sinceMs` (the hourly limit). */
  answeredSince(sender: string, sinceMs: number): number {
    const row = this.#db.prepare(
      `SELECT COUNT(*) AS n FROM mails WHERE sender = ? AND received_ms >= ?
         AND state IN ('taken', 'answered', 'sent', 'undelivered')`,
    ).get(sender, sinceMs) as { n: number };
    return Number(row.n);
  }

  /**
   * Mails taken whose answer is not recorded yet (also after a restart), in the order
   * they were taken: the mailbox watch takes them in UID order, one look at a time, so
   * the row order is the folder's. Not by `received_ms`: a clock set back (at a restart,
   * say) would put a later mail first.
   */
  unanswered(): TakenMail[] {
    return (this.#db.prepare(
      `SELECT message_id, sender, person, thread, raw FROM mails WHERE state = 'taken'
       ORDER BY rowid`,
    ).all() as Record<string, unknown>[]).map((r) => ({
      messageId: String(r.message_id),
      sender: String(r.sender),
      person: String(r.person) as TakenMail["person"],
      thread: String(r.thread),
      raw: r.raw as Uint8Array,
    }));
  }

  /**
   * Records a notice mail (an approval waits) in the outbox: once per `id`, sent before
   * the answer; the mail stays taken.
   */
  notice(row: Omit<OutboxRow, "attempts" | "nextMs">): void {
    this.#db.prepare(
      `INSERT OR IGNORE INTO outbox (id, answers, kind, recipient, raw, state, first_ms, next_ms)
       VALUES (?, ?, 'notice', ?, ?, 'pending', ?, ?)`,
    ).run(row.id, row.answers, row.recipient, row.raw, row.firstMs, row.firstMs);
  }

  /** When the last mail came (taken or refused), epoch ms. */
  lastMailMs(): number | undefined {
    const row = this.#db.prepare("SELECT MAX(received_ms) AS ms FROM mails").get() as {
      ms: number | null;
    };
    return row.ms === null ? undefined : Number(row.ms);
  }

  /** A value kept across restarts (the digest's last time). */
  meta(key: string): string | undefined {
    const row = this.#db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  /** Sets a value kept across restarts. */
  setMeta(key: string, value: string): void {
    this.#db.prepare(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run(key, value);
  }

  /** Records the answer to `messageId` in the outbox and marks the mail answered, at once. */
  answered(messageId: string, answer: Omit<OutboxRow, "attempts" | "nextMs">): void {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      this.#db.prepare(
        `INSERT OR IGNORE INTO outbox (id, answers, recipient, raw, state, first_ms, next_ms)
         VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
      ).run(answer.id, messageId, answer.recipient, answer.raw, answer.firstMs, answer.firstMs);
      this.#db.prepare(
        `UPDATE mails SET state = 'answered', done_ms = ?, raw = NULL
         WHERE message_id = ? AND state = 'taken'`,
      ).run(answer.firstMs, messageId);
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  /**
   * Answers waiting to be sent whose time has come, in the order they were recorded: for
   * each recipient only the first one still pending, so a recipient gets their answers
   * in the order of their mails even when one waits for a retry (the later ones wait
   * behind it; another recipient's do not). Recorded order is the row order, not
   * `first_ms`: two answers recorded in one millisecond would go in the order of their
   * ids, which are hashes.
   */
  due(nowMs: number): OutboxRow[] {
    return (this.#db.prepare(
      `SELECT id, answers, recipient, raw, attempts, first_ms, next_ms FROM outbox o
       WHERE ${FIRST_PENDING} AND o.next_ms <= ? ORDER BY o.rowid`,
    ).all(nowMs) as Record<string, unknown>[]).map((r) => ({
      id: String(r.id),
      answers: String(r.answers),
      recipient: String(r.recipient),
      raw: r.raw as Uint8Array,
      attempts: Number(r.attempts),
      firstMs: Number(r.first_ms),
      nextMs: Number(r.next_ms),
    }));
  }

  /** When the next pending answer that may go is due, if one waits. */
  nextDue(): number | undefined {
    const row = this.#db.prepare(
      `SELECT MIN(next_ms) AS ms FROM outbox o WHERE ${FIRST_PENDING}`,
    ).get() as { ms: number | null };
    return row.ms === null ? undefined : Number(row.ms);
  }

  /** The answer `id` reached the server. */
  sent(id: string, nowMs: number): void {
    this.#finish(id, "sent", nowMs, null);
  }

  /** The answer `id` was given up on (after a day of tries). */
  undelivered(id: string, nowMs: number, error: string): void {
    this.#finish(id, "undelivered", nowMs, error);
  }

  /** A try of `id` failed: tried again at `nextMs`. */
  retry(id: string, attempts: number, nextMs: number, error: string): void {
    this.#db.prepare("UPDATE outbox SET attempts = ?, next_ms = ?, last_error = ? WHERE id = ?")
      .run(attempts, nextMs, error, id);
  }

  #finish(id: string, state: "sent" | "undelivered", nowMs: number, error: string | null): void {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const row = this.#db.prepare("SELECT answers, kind FROM outbox WHERE id = ?").get(id) as
        | { answers: string; kind: string }
        | undefined;
      this.#db.prepare("UPDATE outbox SET state = ?, last_error = ? WHERE id = ?")
        .run(state, error, id);
      // A notice (an approval waits) says nothing of the answer's fate.
      if (row !== undefined && row.kind === "answer") {
        this.#db.prepare("UPDATE mails SET state = ?, done_ms = ? WHERE message_id = ?")
          .run(state, nowMs, row.answers);
      }
      this.#db.exec("COMMIT");
    } catch (e) {
      this.#db.exec("ROLLBACK");
      throw e;
    }
  }

  /** Answered mails in `folder` under `uidvalidity` not yet flagged `\Seen` (or moved). */
  unflagged(folder: string, uidvalidity: number): { messageId: string; uid: number }[] {
    return (this.#db.prepare(
      `SELECT message_id, uid FROM mails WHERE folder = ? AND uidvalidity = ? AND flagged = 0
         AND state IN ('answered', 'sent', 'undelivered') ORDER BY uid`,
    ).all(folder, uidvalidity) as { message_id: string; uid: number }[])
      .map((r) => ({ messageId: r.message_id, uid: Number(r.uid) }));
  }

  /** The mails were flagged (and moved). */
  flagged(messageIds: readonly string[]): void {
    const update = this.#db.prepare("UPDATE mails SET flagged = 1 WHERE message_id = ?");
    for (const id of messageIds) update.run(id);
  }

  /** Refused mails the owner has not been told of, oldest first. */
  untold(): RefusedRow[] {
    return (this.#db.prepare(
      `SELECT message_id, sender, reason, received_ms FROM mails
       WHERE state = 'refused' AND told = 0 ORDER BY received_ms`,
    ).all() as Record<string, unknown>[]).map((r) => ({
      messageId: String(r.message_id),
      sender: r.sender === null ? null : String(r.sender),
      reason: String(r.reason) as Refusal,
      receivedMs: Number(r.received_ms),
    }));
  }

  /** The owner was told of these refused mails. */
  told(messageIds: readonly string[]): void {
    const update = this.#db.prepare("UPDATE mails SET told = 1 WHERE message_id = ?");
    for (const id of messageIds) update.run(id);
  }

  /** How many mails are answered, refused, waiting in the outbox and undelivered. */
  counts(): StoreCounts {
    const rows = this.#db.prepare("SELECT state, COUNT(*) AS n FROM mails GROUP BY state")
      .all() as { state: string; n: number }[];
    const n = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
    return {
      answered: n("sent") + n("answered"),
      refused: n("refused"),
      outbox: n("answered"),
      undelivered: n("undelivered"),
    };
  }
}
