/**
 * Which session and role each remembered conversation (`messenger:<chat>`,
 * `web:<session>`) is on, across restarts: `<AGENT_DATA_DIR>/conversations.json`
 * (0600), written atomically. The first read takes over what the messenger kept in
 * `messenger/state.json` before the desk existed, so a chat stays in its session.
 *
 * @module
 */
import { readJsonTolerant, writeFileAtomic } from "../atomic_file.ts";
import type { ConversationKey } from "./keys.ts";

/** One remembered conversation. */
export interface BookEntry {
  session_id: string;
  role?: string;
}

/** The remembered conversations of one data directory. */
export class ConversationBook {
  #file: string;
  #legacy: string;
  #entries: Record<string, BookEntry> | undefined;
  #loading: Promise<Record<string, BookEntry>> | undefined;
  #writing: Promise<void> = Promise.resolve();

  /** The book under `dataDir`. */
  constructor(dataDir: string) {
    this.#file = `${dataDir}/conversations.json`;
    this.#legacy = `${dataDir}/messenger/state.json`;
  }

  /** The entry of `key`, if remembered. */
  async get(key: ConversationKey): Promise<BookEntry | undefined> {
    return (await this.#load())[key];
  }

  /** Remembers `entry` for `key` (written before it resolves). */
  async set(key: ConversationKey, entry: BookEntry): Promise<void> {
    const entries = await this.#load();
    entries[key] = { ...entry };
    const text = JSON.stringify({ version: 1, conversations: entries }) + "\n";
    this.#writing = this.#writing.catch(() => {}).then(() =>
      writeFileAtomic(this.#file, text, { mode: 0o600, dirMode: 0o700 })
    );
    await this.#writing;
  }

  #load(): Promise<Record<string, BookEntry>> {
    if (this.#entries !== undefined) return Promise.resolve(this.#entries);
    this.#loading ??= (async () => {
      const value = await readJsonTolerant(this.#file) as
        | { conversations?: Record<string, unknown> }
        | undefined;
      const entries: Record<string, BookEntry> = {};
      if (value !== undefined) {
        for (const [key, entry] of Object.entries(value.conversations ?? {})) {
          if (isEntry(entry)) entries[key] = entry;
        }
      } else {
        const legacy = await readJsonTolerant(this.#legacy) as
          | { chats?: Record<string, unknown> }
          | undefined;
        for (const [chat, entry] of Object.entries(legacy?.chats ?? {})) {
          if (isEntry(entry)) entries[`messenger:${chat}`] = entry;
        }
      }
      this.#entries = entries;
      return entries;
    })();
    return this.#loading;
  }
}

function isEntry(value: unknown): value is BookEntry {
  const entry = value as BookEntry | null;
  return typeof entry?.session_id === "string" &&
    (entry.role === undefined || typeof entry.role === "string");
}
