/**
 * `fetch_url`'s GET, kept on the public internet. The owner approves one URL, so the
 * host is resolved here and every address it has is checked ({@linkcode addressKind}):
 * loopback, private, link-local, CGNAT, unique-local, unspecified and the IPv4-mapped
 * forms of these are refused unless `[tools] fetch_private` is on. The connection goes
 * to the address that was checked (Node's `http`/`https` with a `lookup` that returns
 * it), so a name cannot resolve again to somewhere else between check and connect,
 * while the `Host` header and the TLS name stay the URL's host. Redirects are followed
 * by hand, at most {@linkcode MAX_REDIRECTS}, each hop checked the same way, and a hop
 * to a host other than the approved one is refused (the model may fetch it, which asks
 * the owner about that host). Every refusal and failure is one sentence in the owner's
 * language, without an OS error or a stack.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { createGunzip, createInflate } from "node:zlib";
import type { Readable } from "node:stream";
import type { Lang } from "../i18n.ts";
import { addressKind } from "./_address.ts";
import { fetchRefusals, shown } from "./_messages.ts";

/** Redirects followed at most. */
export const MAX_REDIRECTS = 5;

/** The whole fetch, redirects and body included, gives up after this long. */
export const FETCH_TIMEOUT_MS = 15_000;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Why a page was not fetched; each has one sentence. */
export type FetchRefusal =
  | "scheme"
  | "not_public"
  | "not_public_ip"
  | "other_host"
  | "too_many"
  | "bad_redirect"
  | "no_address"
  | "refused"
  | "timeout"
  | "tls"
  | "failed";

/** `fetch_url` did not fetch a page; the message is the sentence for the model. */
export class FetchRefusedError extends Error {
  override name = "FetchRefusedError";
  /** Why. */
  readonly reason: FetchRefusal;

  /** One sentence for `reason`, with `vars` (`url`, `host`, `address`, ...). */
  constructor(reason: FetchRefusal, lang: Lang, vars: Record<string, string | number>) {
    super(fetchRefusals(lang, reason, vars));
    this.reason = reason;
  }
}

/** Options for {@linkcode fetchPublic}. */
export interface FetchPublicOptions {
  /** `[tools] fetch_private`: private, loopback and link-local addresses are reached too. @default false */
  allowPrivate?: boolean | undefined;
  /** The language of refusals. @default "en" */
  lang?: Lang | undefined;
  /** Resolves a host name to every address it has. @default the system resolver (`getaddrinfo`) */
  lookup?: ((hostname: string) => Promise<ResolvedAddress[]>) | undefined;
  /**
   * Where a connection to a checked address really goes. Tests put a loopback server
   * behind an address that stands for a public one. @default the address itself
   */
  route?: ((address: string) => string) | undefined;
  /** Extra trusted certificates (PEM), for tests. @default none */
  ca?: string[] | undefined;
  /** @default FETCH_TIMEOUT_MS */
  timeoutMs?: number | undefined;
  /** Characters of text kept; the rest is cut. @default 20_000 */
  maxChars?: number | undefined;
  /** @default "agent/0.1 (+fetch_url tool)" */
  userAgent?: string | undefined;
}

/** A fetched page. */
export interface FetchedPage {
  /** The last URL (after redirects). */
  url: string;
  status: number;
  contentType: string | null;
  text: string;
  /** The page had more than `maxChars` characters. */
  truncated: boolean;
}

/**
 * GETs `url`, following redirects by hand on its own host, refusing addresses that
 * are not public (unless allowed).
 *
 * @example
 * ```ts
 * import { FetchRefusedError, fetchPublic } from "./_public_fetch.ts";
 * const refused = await fetchPublic("http://169.254.169.254/latest/meta-data/").catch((e) => e);
 * if (!(refused instanceof FetchRefusedError) || refused.reason !== "not_public_ip") throw refused;
 * ```
 */
export async function fetchPublic(
  url: string | URL,
  options: FetchPublicOptions = {},
): Promise<FetchedPage> {
  const lang = options.lang ?? "en";
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = new URL(url);
  const approved = current.hostname;
  for (let hop = 0;; hop++) {
    const vars = { url: shown(current.href, 120), host: shown(current.hostname, 80) };
    if (current.protocol !== "http:" && current.protocol !== "https:") {
      throw new FetchRefusedError("scheme", lang, vars);
    }
    // Every hop is resolved and checked again: a name may answer otherwise the second
    // time (DNS rebinding), and a redirect may name a private address outright.
    const address = await checkedAddress(current, options, lang, vars);
    if (current.hostname !== approved) {
      throw new FetchRefusedError("other_host", lang, {
        url: shown(url.toString(), 120),
        target: shown(current.href, 120),
        approved: shown(approved, 80),
      });
    }
    let response: IncomingMessage;
    try {
      response = await get(current, address, options, signal);
    } catch (error) {
      throw failure(error, signal, lang, { ...vars, seconds: Math.round(timeoutMs / 1000) });
    }
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined) {
      try {
        return await page(current, response, options, signal);
      } catch (error) {
        throw failure(error, signal, lang, { ...vars, seconds: Math.round(timeoutMs / 1000) });
      }
    }
    response.destroy();
    if (hop >= MAX_REDIRECTS) {
      throw new FetchRefusedError("too_many", lang, { ...vars, max: MAX_REDIRECTS });
    }
    let next: URL | undefined;
    try {
      next = new URL(location, current);
    } catch {
      next = undefined;
    }
    if (next === undefined || (next.protocol !== "http:" && next.protocol !== "https:")) {
      throw new FetchRefusedError("bad_redirect", lang, vars);
    }
    current = next;
  }
}

/** The address to connect to: every address of the host checked, the first one used. */
async function checkedAddress(
  url: URL,
  options: FetchPublicOptions,
  lang: Lang,
  vars: Record<string, string>,
): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let found: ResolvedAddress[];
  const literal = isIP(host) !== 0;
  if (literal) {
    found = [{ address: host, family: isIP(host) }];
  } else {
    try {
      found = await (options.lookup ?? systemLookup)(host);
    } catch {
      found = [];
    }
  }
  if (found.length === 0) throw new FetchRefusedError("no_address", lang, vars);
  if (!options.allowPrivate) {
    // Every address, not only the first: a name with one public and one private
    // address could be answered either way by the next resolver.
    for (const { address } of found) {
      const kind = addressKind(address);
      if (kind !== "public") {
        throw new FetchRefusedError(literal ? "not_public_ip" : "not_public", lang, {
          ...vars,
          address,
          kind: fetchRefusals(lang, `kind_${kind}`),
        });
      }
    }
  }
  return found[0]!;
}

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  return await dnsLookup(hostname, { all: true, verbatim: true });
}

/** One GET on a fresh connection to `address` (never a pooled one). */
function get(
  url: URL,
  address: ResolvedAddress,
  options: FetchPublicOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const target = options.route?.(address.address) ?? address.address;
  const family = isIP(target) || address.family;
  // The pinned lookup: Node asks it (for a host name) instead of the resolver.
  const lookup = (
    _host: string,
    opts: { all?: boolean } | ((...args: unknown[]) => void),
    callback?: (...args: unknown[]) => void,
  ) => {
    const done = typeof opts === "function" ? opts : callback!;
    if (typeof opts === "object" && opts.all) done(null, [{ address: target, family }]);
    else done(null, target, family);
  };
  const secure = url.protocol === "https:";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const request = (secure ? https : http).request({
    method: "GET",
    // A host name goes through the pinned lookup; an IP literal is the checked address.
    host: isIP(host) === 0 ? host : target,
    port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    agent: false,
    lookup,
    signal,
    ...(secure && isIP(host) === 0 ? { servername: host } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
    headers: {
      host: url.host,
      "user-agent": options.userAgent ?? "agent/0.1 (+fetch_url tool)",
      accept: "text/html, text/plain, application/json;q=0.9, */*;q=0.8",
      "accept-encoding": "gzip, deflate",
    },
  } as http.RequestOptions);
  return new Promise((resolve, reject) => {
    request.once("response", resolve);
    request.once("error", reject);
    request.end();
  });
}

/** The response's text, decoded by its charset, cut to `maxChars`. */
async function page(
  url: URL,
  response: IncomingMessage,
  options: FetchPublicOptions,
  signal: AbortSignal,
): Promise<FetchedPage> {
  const maxChars = options.maxChars ?? 20_000;
  // Enough bytes for maxChars characters of any encoding, and one more to tell a cut.
  const maxBytes = maxChars * 4 + 4;
  const encoding = String(response.headers["content-encoding"] ?? "").trim().toLowerCase();
  let body: Readable = response;
  if (encoding === "gzip" || encoding === "x-gzip") body = response.pipe(createGunzip());
  else if (encoding === "deflate") body = response.pipe(createInflate());
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      signal.throwIfAborted();
      chunks.push(chunk as Buffer);
      total += (chunk as Buffer).length;
      if (total > maxBytes) break;
    }
  } finally {
    response.destroy();
    if (body !== response) body.destroy();
  }
  const bytes = Buffer.concat(chunks).subarray(0, maxBytes);
  const contentType = typeof response.headers["content-type"] === "string"
    ? response.headers["content-type"]
    : null;
  const text = decoderFor(contentType).decode(bytes);
  const chars = Array.from(text);
  return {
    url: url.href,
    status: response.statusCode ?? 0,
    contentType,
    text: chars.length > maxChars ? chars.slice(0, maxChars).join("") : text,
    truncated: chars.length > maxChars || total > maxBytes,
  };
}

function decoderFor(contentType: string | null): TextDecoder {
  const charset = contentType?.match(/charset\s*=\s*"?([^";\s]+)/i)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

/** The sentence for an error of the connection or the body. */
function failure(
  error: unknown,
  signal: AbortSignal,
  lang: Lang,
  vars: Record<string, string | number>,
): FetchRefusedError {
  if (error instanceof FetchRefusedError) return error;
  if (signal.aborted) return new FetchRefusedError("timeout", lang, vars);
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const message = error instanceof Error ? error.message : "";
  if (code === "ECONNREFUSED" || /refused/i.test(message)) {
    return new FetchRefusedError("refused", lang, vars);
  }
  if (code === "ETIMEDOUT" || code === "ABORT_ERR") {
    return new FetchRefusedError("timeout", lang, vars);
  }
  if (/CERT|TLS|SSL/i.test(code) || /certificate|tls|handshake/i.test(message)) {
    return new FetchRefusedError("tls", lang, vars);
  }
  return new FetchRefusedError("failed", lang, vars);
}
