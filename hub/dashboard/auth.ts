/**
 * Who may use the dashboard: `agent dashboard` asks the hub (with the control token)
 * for a one-time code, hands it to the browser in the URL fragment (never sent to a
 * server, never in a log), and the page trades it once, within 60 s, for a session
 * cookie (`HttpOnly`, `SameSite=Strict`) that lives in this hub's memory only: a
 * restarted hub has forgotten every session. Each session carries a CSRF token the
 * page sends back on every state-changing request. Behind a cloud spine the same
 * happens in the brain, with the cookie `Secure` and scoped to `/hub/dashboard`, and
 * the session signed (`signed_session.ts`) so that it outlives the container's sleep.
 *
 * @module
 */
import { b64uEncode, timingSafeEqual } from "@agent/net";
import { readSignedSession, signSession } from "./signed_session.ts";

/** A signed-in browser. */
export interface DashboardSession {
  id: string;
  /** Sent back in `X-CSRF-Token` on every `POST`. */
  csrf: string;
  expiresAt: number;
}

/** Options for {@linkcode DashboardAuth}. */
export interface DashboardAuthOptions {
  /** The session cookie's name (locally it carries the port: two hubs on one host keep apart). */
  cookieName: () => string;
  /** The cookie's `Path`. @default "/dashboard" */
  path?: string;
  /** Whether the cookie is `Secure` (served over https). @default false */
  secure?: boolean;
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
  #cookieName: () => string;
  #attributes: string;

  constructor(options: DashboardAuthOptions) {
    this.#now = options.now ?? Date.now;
    this.#codeTtl = options.codeTtlMs ?? 60_000;
    this.#sessionTtl = options.sessionTtlMs ?? 12 * 3600_000;
    this.#cookieName = options.cookieName;
    this.#key = options.signingKey;
    this.#attributes = `Path=${options.path ?? "/dashboard"}; HttpOnly;${
      options.secure ? " Secure;" : ""
    } SameSite=Strict`;
  }

  /** The session cookie's name. */
  get cookieName(): string {
    return this.#cookieName();
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

  /** The session the request's cookie names, if it is live. */
  session(request: Request): DashboardSession | undefined {
    const id = cookieValue(request.headers.get("cookie"), this.cookieName);
    if (id === undefined) return undefined;
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

  /** The `Set-Cookie` value that carries `session`. */
  cookie(session: DashboardSession): string {
    const maxAge = Math.max(0, Math.floor((session.expiresAt - this.#now()) / 1000));
    return `${this.cookieName}=${session.id}; ${this.#attributes}; Max-Age=${maxAge}`;
  }

  /** The `Set-Cookie` value that removes the cookie. */
  clearCookie(): string {
    return `${this.cookieName}=; ${this.#attributes}; Max-Age=0`;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [code, expiresAt] of this.#codes) if (expiresAt < now) this.#codes.delete(code);
    for (const [id, s] of this.#sessions) if (s.expiresAt < now) this.#sessions.delete(id);
    for (const [id, expiresAt] of this.#ended) if (expiresAt < now) this.#ended.delete(id);
  }
}

/** The value of cookie `name` in a `Cookie` header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
