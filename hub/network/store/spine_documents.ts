/**
 * `store = spine` (cloud mode): the network documents live in the spine's state API
 * under the keys `net.contacts`, `net.sessions`, `net.seen`, `net.log`, `net.cursor`,
 * `net.profile` and `net.counts` (`GET`/`PUT /hub/state/<key>`, bearer token; each value
 * at most 1 MiB).
 *
 * @module
 */
import { SpineHttp } from "../../spine_http/mod.ts";
import type { DocumentName, NetDocuments } from "./documents.ts";

/** A state value's limit on the spine. */
const MAX_VALUE_BYTES = 1024 * 1024;

/** The most of a `GET /hub/state/<key>` answer read: a full value and its wrapping. */
const ANSWER_MAX_BYTES = 2 * MAX_VALUE_BYTES;

/** The network documents in the spine's state API. */
export class SpineDocuments implements NetDocuments {
  #http: SpineHttp;

  /** Documents on the spine at `url` with the hub token. */
  constructor(url: string, token: string, options: { fetch?: typeof fetch } = {}) {
    this.#http = new SpineHttp(url, {
      token,
      timeoutMs: 15_000,
      maxBytes: ANSWER_MAX_BYTES,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Where the state is kept. */
  get where(): string {
    return `${this.#http.url}/hub/state/net.*`;
  }

  /** Reads a document; `undefined` when the spine has none. */
  async read(name: DocumentName): Promise<unknown> {
    const { status, body } = await this.#http.request(`/hub/state/net.${name}`, {
      expect: [200, 404],
      what: `Cannot read net.${name} from the spine`,
    });
    if (status === 404) return undefined;
    return (body as { value?: unknown } | null)?.value;
  }

  /** Writes a document (the log loses its oldest entries to stay under 1 MiB). */
  async write(name: DocumentName, value: unknown): Promise<void> {
    let stored = value;
    if (name === "log" && Array.isArray(value)) {
      let list = value;
      while (bytesOf({ value: list }) > MAX_VALUE_BYTES && list.length > 0) {
        list = list.slice(Math.ceil(list.length / 10));
      }
      stored = list;
    }
    await this.#http.request(`/hub/state/net.${name}`, {
      method: "PUT",
      json: { value: stored },
      answer: "none",
      what: `Cannot write net.${name} to the spine`,
    });
  }
}

function bytesOf(body: unknown): number {
  return new TextEncoder().encode(JSON.stringify(body)).length;
}
