/**
 * The index the dashboard's session search reads (`GET /dashboard/api/sessions?q=`), so
 * a search no longer reads every message of the 200 latest sessions on each request.
 * It is an FTS5 table (trigram: any substring of three characters or more, case folded)
 * in `<data>/session_search.sqlite3` (0600, WAL), kept as sessions are written: every
 * session store `openSessionStore()` opens records each message it writes (the terminal
 * chat, the TUI and the jobs write from their own processes, so the file is shared).
 * What was written without it (older sessions, another machine's brain) is caught up when
 * a search finds a session whose message count differs from the indexed one: that
 * session alone is read again.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { openPrivateDatabase } from "../sqlite_file.ts";

/**
 * The agent whose messages are searched: the main one (`MAIN_AGENT_ID` of
 * `hub/agent/agent.ts`; a test holds them equal). A sub-agent's messages count toward
 * the session's total but are not searched, as its transcript does not show them.
 */
export const SEARCHED_AGENT = "main";

/** The index file's name in the data folder. */
export const SESSION_SEARCH_FILE = "session_search.sqlite3";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS indexed (
  session_id TEXT PRIMARY KEY,
  messages INTEGER NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS said USING fts5(
  session_id UNINDEXED,
  message_id UNINDEXED,
  body,
  tokenize = 'trigram'
);
`;

/** One searched message of a session: its id and its text. */
export interface SearchedMessage {
  id: number;
  text: string;
}

/**
 * Reads a session's searched messages again (from its store, which knows the stored
 * format: `searchedMessages()` of `hub/sessions/indexed.ts`).
 */
export type MessageSource = (sessionId: string) => Promise<SearchedMessage[]>;

/** A session as a listing gives it: its id and how many messages it has over every agent. */
export interface ListedSession {
  session_id: string;
  message_count: number;
}

/** The search index over one data folder's sessions. */
export class SessionSearchIndex {
  #db: DatabaseSync;
  #count: StatementSync;
  #setCount: StatementSync;
  #forget: StatementSync;
  #forgetMessage: StatementSync;
  #insert: StatementSync;
  #bump: StatementSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
    this.#count = db.prepare("SELECT messages FROM indexed WHERE session_id = ?");
    this.#setCount = db.prepare(
      "INSERT INTO indexed (session_id, messages) VALUES (?, ?) " +
        "ON CONFLICT (session_id) DO UPDATE SET messages = excluded.messages",
    );
    this.#forget = db.prepare("DELETE FROM said WHERE session_id = ?");
    this.#forgetMessage = db.prepare("DELETE FROM said WHERE session_id = ? AND message_id = ?");
    this.#insert = db.prepare("INSERT INTO said (session_id, message_id, body) VALUES (?, ?, ?)");
    this.#bump = db.prepare(
      "UPDATE indexed SET messages = messages + 1 WHERE session_id = ?",
    );
  }

  /** Opens (and creates, mode 0600) the index at `file`. */
  static open(file: string): SessionSearchIndex {
    const db = openPrivateDatabase(file, {
      synchronous: "NORMAL",
      setup: (db) => db.exec(SCHEMA),
    });
    return new SessionSearchIndex(db);
  }

  /**
   * Records a message just created (`created`) or replaced. A created message of a
   * session the index knows adds one to its count; of one it does not, nothing is counted
   * (the next search reads that session whole).
   */
  record(
    sessionId: string,
    agentId: string,
    message: SearchedMessage,
    created: boolean,
  ): void {
    this.#write(() => {
      if (agentId === SEARCHED_AGENT) {
        this.#forgetMessage.run(sessionId, message.id);
        if (message.text !== "") this.#insert.run(sessionId, message.id, message.text);
      }
      if (created) this.#bump.run(sessionId);
    });
  }

  /**
   * Brings `sessions` up to date (reading again, from `source`, each whose message count
   * differs from the indexed one), then answers the ids among them whose text holds `q`
   * (case folded). `q` of fewer than three characters is matched without the trigram
   * index, over the indexed text.
   */
  async search(
    q: string,
    sessions: readonly ListedSession[],
    source: MessageSource,
  ): Promise<Set<string>> {
    const stale = sessions.filter((s) =>
      (this.#count.get(s.session_id) as { messages: number } | undefined)?.messages !==
        s.message_count
    );
    if (stale.length > 0) await this.#reindex(stale, source);
    const ids = sessions.map((s) => s.session_id);
    const found = new Set<string>();
    const wanted = q.trim();
    if (wanted === "" || ids.length === 0) return found;
    const placeholders = ids.map(() => "?").join(", ");
    if ([...wanted].length >= 3) {
      const rows = this.#db.prepare(
        `SELECT DISTINCT session_id FROM said WHERE said MATCH ? AND session_id IN (${placeholders})`,
      ).all(phrase(wanted), ...ids) as { session_id: string }[];
      for (const row of rows) found.add(row.session_id);
      return found;
    }
    const folded = wanted.toLowerCase();
    const rows = this.#db.prepare(
      `SELECT session_id, body FROM said WHERE session_id IN (${placeholders})`,
    ).all(...ids) as { session_id: string; body: string }[];
    for (const row of rows) if (row.body.toLowerCase().includes(folded)) found.add(row.session_id);
    return found;
  }

  /** Closes the file. */
  close(): void {
    this.#db.close();
  }

  /** Reads `stale` again from `source` and indexes them, in one transaction. */
  async #reindex(stale: readonly ListedSession[], source: MessageSource): Promise<void> {
    const read: { session: ListedSession; messages: SearchedMessage[] }[] = [];
    for (const session of stale) read.push({ session, messages: await source(session.session_id) });
    this.#write(() => {
      for (const { session, messages } of read) {
        this.#forget.run(session.session_id);
        for (const m of messages) {
          if (m.text !== "") this.#insert.run(session.session_id, m.id, m.text);
        }
        this.#setCount.run(session.session_id, session.message_count);
      }
    });
  }

  #write(work: () => void): void {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      work();
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }
}

/** `q` as one FTS5 phrase: a substring, whatever characters it holds. */
function phrase(q: string): string {
  return `"${q.replaceAll('"', '""')}"`;
}
