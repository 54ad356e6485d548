/**
 * The file session store under `<AGENT_DATA_DIR>/sessions`: one directory per session,
 * one JSON file per agent and per message, events as JSON lines. Every file write is
 * atomic (temp file, fsync, rename), so a crash never leaves a half-written record,
 * and two processes writing different messages never overwrite each other.
 *
 * ```
 * sessions/<sid>/session.json          {data, created_at, updated_at}
 * sessions/<sid>/meta.json             {...meta}
 * sessions/<sid>/events.jsonl          one event per line
 * sessions/<sid>/agents/<aid>/agent.json
 * sessions/<sid>/agents/<aid>/messages/<mid, 12 digits>.json
 * ```
 *
 * @module
 */
import { readJsonLines, readJsonTolerant, writeFileAtomic } from "../atomic_file.ts";
import {
  type CreateOutcome,
  implicitSessionData,
  isValidId,
  messageRange,
  type SessionStore,
  type SessionSummary,
} from "./store.ts";

interface SessionRecord {
  data: unknown;
  created_at: string;
  updated_at: string;
}

/** A {@linkcode SessionStore} on the local disk. */
export class FileSessionStore implements SessionStore {
  #dir: string;
  #now: () => number;

  /** A store in `dir` (created on first write, mode 0700). */
  constructor(dir: string, options: { now?: () => number } = {}) {
    this.#dir = dir;
    this.#now = options.now ?? Date.now;
  }

  /** The directory the store lives in. */
  get dir(): string {
    return this.#dir;
  }

  async createSession(sessionId: string, data: unknown): Promise<"created" | "exists"> {
    const file = this.#sessionFile(sessionId);
    if (await exists(file)) return "exists";
    const now = this.#iso();
    await writeJson(file, { data, created_at: now, updated_at: now } satisfies SessionRecord);
    return "created";
  }

  async listSessions(limit = 20): Promise<SessionSummary[]> {
    const max = Math.min(200, Math.max(1, Math.trunc(limit)));
    const out: SessionSummary[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(this.#dir)];
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isDirectory || !isValidId(entry.name)) continue;
      const record = await readJson<SessionRecord>(this.#sessionFile(entry.name));
      if (record === undefined) continue;
      out.push({
        session_id: entry.name,
        created_at: record.created_at,
        updated_at: record.updated_at,
        meta: await this.getMeta(entry.name),
        message_count: await this.#messageCount(entry.name),
      });
    }
    out.sort((a, b) =>
      b.updated_at.localeCompare(a.updated_at) || a.session_id.localeCompare(b.session_id)
    );
    return out.slice(0, max);
  }

  async getSession(sessionId: string): Promise<unknown | undefined> {
    return (await readJson<SessionRecord>(this.#sessionFile(sessionId)))?.data;
  }

  async patchMeta(
    sessionId: string,
    meta: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    await this.#ensureSession(sessionId);
    const merged = { ...(await this.getMeta(sessionId)), ...meta };
    await writeJson(`${this.#sessionDir(sessionId)}/meta.json`, merged);
    await this.#touch(sessionId);
    return merged;
  }

  async getMeta(sessionId: string): Promise<Record<string, unknown>> {
    const meta = await readJson<Record<string, unknown>>(
      `${this.#sessionDir(sessionId)}/meta.json`,
    );
    return meta !== undefined && typeof meta === "object" && meta !== null ? meta : {};
  }

  async createAgent(sessionId: string, agentId: string, data: unknown): Promise<CreateOutcome> {
    if (!(await exists(this.#sessionFile(sessionId)))) return "missing";
    const file = this.#agentFile(sessionId, agentId);
    if (await exists(file)) return "exists";
    await writeJson(file, data);
    await this.#touch(sessionId);
    return "created";
  }

  async getAgent(sessionId: string, agentId: string): Promise<unknown | undefined> {
    return await readJson(this.#agentFile(sessionId, agentId));
  }

  async putAgent(sessionId: string, agentId: string, data: unknown): Promise<boolean> {
    const file = this.#agentFile(sessionId, agentId);
    if (!(await exists(file))) return false;
    await writeJson(file, data);
    await this.#touch(sessionId);
    return true;
  }

  async createMessage(
    sessionId: string,
    agentId: string,
    messageId: number,
    data: unknown,
  ): Promise<CreateOutcome> {
    if (!(await exists(this.#agentFile(sessionId, agentId)))) return "missing";
    const file = this.#messageFile(sessionId, agentId, messageId);
    if (await exists(file)) return "exists";
    await writeJson(file, data);
    await this.#touch(sessionId);
    return "created";
  }

  async getMessage(
    sessionId: string,
    agentId: string,
    messageId: number,
  ): Promise<unknown | undefined> {
    return await readJson(this.#messageFile(sessionId, agentId, messageId));
  }

  async putMessage(
    sessionId: string,
    agentId: string,
    messageId: number,
    data: unknown,
  ): Promise<boolean> {
    const file = this.#messageFile(sessionId, agentId, messageId);
    if (!(await exists(file))) return false;
    await writeJson(file, data);
    await this.#touch(sessionId);
    return true;
  }

  async listMessages(
    sessionId: string,
    agentId: string,
    options: { offset?: number; limit?: number } = {},
  ): Promise<unknown[] | undefined> {
    if (!(await exists(this.#agentFile(sessionId, agentId)))) return undefined;
    const ids = this.#messageIds(sessionId, agentId);
    const { offset, limit } = messageRange(options);
    const out: unknown[] = [];
    for (const id of ids.slice(offset, offset + limit)) {
      const data = await readJson(this.#messageFile(sessionId, agentId, id));
      if (data !== undefined) out.push(data);
    }
    return out;
  }

  async addEvent(sessionId: string, data: unknown): Promise<void> {
    await this.#ensureSession(sessionId);
    await Deno.writeTextFile(
      `${this.#sessionDir(sessionId)}/events.jsonl`,
      `${JSON.stringify(data)}\n`,
      { append: true, mode: 0o600 },
    );
    await this.#touch(sessionId);
  }

  async listEvents(sessionId: string): Promise<unknown[]> {
    return await readJsonLines(`${this.#sessionDir(sessionId)}/events.jsonl`) ?? [];
  }

  #iso(): string {
    return new Date(this.#now()).toISOString();
  }

  #sessionDir(sessionId: string): string {
    if (!isValidId(sessionId)) {
      throw new TypeError(`Invalid session id: ${JSON.stringify(sessionId)}`);
    }
    return `${this.#dir}/${sessionId}`;
  }

  #sessionFile(sessionId: string): string {
    return `${this.#sessionDir(sessionId)}/session.json`;
  }

  #agentDir(sessionId: string, agentId: string): string {
    if (!isValidId(agentId)) throw new TypeError(`Invalid agent id: ${JSON.stringify(agentId)}`);
    return `${this.#sessionDir(sessionId)}/agents/${agentId}`;
  }

  #agentFile(sessionId: string, agentId: string): string {
    return `${this.#agentDir(sessionId, agentId)}/agent.json`;
  }

  #messageFile(sessionId: string, agentId: string, messageId: number): string {
    if (!Number.isSafeInteger(messageId) || messageId < 0) {
      throw new TypeError(`Invalid message id: ${messageId}`);
    }
    return `${this.#agentDir(sessionId, agentId)}/messages/${
      String(messageId).padStart(12, "0")
    }.json`;
  }

  #messageIds(sessionId: string, agentId: string): number[] {
    try {
      return [...Deno.readDirSync(`${this.#agentDir(sessionId, agentId)}/messages`)]
        .map((e) => /^(\d+)\.json$/.exec(e.name)?.[1])
        .filter((n): n is string => n !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
  }

  #messageCount(sessionId: string): Promise<number> {
    let count = 0;
    try {
      for (const agent of Deno.readDirSync(`${this.#sessionDir(sessionId)}/agents`)) {
        if (agent.isDirectory && isValidId(agent.name)) {
          count += this.#messageIds(sessionId, agent.name).length;
        }
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return Promise.resolve(count);
  }

  async #ensureSession(sessionId: string): Promise<void> {
    if (await exists(this.#sessionFile(sessionId))) return;
    const now = this.#iso();
    await this.createSession(sessionId, implicitSessionData(sessionId, now));
  }

  async #touch(sessionId: string): Promise<void> {
    const file = this.#sessionFile(sessionId);
    const record = await readJson<SessionRecord>(file);
    if (record === undefined) return;
    const now = this.#iso();
    // The data stays as written: a store never interprets it (the spine's neither).
    record.updated_at = now > record.updated_at ? now : record.updated_at;
    await writeJson(file, record);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await Deno.stat(file);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function readJson<T = unknown>(file: string): Promise<T | undefined> {
  return await readJsonTolerant(file) as T | undefined;
}

/** Writes `value` as JSON atomically (hidden temp file, fsync, rename), 0600 in 0700. */
function writeJson(file: string, value: unknown): Promise<void> {
  return writeFileAtomic(file, JSON.stringify(value), { mode: 0o600, dirMode: 0o700 });
}
