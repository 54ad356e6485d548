/**
 * What kind of address an IP is, for `fetch_url`: a page the model asks for must be on
 * the public internet unless the owner opted into their LAN, and a name or a redirect
 * can lead anywhere (`127.0.0.1`, the cloud's metadata service at `169.254.169.254`, a
 * router at `192.168.1.1`). IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`,
 * the old compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by
 * the IPv4 address inside.
 *
 * @module
 */

/** The kinds of address; only `public` is reached without `[tools] fetch_private`. */
export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link_local"
  | "cgnat"
  | "unique_local"
  | "unspecified"
  | "multicast"
  | "reserved"
  | "invalid";

/** IPv4 ranges that are not public: first address as a number, prefix length, kind. */
const V4_RANGES: readonly [base: number, bits: number, kind: AddressKind][] = [
  [v4(0, 0, 0, 0), 8, "unspecified"],
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "cgnat"],
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link_local"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 0, 0, 0), 24, "reserved"],
  [v4(192, 0, 2, 0), 24, "reserved"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(198, 18, 0, 0), 15, "reserved"],
  [v4(198, 51, 100, 0), 24, "reserved"],
  [v4(203, 0, 113, 0), 24, "reserved"],
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(240, 0, 0, 0), 4, "reserved"],
];

function v4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

/**
 * The kind of `address` (an IPv4 dotted quad or an IPv6 address, brackets and a zone
 * allowed); `invalid` when it is neither.
 *
 * @example
 * ```ts
 * import { addressKind } from "./_address.ts";
 * if (addressKind("169.254.169.254") !== "link_local") throw new Error();
 * if (addressKind("[::ffff:127.0.0.1]") !== "loopback") throw new Error();
 * if (addressKind("fd00::1") !== "unique_local") throw new Error();
 * if (addressKind("93.184.215.14") !== "public") throw new Error();
 * ```
 */
export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const four = parseV4(bare);
  if (four !== undefined) return v4Kind(four);
  const six = parseV6(bare);
  return six === undefined ? "invalid" : v6Kind(six);
}

function v4Kind(n: number): AddressKind {
  for (const [base, bits, kind] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if (((n & mask) >>> 0) === base) return kind;
  }
  return n === 0xffffffff ? "reserved" : "public";
}

function v6Kind(g: readonly number[]): AddressKind {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const inner = () => ((g[6]! << 16) >>> 0) + g[7]!;
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  // IPv4-mapped (::ffff:0:0/96) and the deprecated IPv4-compatible (::/96).
  if (zeros(0, 5) && g[5] === 0xffff) return v4Kind(inner());
  if (zeros(0, 6)) return v4Kind(inner());
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address too.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4Kind(inner());
  if (g[0] === 0x2002) return v4Kind(((g[1]! << 16) >>> 0) + g[2]!);
  const first = g[0]!;
  if ((first & 0xffc0) === 0xfe80) return "link_local";
  if ((first & 0xffc0) === 0xfec0) return "private";
  if ((first & 0xfe00) === 0xfc00) return "unique_local";
  if ((first & 0xff00) === 0xff00) return "multicast";
  if (first === 0x2001 && g[1] === 0x0db8) return "reserved";
  if (first === 0x0100 && zeros(1, 4)) return "reserved";
  return "public";
}

/** A dotted quad as a number; `undefined` for anything else. */
function parseV4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    n = n * 256 + Number(part);
  }
  return n;
}

/** An IPv6 address as eight 16-bit groups; `undefined` for anything else. */
function parseV6(text: string): number[] | undefined {
  if (!text.includes(":")) return undefined;
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) is two groups written another way.
  const lastColon = text.lastIndexOf(":");
  const quad = parseV4(text.slice(lastColon + 1));
  const hex = quad === undefined
    ? text
    : `${text.slice(0, lastColon + 1)}${(quad >>> 16).toString(16)}:${
      (quad & 0xffff).toString(16)
    }`;
  const halves = hex.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...head, ...rest].some((w) => !/^[0-9a-fA-F]{1,4}$/.test(w))) return undefined;
  const count = head.length + rest.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const words = (part: string[]) => part.map((w) => parseInt(w, 16));
  return [...words(head), ...new Array<number>(8 - count).fill(0), ...words(rest)];
}
