import type {
  DurableObjectId,
  DurableObjectNamespace,
  DurableObjectStub,
} from "@cloudflare/workers-types/index.ts";
import type { InboxItem, StoreResult } from "./inbox.ts";
import type { StoredCard } from "./mailbox.ts";

/** The one Mailbox instance's name. */
export const MAILBOX_NAME = "hub";

const BASE = "https://mailbox.internal";

// The stub speaks workerd's Request types; Deno's are the same objects at run time.
type StubInit = Parameters<DurableObjectStub["fetch"]>[1];

/** The Mailbox's methods as its stub exposes them over RPC (every call is async). */
interface MailboxStub {
  store(item: InboxItem): Promise<StoreResult>;
  updates(after: number, timeout: number, limit: number): Promise<string>;
  ack(seqs: number[]): Promise<number>;
  status(): Promise<{ card: StoredCard | null; mailbox: number }>;
  putCard(card: StoredCard): Promise<void>;
  prune(nowMs: number): Promise<{ mailbox: number; seen: number }>;
  fetch: DurableObjectStub["fetch"];
}

// An id is plain data and may be kept per isolate; a stub is tied to one request.
const ids = new WeakMap<DurableObjectNamespace, DurableObjectId>();

/** A client for this request; the name's id is hashed once per isolate. */
export function mailboxFor(namespace: DurableObjectNamespace): MailboxClient {
  return new MailboxClient(namespace);
}

/**
 * Typed calls from the Worker to the Mailbox named `hub`, over RPC. The Worker checks
 * every input before calling; an error inside the Mailbox reaches the caller as a
 * thrown error (500 `internal`).
 */
export class MailboxClient {
  #stub: MailboxStub;

  constructor(namespace: DurableObjectNamespace) {
    let id = ids.get(namespace);
    if (!id) {
      id = namespace.idFromName(MAILBOX_NAME);
      ids.set(namespace, id);
    }
    this.#stub = namespace.get(id) as unknown as MailboxStub;
  }

  /** Runs the last three inbox checks and stores the envelope. */
  store(item: InboxItem): Promise<StoreResult> {
    return this.#stub.store(item);
  }

  /** The updates answer as a JSON response, passed through as the Mailbox wrote it. */
  async updates(after: number, timeout: number, limit: number): Promise<Response> {
    return new Response(await this.#stub.updates(after, timeout, limit), {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  }

  /** Deletes acknowledged seqs; returns the number really deleted. */
  ack(seqs: number[]): Promise<number> {
    return this.#stub.ack(seqs);
  }

  /** The stored card (or null) and the mailbox depth. */
  status(): Promise<{ card: StoredCard | null; mailbox: number }> {
    return this.#stub.status();
  }

  /** Stores the card fields a hub published. */
  async putCard(card: StoredCard): Promise<void> {
    await this.#stub.putCard(card);
  }

  /** Hands a WebSocket upgrade request to the Mailbox's doorbell. */
  async doorbell(request: Request): Promise<Response> {
    const init = { headers: request.headers } as unknown as StubInit;
    return (await this.#stub.fetch(`${BASE}/ws`, init)) as unknown as Response;
  }

  /** The cron's cleanup as of `nowMs`. */
  prune(nowMs: number): Promise<{ mailbox: number; seen: number }> {
    return this.#stub.prune(nowMs);
  }
}
