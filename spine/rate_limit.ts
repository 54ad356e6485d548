import type { RateLimit } from "@cloudflare/workers-types/index.ts";

/** Where the rate-limit notices go; each notice is written once per binding. */
export interface LimitLog {
  /** Writes one line. */
  (line: string): void;
}

const noticed = new Set<string>();

/**
 * The key an IP is counted under: an IPv4 address as is, an IPv6 address by its /64
 * (so one host cannot dodge the limit by rotating through its own prefix). An
 * IPv4-mapped IPv6 address counts as the IPv4 address.
 *
 * @example
 * ```ts
 * import { clientIpKey } from "./rate_limit.ts";
 * if (clientIpKey("2001:db8:7:8::1") !== clientIpKey("2001:db8:7:8:ffff::2")) throw new Error();
 * if (clientIpKey("203.0.113.9") !== "203.0.113.9") throw new Error();
 * ```
 */
export function clientIpKey(ip: string): string {
  const text = ip.trim().toLowerCase();
  if (!text.includes(":")) return text;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped) return mapped[1]!;
  const groups = expandIpv6(text.split("%", 1)[0]!);
  if (!groups) return text;
  return `${groups.slice(0, 4).join(":")}::/64`;
}

function expandIpv6(text: string): string[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  // An embedded IPv4 tail takes two groups.
  const last = tail.length ? tail : head;
  if (last.length && last[last.length - 1]!.includes(".")) {
    last.pop();
    last.push("0", "0");
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 && missing !== 0) return undefined;
  if (halves.length === 2 && missing < 0) return undefined;
  const groups = [...head, ...Array<string>(Math.max(missing, 0)).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => g.replace(/^0+(?=.)/, ""));
}

/**
 * Asks a rate-limit binding whether `key` may pass. A missing binding, or one that
 * throws, lets the request through and logs `rate_limit_unbound` or
 * `rate_limit_failed` once per binding name.
 */
export async function withinLimit(
  binding: RateLimit | undefined,
  name: string,
  key: string,
  log: LimitLog,
): Promise<boolean> {
  if (binding === undefined || binding === null) {
    noticeOnce(`rate_limit_unbound`, name, log);
    return true;
  }
  try {
    const outcome = await binding.limit({ key });
    return outcome.success;
  } catch {
    noticeOnce(`rate_limit_failed`, name, log);
    return true;
  }
}

function noticeOnce(code: string, name: string, log: LimitLog): void {
  const id = `${code} ${name}`;
  if (noticed.has(id)) return;
  noticed.add(id);
  log(
    `${code}: ${name} is ${
      code === "rate_limit_unbound" ? "not bound" : "failing"
    }; the check is skipped`,
  );
}

/** Forgets which notices were written (tests only). */
export function resetLimitNotices(): void {
  noticed.clear();
}
