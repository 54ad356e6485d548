/**
 * `Authentication-Results` (RFC 8601) read: the receiving server's word on who sent a
 * mail. A `From:` header is text anyone can write; what counts is what the server that
 * took the mail in checked (DKIM, SPF, DMARC) and wrote down under its own name, the
 * authserv-id. Headers under any other name are ignored: a sender can add their own.
 *
 * A border server removes headers that claim its name before it adds its own (RFC 8601
 * section 5), and adds its own on top, so for each method the topmost result under our
 * authserv-id is the one taken; a forged one further down loses to it.
 *
 * @module
 */

/** One method's result (`dkim=pass header.d=example.com`). */
export interface AuthResult {
  /** `dkim`, `spf`, `dmarc`, ... (lower case, version dropped). */
  method: string;
  /** `pass`, `fail`, `none`, ... (lower case). */
  result: string;
  /** Properties by `ptype.property` (`header.d`, `smtp.mailfrom`), values as written. */
  props: Record<string, string>;
}

/** One header: whose it is and what it says. */
export interface AuthResultsHeader {
  /** The authserv-id, lower case. */
  authservId: string;
  results: AuthResult[];
}

/**
 * Removes RFC 5322 comments (nested parentheses, `\` escapes) outside quoted strings.
 *
 * @example
 * ```ts
 * import { stripComments } from "./auth_results.ts";
 * const s = stripComments('mx (our (inner) host); dkim=pass "a (b)"');
 * if (s !== 'mx  ; dkim=pass "a (b)"') throw new Error(s);
 * ```
 */
export function stripComments(text: string): string {
  let out = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && (quoted || depth > 0)) {
      if (depth === 0) out += c + (text[i + 1] ?? "");
      i++;
      continue;
    }
    if (depth === 0 && c === '"') quoted = !quoted;
    if (!quoted && c === "(") {
      depth++;
      continue;
    }
    if (!quoted && c === ")" && depth > 0) {
      depth--;
      if (depth === 0) out += " ";
      continue;
    }
    if (depth === 0) out += c;
  }
  return out;
}

/** Splits at `;` outside quoted strings. */
function splitSemicolons(text: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ";" && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function unquote(value: string): string {
  return value.startsWith('"') && value.endsWith('"') && value.length >= 2
    ? value.slice(1, -1).replace(/\\(.)/g, "$1")
    : value;
}

const PAIR = /([A-Za-z0-9_.\/-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s";]+)/g;

/**
 * Reads one header's value; `undefined` when it has no authserv-id.
 *
 * @example
 * ```ts
 * import { parseAuthResults } from "./auth_results.ts";
 * const h = parseAuthResults(
 *   "mx.example.net 1; dkim=pass (2048-bit key) header.d=Example.com header.s=s1; spf=fail smtp.mailfrom=x.org",
 * )!;
 * if (h.authservId !== "mx.example.net") throw new Error(h.authservId);
 * if (h.results[0]!.props["header.d"] !== "Example.com" || h.results[1]!.result !== "fail") {
 *   throw new Error(JSON.stringify(h));
 * }
 * ```
 */
export function parseAuthResults(value: string): AuthResultsHeader | undefined {
  const [head = "", ...rest] = splitSemicolons(stripComments(value.replace(/\r?\n[ \t]/g, " ")));
  // The authserv-id, then an optional version number.
  const id = head.trim().match(/^("(?:[^"\\]|\\.)*"|[^\s"]+)(\s+\d+)?\s*$/);
  if (id === null) return undefined;
  const results: AuthResult[] = [];
  for (const part of rest) {
    const pairs = [...part.matchAll(PAIR)];
    const first = pairs[0];
    if (first === undefined) continue; // "none", or nothing readable
    const method = first[1]!.toLowerCase().split("/")[0]!;
    if (method.includes(".")) continue; // a property with no method before it
    const props: Record<string, string> = {};
    for (const pair of pairs.slice(1)) {
      const key = pair[1]!.toLowerCase();
      if (key === "reason" || !key.includes(".")) continue;
      props[key] = unquote(pair[2]!);
    }
    results.push({ method, result: unquote(first[2]!).toLowerCase(), props });
  }
  return { authservId: unquote(id[1]!).toLowerCase(), results };
}

/**
 * For each method, the results of the topmost header under `authservId` that reports
 * that method (headers in the order they appear in the mail, top first).
 */
export function resultsFor(
  headers: readonly string[],
  authservId: string,
): Map<string, AuthResult[]> {
  const want = authservId.trim().toLowerCase();
  const byMethod = new Map<string, AuthResult[]>();
  for (const value of headers) {
    const header = parseAuthResults(value);
    if (header === undefined || header.authservId !== want) continue;
    const here = new Map<string, AuthResult[]>();
    for (const result of header.results) {
      here.set(result.method, [...(here.get(result.method) ?? []), result]);
    }
    for (const [method, results] of here) {
      if (!byMethod.has(method)) byMethod.set(method, results);
    }
  }
  return byMethod;
}

/** The domain part of an address or a bare domain, lower case, without a trailing dot. */
function domainOf(value: string): string {
  const at = value.lastIndexOf("@");
  return (at >= 0 ? value.slice(at + 1) : value).trim().toLowerCase().replace(/\.$/, "");
}

/**
 * Whether a signing domain speaks for `fromDomain`: the same domain, or a parent of it
 * with at least two labels (`example.com` signs for `mail.example.com`; `com` signs for
 * nothing).
 *
 * @example
 * ```ts
 * import { aligned } from "./auth_results.ts";
 * if (!aligned("example.com", "mail.example.com") || !aligned("Example.COM", "example.com")) {
 *   throw new Error();
 * }
 * if (aligned("com", "example.com") || aligned("evil-example.com", "example.com")) throw new Error();
 * ```
 */
export function aligned(signer: string, fromDomain: string): boolean {
  const d = domainOf(signer);
  const from = domainOf(fromDomain);
  if (d === "" || !d.includes(".")) return false;
  return from === d || from.endsWith(`.${d}`);
}

/** Why the server's word does or does not prove the sender. */
export type AuthVerdict = "dkim" | "spf+dmarc" | "none";

/**
 * What the headers prove about `fromAddress`: `dkim` (a passing signature of its domain
 * or a parent), `spf+dmarc` (SPF and DMARC both passed, DMARC for this From domain), or
 * `none`.
 *
 * @example
 * ```ts
 * import { authVerdict } from "./auth_results.ts";
 * const ok = authVerdict(["mx.test; dkim=pass header.d=example.com"], "mx.test", "me@example.com");
 * const other = authVerdict(["evil.test; dkim=pass header.d=example.com"], "mx.test", "me@example.com");
 * if (ok !== "dkim" || other !== "none") throw new Error(`${ok} ${other}`);
 * ```
 */
export function authVerdict(
  headers: readonly string[],
  authservId: string,
  fromAddress: string,
): AuthVerdict {
  const fromDomain = domainOf(fromAddress);
  const results = resultsFor(headers, authservId);
  const dkim = results.get("dkim") ?? [];
  if (
    dkim.some((r) =>
      r.result === "pass" && aligned(r.props["header.d"] ?? r.props["header.i"] ?? "", fromDomain)
    )
  ) return "dkim";
  const spf = (results.get("spf") ?? []).some((r) => r.result === "pass");
  const dmarc = (results.get("dmarc") ?? []).some((r) => {
    if (r.result !== "pass") return false;
    const from = r.props["header.from"];
    return from === undefined || domainOf(from) === fromDomain;
  });
  return spf && dmarc ? "spf+dmarc" : "none";
}
