/**
 * `store = spine` (cloud mode): the network documents live in the spine's state API
 * under the keys `net.contacts`, `net.sessions`, `net.seen`, `net.log`, `net.cursor`,
 * `net.profile` and `net.counts` (`GET`/`PUT /hub/state/<key>`, bearer token; each value
 * at most 1 MiB).
 *
 * @module
 */
import type { DocumentName, NetDocuments } from "./documents.ts";

/** A state value's limit on the spine. */
const MAX_VALUE_BYTES = 1024 * 1024;

/** The network documents in the spine's state API. */
export class SpineDocuments implements NetDocuments {
  #url: string;
  #token: string;
  #fetch: typeof fetch;

  /** Documents on the spine at `url` with the hub token. */
  constructor(url: string, token: string, options: { fetch?: typeof fetch } = {}) {
    this.#url = url.replace(/\/+$/, "");
    this.#token = token;
    this.#fetch = options.fetch ?? fetch;
  }

  /** Where the state is kept. */
  get where(): string {
    return `${this.#url}/hub/state/net.*`;
  }

  /** Reads a document; `undefined` when the spine has none. */
  async read(name: DocumentName): Promise<unknown> {
    const res = await this.#fetch(`${this.#url}/hub/state/net.${name}`, {
      headers: { authorization: `Bearer ${this.#token}` },
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status === 404) {
      await res.body?.cancel();
      return undefined;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`Cannot read net.${name} from the spine: HTTP ${res.status}`);
    }
    const body = await res.json() as { value?: unknown };
    return body.value;
  }

  /** Writes a document (the log loses its oldest entries to stay under 1 MiB). */
  async write(name: DocumentName, value: unknown): Promise<void> {
    let body = JSON.stringify({ value });
    if (name === "log" && Array.isArray(value)) {
      let entries = value;
      while (new TextEncoder().encode(body).length > MAX_VALUE_BYTES && entries.length > 0) {
        entries = entries.slice(Math.ceil(entries.length / 10));
        body = JSON.stringify({ value: entries });
      }
    }
    const res = await this.#fetch(`${this.#url}/hub/state/net.${name}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${this.#token}`, "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`Cannot write net.${name} to the spine: HTTP ${res.status}`);
  }
}
