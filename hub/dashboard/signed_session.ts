/**
 * Sessions that outlive the process: behind a cloud spine the brain's container sleeps
 * after a quiet quarter of an hour and starts again on the next request, which would
 * forget every session kept in memory. A signed session carries its own proof instead:
 * the session token is `<random>.<expiry>.<mac>`, the MAC an HMAC-SHA256 under a key
 * derived from the hub token, and the CSRF token another MAC of the same random part. A
 * new hub token voids them all.
 *
 * @module
 */
import { createHmac } from "node:crypto";
import { timingSafeEqual } from "@agent/net";

/** What a signed session value says. */
export interface SignedSession {
  /** The session token (`X-Agent-Session`). */
  id: string;
  csrf: string;
  expiresAt: number;
}

function mac(key: string, text: string): string {
  return createHmac("sha256", key).update(text).digest("base64url");
}

/** The key sessions are signed with, derived from the hub token (never the token itself). */
export function sessionKeyFrom(hubToken: string): string {
  return mac(hubToken, "agent dashboard sessions/1");
}

/** A session for `random` (a fresh random token) that ends at `expiresAt` (epoch ms). */
export function signSession(key: string, random: string, expiresAt: number): SignedSession {
  const body = `${random}.${expiresAt.toString(36)}`;
  return { id: `${body}.${mac(key, body)}`, csrf: mac(key, `csrf:${random}`), expiresAt };
}

/**
 * The session a token names when its MAC is right (compared in constant time),
 * whatever its expiry; `undefined` for anything else.
 *
 * @example
 * ```ts
 * import { readSignedSession, signSession } from "./signed_session.ts";
 * const s = signSession("k", "r4nd0m-0123456789", 1_000);
 * if (readSignedSession("k", s.id)?.csrf !== s.csrf) throw new Error();
 * if (readSignedSession("other key", s.id) !== undefined) throw new Error();
 * ```
 */
export function readSignedSession(key: string, value: string): SignedSession | undefined {
  const parts = value.split(".");
  if (parts.length !== 3) return undefined;
  const [random, expiry, given] = parts as [string, string, string];
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(random) || !/^[0-9a-z]{1,12}$/.test(expiry)) return undefined;
  if (!timingSafeEqual(mac(key, `${random}.${expiry}`), given)) return undefined;
  return signSession(key, random, parseInt(expiry, 36));
}
