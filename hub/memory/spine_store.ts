/**
 * Cloud mode's memory: the {@linkcode MemoryStore} in the spine's relational store
 * (`POST /hub/memory`, one call per operation, bearer token), for the cloud brain and
 * `agent memory … --cloud`. Input is checked here first, so bad input gets the same
 * sentence as on a local store and nothing is sent; the spine checks it again.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { SpineError, SpineHttp } from "../spine_http/mod.ts";
import { errorMessage } from "@agent/net/common";
import { memoryError } from "./errors.ts";
import { checkNew, checkText, textTokens } from "./validate.ts";
import type {
  ApproveOptions,
  ListOptions,
  Memory,
  MemoryCounts,
  MemoryStore,
  NewMemory,
  Ranked,
  Scope,
  ScopeFilter,
  SearchOptions,
} from "./types.ts";

const REQUEST_TIMEOUT_MS = 30_000;
const ANSWER_MAX_BYTES = 32 * 1024 * 1024;

/** Options for {@linkcode SpineMemoryStore}. */
export interface SpineMemoryStoreOptions {
  /** The language of its errors. @default "en" */
  lang?: Lang | undefined;
  fetch?: typeof fetch | undefined;
}

/** The memory store on the spine at `url`. */
export class SpineMemoryStore implements MemoryStore {
  #http: SpineHttp;
  #lang: Lang;

  /** The store on the spine at `url`, with the hub token. */
  constructor(url: string, token: string, options: SpineMemoryStoreOptions = {}) {
    this.#lang = options.lang ?? "en";
    this.#http = new SpineHttp(url, {
      token,
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxBytes: ANSWER_MAX_BYTES,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  async add(memory: NewMemory): Promise<Memory> {
    const m = checkNew(memory, this.#lang);
    const body = await this.#call("add", {
      memory: { ...m, tokens: textTokens(m.text) },
    }, m.replaces ?? undefined);
    return body.memory as Memory;
  }

  async get(id: number, filter: ScopeFilter): Promise<Memory | undefined> {
    const body = await this.#call("get", { id, scopes: filter });
    return (body.memory as Memory | null) ?? undefined;
  }

  async list(filter: ScopeFilter, options: ListOptions = {}): Promise<Memory[]> {
    return (await this.#call("list", { scopes: filter, ...options })).memories as Memory[];
  }

  async search(query: string, filter: ScopeFilter, options: SearchOptions = {}): Promise<Ranked[]> {
    return (await this.#call("search", { query, scopes: filter, ...options })).ranked as Ranked[];
  }

  async pinned(filter: ScopeFilter): Promise<Memory[]> {
    return (await this.#call("pinned", { scopes: filter })).memories as Memory[];
  }

  async forget(ids: readonly number[], filter: ScopeFilter): Promise<number[]> {
    return (await this.#call("forget", { ids, scopes: filter })).ids as number[];
  }

  async approve(id: number, filter: ScopeFilter, options: ApproveOptions = {}): Promise<Memory> {
    const text = options.text === undefined ? undefined : checkText(options.text, this.#lang);
    const body = await this.#call("approve", {
      id,
      scopes: filter,
      ...(text === undefined ? {} : { text, tokens: textTokens(text) }),
    }, id);
    return body.memory as Memory;
  }

  async pin(id: number, filter: ScopeFilter, pinned: boolean): Promise<Memory> {
    return (await this.#call("pin", { id, scopes: filter, pinned }, id)).memory as Memory;
  }

  async counts(filter: ScopeFilter): Promise<MemoryCounts> {
    return await this.#call("counts", { scopes: filter }) as unknown as MemoryCounts;
  }

  async scopes(): Promise<Scope[]> {
    return (await this.#call("scopes", {})).scopes as Scope[];
  }

  async extractedThrough(sessionId: string): Promise<number> {
    return Number((await this.#call("marks.get", { session_id: sessionId })).through);
  }

  async markExtracted(sessionId: string, count: number): Promise<void> {
    await this.#call("marks.set", { session_id: sessionId, count });
  }

  close(): void {}

  /**
   * One operation. The spine's refusals become the sentences a local store gives (an
   * unknown id, a memory that is not waiting, one that cannot be replaced); anything
   * else is `cloud_failed` with the spine's detail.
   */
  async #call(
    op: string,
    args: Record<string, unknown>,
    subject?: number,
  ): Promise<Record<string, unknown>> {
    try {
      const answer = await this.#http.request("/hub/memory", {
        method: "POST",
        json: { op, ...args },
        expect: [200],
      });
      return answer.body as Record<string, unknown>;
    } catch (error) {
      if (error instanceof SpineError) {
        if (error.code === "unknown_id") {
          throw memoryError(this.#lang, "unknown_id", { id: subject ?? "?" });
        }
        if (error.code === "not_pending") {
          throw memoryError(this.#lang, "not_pending", { id: subject ?? "?" });
        }
        if (error.code === "replaces_gone") {
          throw memoryError(this.#lang, "replaces_gone", { id: subject ?? "?" });
        }
      }
      throw memoryError(this.#lang, "cloud_failed", { detail: errorMessage(error) }, {
        cause: error,
      });
    }
  }
}
