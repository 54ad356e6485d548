/**
 * The network store's documents and where `store = file` keeps them:
 * `<AGENT_DATA_DIR>/net/` (0700) with files 0600, each written atomically.
 *
 * @module
 */
import { readJsonLines, withFileLock, writeFileAtomic } from "../../atomic_file.ts";

/** The documents of the network store (spine state keys are `net.<name>`). */
export type DocumentName =
  | "contacts"
  | "sessions"
  | "seen"
  | "log"
  | "cursor"
  | "profile"
  | "counts"
  | "outbox";

/** Raw access to the documents; {@linkcode NetState} builds on it. */
export interface NetDocuments {
  /** Where the state is kept, for `agent net status`. */
  readonly where: string;
  read(name: DocumentName): Promise<unknown>;
  write(name: DocumentName, value: unknown): Promise<void>;
  /**
   * Runs a read-modify-write so no other process (a CLI command beside the running hub)
   * interleaves with it. Stores without locking run `fn` as is.
   */
  exclusive?<T>(fn: () => Promise<T>): Promise<T>;
}

const FILES: Record<DocumentName, string> = {
  contacts: "contacts.json",
  sessions: "sessions.json",
  seen: "seen.json",
  log: "log.jsonl",
  cursor: "cursor",
  profile: "profile.json",
  counts: "counts.json",
  outbox: "outbox.json",
};

/** `store = file`: one file per document under `<AGENT_DATA_DIR>/net/`. */
export class FileDocuments implements NetDocuments {
  #dir: string;
  #ready = false;
  #queue: Promise<void> = Promise.resolve();

  /** Keeps the documents in `dir` (created 0700 on first write). */
  constructor(dir: string) {
    this.#dir = dir;
  }

  /** The folder. */
  get where(): string {
    return this.#dir;
  }

  /** The file of a document. */
  fileOf(name: DocumentName): string {
    return `${this.#dir}/${FILES[name]}`;
  }

  /** Reads a document; `undefined` when missing or half-written. */
  async read(name: DocumentName): Promise<unknown> {
    const file = this.fileOf(name);
    if (name === "log") return await readJsonLines(file);
    if (name === "cursor") {
      try {
        const n = Number((await Deno.readTextFile(file)).trim());
        return Number.isSafeInteger(n) ? n : undefined;
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return undefined;
        throw error;
      }
    }
    let handle: Deno.FsFile;
    try {
      handle = await Deno.open(file);
    } catch (error) {
      // No file is no garbage: a writer may put the first one in place at any moment.
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
    const { ino } = await handle.stat().catch((error) => {
      handle.close();
      throw error;
    });
    const text = await new Response(handle.readable).text();
    try {
      return JSON.parse(text);
    } catch {
      await keepUnreadable(file, ino, text.length);
      return undefined;
    }
  }

  /** Writes a document atomically (temp, fsync, rename), mode 0600. */
  async write(name: DocumentName, value: unknown): Promise<void> {
    await this.#ensureDir();
    const text = name === "log"
      ? (value as unknown[]).map((entry) => JSON.stringify(entry) + "\n").join("")
      : name === "cursor"
      ? `${value}\n`
      : JSON.stringify(value, null, 2) + "\n";
    // Counters and the cursor are informative: losing the last change to a power cut
    // is harmless, and skipping their fsync keeps milliseconds off every envelope.
    await writeFileAtomic(this.fileOf(name), text, {
      sync: name !== "counts" && name !== "cursor",
    });
  }

  /**
   * Runs `fn` holding an exclusive lock on `<dir>/.lock` (flock), shared by every
   * process using this data directory; calls inside this process queue up too.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((r) => release = r);
    await previous;
    try {
      await this.#ensureDir();
      return await withFileLock(`${this.#dir}/.lock`, fn);
    } finally {
      release();
    }
  }

  /** Appends one line to `log.jsonl` (cheap; trimmed by the caller now and then). */
  async appendLog(entry: unknown): Promise<void> {
    await this.#ensureDir();
    await Deno.writeTextFile(this.fileOf("log"), JSON.stringify(entry) + "\n", {
      append: true,
      mode: 0o600,
    });
  }

  async #ensureDir(): Promise<void> {
    if (this.#ready) return;
    await Deno.mkdir(this.#dir, { recursive: true, mode: 0o700 });
    try {
      await Deno.chmod(this.#dir, 0o700);
    } catch { /* not the owner: leave it */ }
    this.#ready = true;
  }
}

/** The suffix of a document that could not be parsed, kept aside. */
export const UNREADABLE_SUFFIX = ".unreadable";

/**
 * A document that exists but is not JSON (our writes are atomic, so something else
 * wrote it) is moved aside to `<file>.unreadable-<ms>` before anyone writes a fresh
 * one over it: read as empty, it would otherwise be lost on the next write.
 */
async function keepUnreadable(file: string, ino: number | null, length: number): Promise<void> {
  if (length === 0 || ino === null) return;
  try {
    // Only the file that was read: a writer may have renamed a good one into place since.
    const info = await Deno.stat(file);
    if (!info.isFile || info.ino !== ino) return;
    await Deno.rename(file, `${file}${UNREADABLE_SUFFIX}-${Date.now()}`);
  } catch { /* gone already, or another reader moved it */ }
}
