import type {
  DurableObjectId,
  DurableObjectNamespace,
  DurableObjectStub,
} from "@cloudflare/workers-types/index.ts";
import type { InboxItem, StoreResult } from "./inbox.ts";
import type { StoredCard } from "./mailbox.ts";
import { HttpError } from "@agent/net";

/** The one Mailbox instance's name. */
export const MAILBOX_NAME = "hub";

const BASE = "https://mailbox.internal";

// The stub speaks workerd's Request types; Deno's are the same objects at run time.
type StubInit = Parameters<DurableObjectStub["fetch"]>[1];

// An id is plain data and may be kept per isolate; a stub is tied to one request.
const ids = new WeakMap<DurableObjectNamespace, DurableObjectId>();

/** A client for this request; the name's id is hashed once per isolate. */
export function mailboxFor(namespace: DurableObjectNamespace): MailboxClient {
  return new MailboxClient(namespace);
}

/** Typed calls from the Worker to the Mailbox named `hub`. */
export class MailboxClient {
  #stub: DurableObjectStub;

  constructor(namespace: DurableObjectNamespace) {
    let id = ids.get(namespace);
    if (!id) {
      id = namespace.idFromName(MAILBOX_NAME);
      ids.set(namespace, id);
    }
    this.#stub = namespace.get(id);
  }

  async #call(path: string, init?: RequestInit): Promise<Response> {
    const response =
      (await this.#stub.fetch(`${BASE}${path}`, init as StubInit)) as unknown as Response;
    if (!response.ok) {
      const body = await response.json().catch(() => ({})) as { error?: string; detail?: string };
      throw new HttpError(
        response.status,
        body.error ?? "internal",
        body.detail === undefined ? {} : { detail: body.detail },
      );
    }
    return response;
  }

  /** Runs the last three inbox checks and stores the envelope. */
  async store(item: InboxItem): Promise<StoreResult> {
    const r = await this.#call("/store", { method: "POST", body: JSON.stringify(item) });
    return await r.json() as StoreResult;
  }

  /** The updates answer, passed through as the Mailbox wrote it. */
  updates(after: number, timeout: number, limit: number): Promise<Response> {
    return this.#call(`/updates?after=${after}&timeout=${timeout}&limit=${limit}`);
  }

  /** Deletes acknowledged seqs; returns the number really deleted. */
  async ack(seqs: number[]): Promise<number> {
    const r = await this.#call("/ack", { method: "POST", body: JSON.stringify({ seqs }) });
    return (await r.json() as { deleted: number }).deleted;
  }

  /** The stored card (or null) and the mailbox depth. */
  async status(): Promise<{ card: StoredCard | null; mailbox: number }> {
    return await (await this.#call("/status")).json() as {
      card: StoredCard | null;
      mailbox: number;
    };
  }

  /** Stores the card fields a hub published. */
  async putCard(card: StoredCard): Promise<void> {
    await this.#call("/card", { method: "PUT", body: JSON.stringify(card) });
  }

  /** Hands a WebSocket upgrade request to the Mailbox's doorbell. */
  async doorbell(request: Request): Promise<Response> {
    const init = { headers: request.headers } as unknown as StubInit;
    return (await this.#stub.fetch(`${BASE}/ws`, init)) as unknown as Response;
  }

  /** The cron's cleanup as of `nowMs`. */
  async prune(nowMs: number): Promise<{ mailbox: number; seen: number }> {
    const r = await this.#call(`/prune?now=${nowMs}`, { method: "POST" });
    return await r.json() as { mailbox: number; seen: number };
  }
}
