/**
 * F1 of issue 34: `fetch_url` stays on the public internet. A real HTTP(S) server on
 * 127.0.0.1 stands for a public site (`public.test`, resolved by an injected resolver
 * to a public address that is routed to it) and redirects wherever a row asks; names
 * resolve to private addresses through the same resolver, and `localhost` through the
 * system's.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { gzipSync } from "node:zlib";
import { fetchUrl } from "./builtin.ts";
import { resolvePaths } from "../paths.ts";
import { tempDir } from "../../tests/_temp_dir.ts";
import { fetchPublic, type FetchPublicOptions, type ResolvedAddress } from "./_public_fetch.ts";
import { toToolSet } from "./tool.ts";
import { freePort } from "../../tests/_port.ts";
import { UNTRUSTED_NOTE } from "./untrusted.ts";

// A self-signed certificate for public.test (valid to 2126), trusted only by these tests.
const CERT = `-----BEGIN CERTIFICATE-----
MIIBmDCCAT6gAwIBAgIULCfpbtWQF2wDkexblIWAhnVAPoowCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLcHVibGljLnRlc3QwIBcNMjYxMTI5MDQwMjI3WhgPMjEyNjEx
MDUwNDAyMjdaMBYxFDASBgNVBAMMC3B1YmxpYy50ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAEqOxH2Tk7l3K7EBscv4C0LjHw0QHHE0qVfNwXSTU8nkVGt8UP
Ds+OR5oy5rnH+Ps5Jfr1Y5aHccBKrfraTYBzcKNoMGYwHQYDVR0OBBYEFJMLc5vw
ZOh0sw7ujWojcFSO90o/MB8GA1UdIwQYMBaAFJMLc5vwZOh0sw7ujWojcFSO90o/
MBYGA1UdEQQPMA2CC3B1YmxpYy50ZXN0MAwGA1UdEwEB/wQCMAAwCgYIKoZIzj0E
AwIDSAAwRQIhAKecnfmQyJlvueVgQ9fswAcG4WibFn+9LgSEu/2W2hrJAiBClgK2
qPVyjyOsKu5mUaXyHqjOxDnpTM2w4PRBJcfxaQ==
-----END CERTIFICATE-----
`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgbZ2nK7zSzTr8awFZ
qY8LE4V/85VFI51L8aUF8rZ4pGChRANCAASo7EfZOTuXcrsQGxy/gLQuMfDRAccT
SpV83BdJNTyeRUa3xQ8Oz45HmjLmucf4+zkl+vVjlodxwEqt+tpNgHNw
-----END PRIVATE KEY-----
`;

/** The public address the resolver gives `public.test`; connections to it go to loopback. */
const PUBLIC = "93.184.215.14";
const OTHER_PUBLIC = "93.184.215.15";

/** The redirector: a page, redirects by query, chains, a gzip body and a long one. */
function handler(request: Request): Response {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  if (url.pathname === "/page") return new Response(`hello from ${host}`);
  if (url.pathname === "/to") {
    return new Response(null, { status: 302, headers: { location: url.searchParams.get("u")! } });
  }
  const chain = url.pathname.match(/^\/chain\/(\d+)$/);
  if (chain) {
    const n = Number(chain[1]);
    return n === 0
      ? new Response("end of the chain")
      : new Response(null, { status: 307, headers: { location: `/chain/${n - 1}` } });
  }
  if (url.pathname === "/gzip") {
    return new Response(new Uint8Array(gzipSync(Buffer.from("packed text"))), {
      headers: { "content-encoding": "gzip", "content-type": "text/plain" },
    });
  }
  if (url.pathname === "/turkish") {
    // "Şişli" in ISO-8859-9.
    return new Response(new Uint8Array([0xde, 0x69, 0xfe, 0x6c, 0x69]), {
      headers: { "content-type": "text/plain; charset=iso-8859-9" },
    });
  }
  if (url.pathname === "/big") return new Response("é".repeat(25_000));
  return new Response("not found", { status: 404 });
}

/** A resolver for the test's names: the system's is asked for none of them. */
function resolver(): (hostname: string) => Promise<ResolvedAddress[]> {
  let rebinds = 0;
  const table: Record<string, string[]> = {
    "public.test": [PUBLIC],
    "other.test": [OTHER_PUBLIC],
    "ten.test": ["10.1.2.3"],
    "lan.test": ["192.168.1.20"],
    "corp.test": ["172.20.0.5"],
    "meta.test": ["169.254.169.254"],
    "ula.test": ["fd00::1"],
    "ll6.test": ["fe80::1"],
    "mapped.test": ["::ffff:127.0.0.1"],
    "mapped-meta.test": ["::ffff:169.254.169.254"],
    "cgnat.test": ["100.64.0.1"],
    "zero.test": ["0.0.0.0"],
    "zero6.test": ["::"],
    "mixed.test": [PUBLIC, "192.168.1.1"],
  };
  return (hostname: string): Promise<ResolvedAddress[]> => {
    // A name that answers public first and loopback the next time (DNS rebinding).
    if (hostname === "rebind.test") {
      const address = rebinds++ === 0 ? PUBLIC : "127.0.0.1";
      return Promise.resolve([{ address, family: 4 }]);
    }
    const found = table[hostname];
    if (found === undefined) return Promise.reject(new Error("getaddrinfo ENOTFOUND"));
    return Promise.resolve(
      found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };
}

type Row = [
  name: string,
  url: string,
  expected: { text: string; url?: string } | { error: string },
  options?: Partial<FetchPublicOptions>,
];

Deno.test("fetchPublic() refuses private addresses on every hop and follows redirects on the approved host", async () => {
  const plain = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const tls = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: CERT, key: KEY, onListen() {} },
    handler,
  );
  const closedPort = freePort();
  const P = plain.addr.port;
  const T = tls.addr.port;
  const pub = `http://public.test:${P}`;
  const to = (target: string) => `${pub}/to?u=${encodeURIComponent(target)}`;
  const only = "and fetch_url reaches public addresses only";
  const rows: Row[] = [
    // Public pages: the Host header and the TLS name stay the URL's host.
    ["a public page", `${pub}/page`, { text: `hello from public.test:${P}` }],
    ["https to the checked address", `https://public.test:${T}/page`, {
      text: `hello from public.test:${T}`,
    }],
    ["a relative redirect on the same host", `${pub}/to?u=/page`, {
      text: `hello from public.test:${P}`,
      url: `${pub}/page`,
    }],
    ["five redirects", `${pub}/chain/5`, { text: "end of the chain" }],
    ["a gzip body", `${pub}/gzip`, { text: "packed text" }],
    ["a charset", `${pub}/turkish`, { text: "Şişli" }],
    // Addresses spelt out.
    ["loopback", `http://127.0.0.1:${P}/page`, {
      error: `Cannot fetch http://127.0.0.1:${P}/page: 127.0.0.1 is a loopback address, ${only}`,
    }],
    ["loopback in decimal", `http://2130706433:${P}/page`, {
      error: `Cannot fetch http://127.0.0.1:${P}/page: 127.0.0.1 is a loopback address, ${only}`,
    }],
    ["IPv6 loopback", `http://[::1]:${P}/page`, {
      error: `Cannot fetch http://[::1]:${P}/page: ::1 is a loopback address, ${only}`,
    }],
    ["IPv4-mapped loopback", `http://[::ffff:127.0.0.1]:${P}/page`, {
      error:
        `Cannot fetch http://[::ffff:7f00:1]:${P}/page: ::ffff:7f00:1 is a loopback address, ${only}`,
    }],
    ["unspecified", `http://0.0.0.0:${P}/page`, {
      error: `Cannot fetch http://0.0.0.0:${P}/page: 0.0.0.0 is an unspecified address, ${only}`,
    }],
    ["the metadata service", "http://169.254.169.254/latest/meta-data/", {
      error:
        `Cannot fetch http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a link-local address, ${only}`,
    }],
    // Names that resolve to private addresses.
    ["localhost (the system's resolver)", `http://localhost:${P}/page`, {
      error:
        `Cannot fetch http://localhost:${P}/page: localhost is at 127.0.0.1, a loopback address, ${only}`,
    }, { lookup: undefined }],
    ["10/8", "http://ten.test/", {
      error: `Cannot fetch http://ten.test/: ten.test is at 10.1.2.3, a private address, ${only}`,
    }],
    ["192.168/16", "http://lan.test/", {
      error:
        `Cannot fetch http://lan.test/: lan.test is at 192.168.1.20, a private address, ${only}`,
    }],
    ["172.16/12", "http://corp.test/", {
      error:
        `Cannot fetch http://corp.test/: corp.test is at 172.20.0.5, a private address, ${only}`,
    }],
    ["169.254/16", "http://meta.test/latest/", {
      error:
        `Cannot fetch http://meta.test/latest/: meta.test is at 169.254.169.254, a link-local address, ${only}`,
    }],
    ["fc00::/7", "http://ula.test/", {
      error:
        `Cannot fetch http://ula.test/: ula.test is at fd00::1, a unique local address, ${only}`,
    }],
    ["fe80::/10", "http://ll6.test/", {
      error: `Cannot fetch http://ll6.test/: ll6.test is at fe80::1, a link-local address, ${only}`,
    }],
    ["IPv4-mapped in DNS", "http://mapped.test/", {
      error:
        `Cannot fetch http://mapped.test/: mapped.test is at ::ffff:127.0.0.1, a loopback address, ${only}`,
    }],
    ["IPv4-mapped metadata", "http://mapped-meta.test/", {
      error:
        `Cannot fetch http://mapped-meta.test/: mapped-meta.test is at ::ffff:169.254.169.254, a link-local address, ${only}`,
    }],
    ["100.64/10", "http://cgnat.test/", {
      error:
        `Cannot fetch http://cgnat.test/: cgnat.test is at 100.64.0.1, a carrier-grade NAT address, ${only}`,
    }],
    ["0.0.0.0 in DNS", "http://zero.test/", {
      error:
        `Cannot fetch http://zero.test/: zero.test is at 0.0.0.0, an unspecified address, ${only}`,
    }],
    [":: in DNS", "http://zero6.test/", {
      error:
        `Cannot fetch http://zero6.test/: zero6.test is at ::, an unspecified address, ${only}`,
    }],
    ["one private address among public ones", "http://mixed.test/", {
      error:
        `Cannot fetch http://mixed.test/: mixed.test is at 192.168.1.1, a private address, ${only}`,
    }],
    ["no address", "http://nowhere.test/", {
      error: "Cannot fetch http://nowhere.test/: nowhere.test has no address",
    }],
    ["not http", "ftp://public.test/x", {
      error: "Cannot fetch ftp://public.test/x: only http and https URLs can be fetched",
    }],
    // Redirects from the approved public page.
    ["a redirect to loopback", to(`http://127.0.0.1:${P}/page`), {
      error: `Cannot fetch http://127.0.0.1:${P}/page: 127.0.0.1 is a loopback address, ${only}`,
    }],
    ["a redirect to the metadata service", to("http://169.254.169.254/latest/meta-data/"), {
      error:
        `Cannot fetch http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a link-local address, ${only}`,
    }],
    ["a redirect to a name on the LAN", to("http://lan.test/admin"), {
      error:
        `Cannot fetch http://lan.test/admin: lan.test is at 192.168.1.20, a private address, ${only}`,
    }],
    ["a redirect to localhost", to(`http://localhost:${P}/page`), {
      error:
        `Cannot fetch http://localhost:${P}/page: localhost is at 127.0.0.1, a loopback address, ${only}`,
    }, { lookup: (host) => host === "localhost" ? systemLocalhost() : resolver()(host) }],
    ["a redirect to another public host", to(`http://other.test:${P}/page`), {
      error: `Cannot fetch ${
        to(`http://other.test:${P}/page`)
      }: it redirects to http://other.test:${P}/page, on another host than the one the owner approved (public.test); fetch http://other.test:${P}/page itself to ask the owner`,
    }],
    ["the same name rebound to loopback", `http://rebind.test:${P}/to?u=/page`, {
      error:
        `Cannot fetch http://rebind.test:${P}/page: rebind.test is at 127.0.0.1, a loopback address, ${only}`,
    }],
    ["six redirects", `${pub}/chain/6`, {
      error: `Cannot fetch ${pub}/chain/1: it redirects more than 5 times`,
    }],
    ["a redirect to another scheme", to("file:///etc/passwd"), {
      error: `Cannot fetch ${
        to("file:///etc/passwd")
      }: it redirects to something that is not an http or https URL`,
    }],
    // Failures are sentences too.
    ["a certificate for another name", `https://other.test:${T}/page`, {
      error:
        `Cannot fetch https://other.test:${T}/page: the secure connection failed (the certificate does not check out)`,
    }],
    ["a refused connection", `http://localhost:${closedPort}/`, {
      error: `Cannot fetch http://localhost:${closedPort}/: the server refused the connection`,
    }, { allowPrivate: true, lookup: undefined }],
    // [tools] fetch_private = true: the owner's own machine and LAN.
    ["opted in: localhost", `http://localhost:${P}/page`, { text: `hello from localhost:${P}` }, {
      allowPrivate: true,
      lookup: undefined,
    }],
    ["opted in: a loopback redirect on the same host", `http://127.0.0.1:${P}/to?u=/page`, {
      text: `hello from 127.0.0.1:${P}`,
    }, { allowPrivate: true }],
    ["opted in: still not another host", to(`http://127.0.0.1:${P}/page`), {
      error: `Cannot fetch ${
        to(`http://127.0.0.1:${P}/page`)
      }: it redirects to http://127.0.0.1:${P}/page, on another host than the one the owner approved (public.test); fetch http://127.0.0.1:${P}/page itself to ask the owner`,
    }, { allowPrivate: true }],
  ];
  try {
    for (const [name, url, expected, extra] of rows) {
      const options: FetchPublicOptions = {
        lookup: resolver(),
        route: (
          address,
        ) => (address === PUBLIC || address === OTHER_PUBLIC ? "127.0.0.1" : address),
        ca: [CERT],
        timeoutMs: 5_000,
        ...extra,
      };
      const got = await fetchPublic(url, options).then(
        (page) => ({ text: page.text, url: page.url, status: page.status }),
        (error: Error) => ({ error: error.message, stack: error.stack }),
      );
      if ("error" in expected) {
        assert.equal((got as { error?: string }).error, expected.error, name);
      } else {
        assert.equal(
          (got as { text?: string }).text,
          expected.text,
          `${name}: ${JSON.stringify(got)}`,
        );
        if (expected.url) assert.equal((got as { url: string }).url, expected.url, name);
      }
    }
  } finally {
    await plain.shutdown();
    await tls.shutdown();
  }
});

function systemLocalhost(): Promise<ResolvedAddress[]> {
  return Promise.resolve([{ address: "127.0.0.1", family: 4 }]);
}

Deno.test("fetchPublic() cuts a long page by characters and says so", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    const page = await fetchPublic(`http://127.0.0.1:${server.addr.port}/big`, {
      allowPrivate: true,
      maxChars: 20_000,
    });
    assert.equal(page.text, "é".repeat(20_000));
    assert.equal(page.truncated, true);
    assert.equal(page.status, 200);
  } finally {
    await server.shutdown();
  }
});

Deno.test("fetch_url names the host to approve, honours [tools] fetch_private and answers in one sentence", async () => {
  using tmp = tempDir();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const url = `http://127.0.0.1:${server.addr.port}/page`;
  const run = (settings: { fetch_private: boolean }, env: Record<string, string> = {}) =>
    toToolSet([fetchUrl], {
      context: { paths: resolvePaths({ home: tmp.path, env: {} }), env, settings },
    }).fetch_url!.execute!({ url }, { toolCallId: "1", messages: [] } as never);
  try {
    assert.equal(
      fetchUrl.describe!({ url: "https://good.example@evil.example/x" }, "en"),
      "The agent wants to fetch a page from evil.example: https://good.example@evil.example/x.",
    );
    assert.equal(
      fetchUrl.describe!({ url: "https://example.com/a" }, "tr"),
      "Ajan example.com sitesinden bir sayfa getirmek istiyor: https://example.com/a.",
    );
    assert.deepEqual(await run({ fetch_private: false }), {
      error:
        `Cannot fetch ${url}: 127.0.0.1 is a loopback address, and fetch_url reaches public addresses only`,
    });
    assert.deepEqual(await run({ fetch_private: false }, { AGENT_LANG: "tr" }), {
      error:
        `${url} getirilemiyor: 127.0.0.1 yerel döngü (loopback) bir adres ve fetch_url yalnızca herkese açık adreslere ulaşır`,
    });
    const page = await run({ fetch_private: true }) as Record<string, unknown>;
    assert.deepEqual(page, {
      url,
      status: 200,
      content_type: "text/plain;charset=UTF-8",
      untrusted: UNTRUSTED_NOTE,
      text: `hello from 127.0.0.1:${server.addr.port}`,
      truncated: false,
    });
  } finally {
    await server.shutdown();
  }
});
