/**
 * Who may use the dashboard: `agent dashboard` asks the hub (with the control token)
 * for a one-time code, hands it to the browser in the URL fragment (never sent to a
 * server, never in a log), and the page trades it once, within 60 s, for a session
 * token it keeps in `sessionStorage` and sends in the `X-Agent-Session` header.
 *
 * Why not a cookie: a browser sends a cookie for `127.0.0.1` to every port of
 * `127.0.0.1`, so any local process that got a page opened on its port (a link in a
 * model's answer, a hop through another site) received the dashboard's session and could
 * act with it. `sessionStorage` belongs to the origin (scheme, host and port), and a
 * header goes only where the page's own script sends it: no other port ever receives it.
 *
 * Locally the session lives in this hub's memory: a restarted hub has forgotten every
 * session. Behind a cloud spine the session is signed (`signed_session.ts`) so that it
 * outlives the container's sleep. Each session also carries a CSRF token, handed only to
 * a request that already holds the session token, and asked for on every write.
 *
 * @module
 */
import { b64uEncode, DASHBOARD_SESSION_HEADER, timingSafeEqual } from "@agent/net";
import { readSignedSession, signSession } from "./signed_session.ts";

/** A signed-in browser. */
export interface DashboardSession {
  /** The session token the page sends in `X-Agent-Session`. */
  id: string;
  /** Sent back in `X-CSRF-Token` on every `POST`. */
  csrf: string;
  expiresAt: number;
}

/** Options for {@linkcode DashboardAuth}. */
export interface DashboardAuthOptions {
  now?: () => number;
  /** How long a code may wait to be traded. @default 60000 */
  codeTtlMs?: number;
  /** How long a session lasts. @default 43200000 (12 h) */
  sessionTtlMs?: number;
  /**
   * Sign sessions with this key instead of keeping them in memory alone, so a restarted
   * process still knows them (the brain behind a cloud spine). Sign-outs are kept in
   * memory until the session would have ended.
   */
  signingKey?: string;
}

function randomToken(): string {
  return b64uEncode(crypto.getRandomValues(new Uint8Array(32)));
}

/** One-time codes and the sessions they became. */
export class DashboardAuth {
  #codes = new Map<string, number>();
  #sessions = new Map<string, DashboardSession>();
  /** Signed sessions signed out, until they expire. */
  #ended = new Map<string, number>();
  #key: string | undefined;
  #now: () => number;
  #codeTtl: number;
  #sessionTtl: number;

  constructor(options: DashboardAuthOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#codeTtl = options.codeTtlMs ?? 60_000;
    this.#sessionTtl = options.sessionTtlMs ?? 12 * 3600_000;
    this.#key = options.signingKey;
  }

  /** A fresh code that {@linkcode exchange} accepts once within the code lifetime. */
  issueCode(): string {
    this.#sweep();
    const code = randomToken();
    this.#codes.set(code, this.#now() + this.#codeTtl);
    return code;
  }

  /**
   * Trades `code` for a new session; `undefined` for an unknown, used or expired code.
   * A code is gone after its first try, whatever the outcome.
   */
  exchange(code: string): DashboardSession | undefined {
    this.#sweep();
    let found: number | undefined;
    for (const [known, expiresAt] of this.#codes) {
      // Constant time per comparison: the code is a secret.
      if (timingSafeEqual(known, code)) found = expiresAt;
    }
    if (found === undefined) return undefined;
    this.#codes.delete(code);
    if (found < this.#now()) return undefined;
    const expiresAt = this.#now() + this.#sessionTtl;
    if (this.#key !== undefined) return signSession(this.#key, randomToken(), expiresAt);
    const session = { id: randomToken(), csrf: randomToken(), expiresAt };
    this.#sessions.set(session.id, session);
    return session;
  }

  /**
   * The live session the request's `X-Agent-Session` header names. Nothing else counts:
   * a cookie, a query parameter or a bearer token names no session.
   */
  session(request: Request): DashboardSession | undefined {
    const id = request.headers.get(DASHBOARD_SESSION_HEADER)?.trim();
    if (!id) return undefined;
    let found: DashboardSession | undefined;
    if (this.#key !== undefined) {
      found = readSignedSession(this.#key, id);
      if (found !== undefined && this.#ended.has(found.id)) return undefined;
    } else {
      for (const [known, session] of this.#sessions) {
        if (timingSafeEqual(known, id)) found = session;
      }
    }
    if (found === undefined || found.expiresAt < this.#now()) return undefined;
    return found;
  }

  /** Whether the request's `X-CSRF-Token` is the session's. */
  csrfMatches(request: Request, session: DashboardSession): boolean {
    return timingSafeEqual(request.headers.get("x-csrf-token") ?? "", session.csrf);
  }

  /** Ends a session (sign out). */
  end(session: DashboardSession): void {
    this.#sessions.delete(session.id);
    if (this.#key !== undefined) this.#ended.set(session.id, session.expiresAt);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [code, expiresAt] of this.#codes) if (expiresAt < now) this.#codes.delete(code);
    for (const [id, s] of this.#sessions) if (s.expiresAt < now) this.#sessions.delete(id);
    for (const [id, expiresAt] of this.#ended) if (expiresAt < now) this.#ended.delete(id);
  }
}
