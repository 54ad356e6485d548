/**
 * `[sessions] backend = "spine"` (cloud mode): the {@linkcode SessionStore} over the
 * spine's session routes (`/hub/sessions/...`, bearer token). Ids are checked here
 * before anything is sent, as the file store checks them.
 *
 * @module
 */
import { isMessageId, isSessionId } from "@agent/net";
import {
  type CreateOutcome,
  messageRange,
  type SessionStore,
  type SessionSummary,
} from "./store.ts";

/** How long one request may take. */
const REQUEST_TIMEOUT_MS = 30_000;

/** A session store on the spine at `url`. */
export class SpineSessionStore implements SessionStore {
  #url: string;
  #token: string;
  #fetch: typeof fetch;

  /** The store on the spine at `url`, with the hub token. */
  constructor(url: string, token: string, options: { fetch?: typeof fetch } = {}) {
    this.#url = url.replace(/\/+$/, "");
    this.#token = token;
    this.#fetch = options.fetch ?? fetch;
  }

  /** Where the sessions are kept. */
  get where(): string {
    return `${this.#url}/hub/sessions`;
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
    const res = await this.#fetch(`${this.#url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.#token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    if (!expected.includes(res.status)) {
      let code = "";
      try {
        code = String((JSON.parse(text) as { error?: unknown }).error ?? "");
      } catch {
        // not JSON: the status says enough
      }
      throw new Error(
        `The spine's session store answered HTTP ${res.status}${
          code ? ` ${code}` : ""
        } to ${method} ${path.replace(/\?.*$/, "")}`,
      );
    }
    return { code: res.status, body: text ? JSON.parse(text) : undefined };
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
