/**
 * Agent addresses (the host of an agent's spine) and the scheme rule for reaching them.
 *
 * @module
 */

/**
 * An agent address: `host` or `host:port`, lower case.
 *
 * @example
 * ```ts
 * import { ADDRESS_PATTERN } from "./address.ts";
 * if (!ADDRESS_PATTERN.test("bob.example.com")) throw new Error("should match");
 * ```
 */
export const ADDRESS_PATTERN: RegExp =
  /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[0-9]{1,5})?$/;

// Hosts that may be reached over plain http, and only when insecure peers are allowed.
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1"]);

/**
 * Whether `value` is a valid agent address (a string matching {@linkcode ADDRESS_PATTERN},
 * at most 253 characters of host and a port from 1 to 65535 when given).
 *
 * @example
 * ```ts
 * import { isAddress } from "./address.ts";
 * if (!isAddress("127.0.0.1:8787") || isAddress("Bob.example")) throw new Error("wrong");
 * ```
 */
export function isAddress(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 259 || !ADDRESS_PATTERN.test(value)) {
    return false;
  }
  const colon = value.indexOf(":");
  const host = colon === -1 ? value : value.slice(0, colon);
  if (host.length > 253) return false;
  if (colon !== -1) {
    const port = Number(value.slice(colon + 1));
    if (port < 1 || port > 65535) return false;
  }
  return true;
}

/** The host part of an address (without the port). */
export function hostOf(address: string): string {
  const colon = address.indexOf(":");
  return colon === -1 ? address : address.slice(0, colon);
}

/**
 * The scheme used to reach `address`: `http` only for `localhost` or `127.0.0.1` when
 * insecure peers are allowed (`ALLOW_INSECURE_PEERS=1` on a spine,
 * `AGENT_NET_ALLOW_INSECURE=1` on a hub), `https` for everything else.
 *
 * @example
 * ```ts
 * import { schemeFor } from "./address.ts";
 * if (schemeFor("127.0.0.1:8787", true) !== "http") throw new Error("loopback");
 * if (schemeFor("127.0.0.1:8787", false) !== "https") throw new Error("not allowed");
 * if (schemeFor("example.com", true) !== "https") throw new Error("never http");
 * ```
 */
export function schemeFor(address: string, allowInsecure: boolean): "http" | "https" {
  return allowInsecure && LOOPBACK_HOSTS.has(hostOf(address)) ? "http" : "https";
}

/**
 * The base URL of an agent's spine, `<scheme>://<address>` (no trailing slash).
 *
 * @throws {TypeError} when `address` is not a valid address.
 * @example
 * ```ts
 * import { baseUrlFor } from "./address.ts";
 * if (baseUrlFor("bob.example", false) !== "https://bob.example") throw new Error("wrong");
 * ```
 */
export function baseUrlFor(address: string, allowInsecure: boolean): string {
  if (!isAddress(address)) {
    throw new TypeError(`Cannot build a URL: '${String(address).slice(0, 80)}' is not an address`);
  }
  return `${schemeFor(address, allowInsecure)}://${address}`;
}

/**
 * Splits what a person writes, `<address>` or `<address>/<name>`, into the address and
 * the optional sub-agent name. Returns `undefined` when either part is invalid.
 *
 * @example
 * ```ts
 * import { splitTarget } from "./address.ts";
 * const t = splitTarget("bob.example/chef");
 * if (t?.address !== "bob.example" || t.sub !== "chef") throw new Error("wrong");
 * ```
 */
export function splitTarget(text: string): { address: string; sub?: string } | undefined {
  const slash = text.indexOf("/");
  if (slash === -1) return isAddress(text) ? { address: text } : undefined;
  const address = text.slice(0, slash);
  const sub = text.slice(slash + 1);
  if (!isAddress(address) || !SUB_PATTERN.test(sub)) return undefined;
  return { address, sub };
}

/** A sub-agent name: `^[a-z][a-z0-9-]{1,30}$`. */
export const SUB_PATTERN: RegExp = /^[a-z][a-z0-9-]{1,30}$/;
