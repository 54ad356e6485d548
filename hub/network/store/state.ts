/**
 * Typed access to the network store: contacts, sessions, handled ids, the log, the
 * cursor, the profile and counts. Every call reads the document afresh, so a CLI
 * command and a running hub see each other's writes.
 *
 * @module
 */
import type { NetLogEntry } from "../turn_types.ts";
import { type DocumentName, FileDocuments, type NetDocuments } from "./documents.ts";

/**
 * A contact's state: the spec's four, and `removed` (the other side removed this agent
 * with a `contact_removed` notice; adding it again sends a new request).
 */
export type ContactState = "pending_in" | "pending_out" | "accepted" | "blocked" | "removed";

/** A contact: address, name, state, keys, note and times (Unix seconds). */
export interface Contact {
  address: string;
  name: string;
  state: ContactState;
  /** The signing key stored when added; pinned once accepted. */
  sign_key: string;
  box_key: string;
  /** The introduction of a request (incoming) or the owner's note (outgoing). */
  note: string;
  created_at: number;
  updated_at: number;
  accepted_at?: number | null;
  /**
   * When the owner was last told of a request from this address: a stranger that asks,
   * removes itself and asks again is told of once per {@linkcode REQUEST_TELL_SECONDS}.
   */
  request_told_at?: number;
}

/** How often the owner hears of requests from one address at most: once a day. */
export const REQUEST_TELL_SECONDS = 86_400;

/** The network profile. */
export interface Profile {
  /** The card name set by `agent net init --name` or `agent net name`. */
  name?: string;
  /** Whether this agent is listed in the universe (`agent net universe join`/`leave`). */
  universe_join?: boolean;
  /** The owner's display name in the universe. */
  universe_owner?: string;
  /** A line about the agent in the universe. */
  universe_about?: string;
  /** Overrides `[net] universe_links` (`--links`, `--no-links`). */
  universe_links?: boolean;
  /** The last `ts` sent to the universe, kept so it only grows. */
  universe_ts?: number;
  /** What was last published with `PUT /hub/card`. */
  published?: { name: string; sign_key: string; box_key: string; at: number };
}

/** The envelope kinds the outbox carries. */
export type OutboxKind = "message" | "contact_removed";

/** An envelope in the outbox: written down before it is posted, retried until delivered. */
export interface OutboxEntry {
  /** The envelope id (deterministic for a reply, so a retry is never a second message). */
  id: string;
  /** The recipient's address and sealing key. */
  to: string;
  box_key: string;
  /** A message (a reply or the owner's), or the notice that the owner removed `to`. */
  kind: OutboxKind;
  /** What is sealed: `{text}` or `{text, sub}` (a message), `{name}` (a removal). */
  plaintext: { text: string; sub?: string } | { name: string };
  thread: string;
  reply_to: string | null;
  hops: number;
  /** For a reply: the id of the envelope it answers (a re-handled one finds it here). */
  answers?: string;
  /** The network log line written once delivered. */
  log: { text: string; own_sub?: string; peer_sub?: string };
  /** A network turn's reply counts against the hourly auto-reply limit when delivered. */
  auto_reply?: boolean;
  /** Unix seconds. */
  created_at: number;
  attempts: number;
  /** Unix seconds: the next attempt. */
  next_at: number;
  last_error?: string;
  /** `pending` until delivered, then `sent` (kept a day, so a re-handled message finds it). */
  state: "pending" | "sent";
  sent_at?: number;
}

function isOutboxEntry(value: unknown): value is OutboxEntry {
  return isRecord(value) && typeof value.id === "string" && typeof value.to === "string" &&
    typeof value.box_key === "string" && isRecord(value.plaintext) &&
    (value.state === "pending" || value.state === "sent");
}

/** Counters of the network service. */
export interface Counts {
  received: number;
  sent: number;
  dropped: number;
  replies: number;
  /** Auto-reply times (Unix seconds) per contact, for the hourly limit. */
  auto_replies: Record<string, number[]>;
  /** Message envelopes handled from (`in`) and sent to (`out`) each contact (the universe report). */
  peers: Record<string, { in: number; out: number }>;
}

/** How many handled ids are remembered. */
export const SEEN_MAX = 1000;
/** How many log entries are kept. */
export const LOG_MAX = 500;

/** The network store. */
export class NetState {
  #docs: NetDocuments;
  #logLines = -1;

  /** Wraps a document store. */
  constructor(docs: NetDocuments) {
    this.#docs = docs;
  }

  /** `store = file` under `netDir`. */
  static file(netDir: string): NetState {
    return new NetState(new FileDocuments(netDir));
  }

  /** Where the state is kept. */
  get where(): string {
    return this.#docs.where;
  }

  // --- contacts -------------------------------------------------------------------

  /** Every contact, by address. */
  async contacts(): Promise<Contact[]> {
    const raw = await this.#docs.read("contacts");
    const list = Array.isArray(raw) ? raw : isRecord(raw) ? Object.values(raw) : [];
    return list.filter(isContact).sort((a, b) => a.address.localeCompare(b.address));
  }

  /** One contact, or `undefined`. */
  async contact(address: string): Promise<Contact | undefined> {
    return (await this.contacts()).find((c) => c.address === address);
  }

  /** Adds or replaces a contact. */
  saveContact(contact: Contact): Promise<void> {
    return this.#exclusive(async () => {
      const list = (await this.contacts()).filter((c) => c.address !== contact.address);
      list.push(contact);
      await this.#write("contacts", list.sort((a, b) => a.address.localeCompare(b.address)));
    });
  }

  /** Forgets a contact; returns whether there was one. */
  removeContact(address: string): Promise<boolean> {
    return this.#exclusive(async () => {
      const list = await this.contacts();
      const rest = list.filter((c) => c.address !== address);
      if (rest.length === list.length) return false;
      await this.#write("contacts", rest);
      return true;
    });
  }

  // --- sessions -------------------------------------------------------------------

  /** The session id for a state key (`<address>` or `<address>/<sub>`), made on first use. */
  sessionFor(key: string): Promise<string> {
    return this.#exclusive(() => this.#sessionFor(key));
  }

  async #sessionFor(key: string): Promise<string> {
    const raw = await this.#docs.read("sessions");
    const map: Record<string, string> = isRecord(raw) ? raw as Record<string, string> : {};
    const known = map[key];
    if (typeof known === "string") return known;
    const id = `net-${key.replace(/[^A-Za-z0-9._-]/g, "_")}-${crypto.randomUUID().slice(0, 8)}`;
    map[key] = id;
    await this.#write("sessions", map);
    return id;
  }

  // --- handled ids ----------------------------------------------------------------

  /** Whether `(from, id)` was handled. */
  async seen(from: string, id: string): Promise<boolean> {
    return (await this.#seenList()).includes(`${from} ${id}`);
  }

  /** Remembers `(from, id)` as handled (the last 1 000 are kept). */
  markSeen(from: string, id: string): Promise<void> {
    return this.#exclusive(async () => {
      const list = await this.#seenList();
      const key = `${from} ${id}`;
      if (list.includes(key)) return;
      list.push(key);
      await this.#write("seen", list.slice(-SEEN_MAX));
    });
  }

  async #seenList(): Promise<string[]> {
    const raw = await this.#docs.read("seen");
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === "string") : [];
  }

  // --- log ------------------------------------------------------------------------

  /**
   * Appends a log entry (the last 500 are kept). An entry already there (same
   * direction, address and id: an envelope handled again after a crash before its ack,
   * or a reply with its deterministic id) is not written twice.
   */
  appendLog(entry: NetLogEntry): Promise<void> {
    return this.#exclusive(() => this.#appendLog(entry));
  }

  async #appendLog(entry: NetLogEntry): Promise<void> {
    const logged = await this.log();
    if (
      logged.some((e) =>
        e.id === entry.id && e.address === entry.address && e.direction === entry.direction
      )
    ) return;
    if (this.#docs instanceof FileDocuments) {
      if (this.#logLines < 0) this.#logLines = logged.length;
      await this.#docs.appendLog(entry);
      this.#logLines++;
      // Trim in steps so most appends stay one small write.
      if (this.#logLines > LOG_MAX + 50) {
        const all = await this.log();
        await this.#write("log", all.slice(-LOG_MAX));
        this.#logLines = Math.min(all.length, LOG_MAX);
      }
      return;
    }
    logged.push(entry);
    await this.#write("log", logged.slice(-LOG_MAX));
  }

  /** The log, oldest first (at most the last 500 entries). */
  async log(): Promise<NetLogEntry[]> {
    const raw = await this.#docs.read("log");
    const list = Array.isArray(raw) ? raw.filter(isLogEntry) : [];
    return list.slice(-LOG_MAX);
  }

  // --- cursor, profile, counts ----------------------------------------------------

  /** The last seq taken, or 0. */
  async cursor(): Promise<number> {
    const raw = await this.#docs.read("cursor");
    return typeof raw === "number" ? raw : 0;
  }

  /** Records the last seq taken. */
  async setCursor(seq: number): Promise<void> {
    await this.#write("cursor", seq);
  }

  /** The outbox: envelopes written down before they are posted (see `outbox.ts`). */
  async outbox(): Promise<OutboxEntry[]> {
    const raw = await this.#docs.read("outbox");
    return Array.isArray(raw) ? raw.filter(isOutboxEntry) : [];
  }

  /** Changes the outbox under the store's lock; returns what `change` returns. */
  updateOutbox<T>(change: (entries: OutboxEntry[]) => T): Promise<T> {
    return this.#exclusive(async () => {
      const entries = await this.outbox();
      const result = change(entries);
      await this.#write("outbox", entries);
      return result;
    });
  }

  /** The network profile. */
  async profile(): Promise<Profile> {
    const raw = await this.#docs.read("profile");
    return isRecord(raw) ? raw as Profile : {};
  }

  /** Replaces the profile. */
  async setProfile(profile: Profile): Promise<void> {
    await this.#write("profile", profile);
  }

  /** The counters. */
  async counts(): Promise<Counts> {
    const raw = await this.#docs.read("counts");
    const r = isRecord(raw) ? raw : {};
    const num = (v: unknown) => typeof v === "number" ? v : 0;
    return {
      received: num(r.received),
      sent: num(r.sent),
      dropped: num(r.dropped),
      replies: num(r.replies),
      auto_replies: isRecord(r.auto_replies) ? r.auto_replies as Record<string, number[]> : {},
      peers: isRecord(r.peers) ? r.peers as Record<string, { in: number; out: number }> : {},
    };
  }

  /**
   * Adds to the counters; `message` counts one message envelope handled from (`in`) or
   * sent to (`out`) a peer.
   */
  count(
    changes: Partial<Record<"received" | "sent" | "dropped" | "replies", number>>,
    message?: { peer: string; direction: "in" | "out" },
  ): Promise<void> {
    return this.#exclusive(async () => {
      const counts = await this.counts();
      for (const [key, n] of Object.entries(changes)) {
        counts[key as "received"] += n ?? 0;
      }
      if (message !== undefined) {
        const peer = counts.peers[message.peer] ?? { in: 0, out: 0 };
        peer[message.direction]++;
        counts.peers[message.peer] = peer;
      }
      await this.#write("counts", counts);
    });
  }

  /** Records an auto-reply to `address` at `nowSec` (for the hourly limit). */
  recordAutoReply(address: string, nowSec: number): Promise<void> {
    return this.#exclusive(async () => {
      const counts = await this.counts();
      const times = (counts.auto_replies[address] ?? []).filter((t) => t > nowSec - 3600);
      times.push(nowSec);
      counts.auto_replies[address] = times;
      counts.replies++;
      await this.#write("counts", counts);
    });
  }

  /** Auto-replies sent to `address` in the hour before `nowSec`. */
  async autoRepliesLastHour(address: string, nowSec: number): Promise<number> {
    const counts = await this.counts();
    return (counts.auto_replies[address] ?? []).filter((t) => t > nowSec - 3600).length;
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#docs.exclusive ? this.#docs.exclusive(fn) : fn();
  }

  #write(name: DocumentName, value: unknown): Promise<void> {
    return this.#docs.write(name, value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const STATES = new Set(["pending_in", "pending_out", "accepted", "blocked", "removed"]);

function isContact(value: unknown): value is Contact {
  return isRecord(value) && typeof value.address === "string" &&
    typeof value.name === "string" && STATES.has(value.state as string) &&
    typeof value.sign_key === "string" && typeof value.box_key === "string";
}

function isLogEntry(value: unknown): value is NetLogEntry {
  return isRecord(value) && typeof value.address === "string" && typeof value.id === "string" &&
    (value.direction === "in" || value.direction === "out");
}
