/**
 * `[sessions] backend = "spine"` (cloud mode): the {@linkcode SessionStore} over the
 * spine's session routes (`/hub/sessions/...`, bearer token). Ids are checked here
 * before anything is sent, as the file store checks them.
 *
 * @module
 */
import { isMessageId, isSessionId } from "@agent/net";
import { SpineHttp } from "../spine_http/mod.ts";
import {
  type CreateOutcome,
  messageRange,
  type SessionStore,
  type SessionSummary,
} from "./store.ts";

/** How long one request may take. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The most of an answer read. One stored body is at most 1 MiB; a list of messages may
 * hold many of them, so the whole of a long session still reads in one answer.
 */
const ANSWER_MAX_BYTES = 64 * 1024 * 1024;

/** A session store on the spine at `url`. */
export class SpineSessionStore implements SessionStore {
  #http: SpineHttp;

  /** The store on the spine at `url`, with the hub token. */
  constructor(url: string, token: string, options: { fetch?: typeof fetch } = {}) {
    this.#http = new SpineHttp(url, {
      token,
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxBytes: ANSWER_MAX_BYTES,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Where the sessions are kept. */
  get where(): string {
    return `${this.#http.url}/hub/sessions`;
  }

  async createSession(sessionId: string, data: unknown): Promise<"created" | "exists"> {
    const status = await this.#send("POST", "/hub/sessions", [201, 409], {
      session_id: sid(sessionId),
      data,
    });
    return status.code === 201 ? "created" : "exists";
  }

  async listSessions(limit = 20): Promise<SessionSummary[]> {
    const n = Math.min(200, Math.max(1, Math.trunc(limit)));
    const r = await this.#send("GET", `/hub/sessions?limit=${n}`, [200]);
    return (r.body as { sessions: SessionSummary[] }).sessions;
  }

  async getSession(sessionId: string): Promise<unknown | undefined> {
    const r = await this.#send("GET", `/hub/sessions/${sid(sessionId)}`, [200, 404]);
    return r.code === 200 ? (r.body as { data: unknown }).data : undefined;
  }

  async patchMeta(
    sessionId: string,
    meta: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const r = await this.#send("PATCH", `/hub/sessions/${sid(sessionId)}/meta`, [200], { meta });
    return (r.body as { meta: Record<string, unknown> }).meta;
  }

  async getMeta(sessionId: string): Promise<Record<string, unknown>> {
    const r = await this.#send("GET", `/hub/sessions/${sid(sessionId)}/meta`, [200]);
    return (r.body as { meta: Record<string, unknown> }).meta;
  }

  async createAgent(sessionId: string, agentId: string, data: unknown): Promise<CreateOutcome> {
    const r = await this.#send(
      "POST",
      `/hub/sessions/${sid(sessionId)}/agents`,
      [201, 404, 409],
      { agent_id: aid(agentId), data },
    );
    return outcome(r.code);
  }

  async getAgent(sessionId: string, agentId: string): Promise<unknown | undefined> {
    const r = await this.#send("GET", agentPath(sessionId, agentId), [200, 404]);
    return r.code === 200 ? (r.body as { data: unknown }).data : undefined;
  }

  async putAgent(sessionId: string, agentId: string, data: unknown): Promise<boolean> {
    const r = await this.#send("PUT", agentPath(sessionId, agentId), [200, 404], { data });
    return r.code === 200;
  }

  async createMessage(
    sessionId: string,
    agentId: string,
    messageId: number,
    data: unknown,
  ): Promise<CreateOutcome> {
    const r = await this.#send(
      "POST",
      `${agentPath(sessionId, agentId)}/messages`,
      [201, 404, 409],
      { message_id: mid(messageId), data },
    );
    return outcome(r.code);
  }

  async getMessage(
    sessionId: string,
    agentId: string,
    messageId: number,
  ): Promise<unknown | undefined> {
    const r = await this.#send(
      "GET",
      `${agentPath(sessionId, agentId)}/messages/${mid(messageId)}`,
      [200, 404],
    );
    return r.code === 200 ? (r.body as { data: unknown }).data : undefined;
  }

  async putMessage(
    sessionId: string,
    agentId: string,
    messageId: number,
    data: unknown,
  ): Promise<boolean> {
    const r = await this.#send(
      "PUT",
      `${agentPath(sessionId, agentId)}/messages/${mid(messageId)}`,
      [200, 404],
      { data },
    );
    return r.code === 200;
  }

  async listMessages(
    sessionId: string,
    agentId: string,
    options: { offset?: number; limit?: number } = {},
  ): Promise<unknown[] | undefined> {
    const { offset, limit } = messageRange(options);
    const r = await this.#send(
      "GET",
      `${agentPath(sessionId, agentId)}/messages?offset=${offset}&limit=${limit}`,
      [200, 404],
    );
    return r.code === 200 ? (r.body as { messages: unknown[] }).messages : undefined;
  }

  async addEvent(sessionId: string, data: unknown): Promise<void> {
    await this.#send("POST", `/hub/sessions/${sid(sessionId)}/events`, [201], { data });
  }

  async listEvents(sessionId: string): Promise<unknown[]> {
    const r = await this.#send("GET", `/hub/sessions/${sid(sessionId)}/events`, [200]);
    return (r.body as { events: unknown[] }).events;
  }

  async #send(
    method: string,
    path: string,
    expected: number[],
    body?: unknown,
  ): Promise<{ code: number; body: unknown }> {
    const answer = await this.#http.request(path, {
      method,
      expect: expected,
      ...(body === undefined ? {} : { json: body }),
    });
    return { code: answer.status, body: answer.body };
  }
}

function outcome(code: number): CreateOutcome {
  return code === 201 ? "created" : code === 409 ? "exists" : "missing";
}

function sid(id: string): string {
  if (!isSessionId(id)) throw new TypeError(`Invalid session id: ${JSON.stringify(id)}`);
  return id;
}

function aid(id: string): string {
  if (!isSessionId(id)) throw new TypeError(`Invalid agent id: ${JSON.stringify(id)}`);
  return id;
}

function mid(id: number): number {
  if (!isMessageId(id)) throw new TypeError(`Invalid message id: ${id}`);
  return id;
}

function agentPath(sessionId: string, agentId: string): string {
  return `/hub/sessions/${sid(sessionId)}/agents/${aid(agentId)}`;
}
