import assert from "node:assert/strict";
import { ADDRESS_PATTERN, baseUrlFor, isAddress, schemeFor, splitTarget } from "./address.ts";

Deno.test("isAddress() accepts hosts and host:port in lower case", () => {
  for (const ok of ["a", "bob.example.com", "127.0.0.1:8787", "localhost", "x-1.y-2.z:65535"]) {
    assert.deepEqual(isAddress(ok), true, ok);
  }
});

Deno.test("isAddress() rejects upper case, schemes, paths, bad labels and ports", () => {
  const bad = [
    "",
    "Bob.example",
    "https://bob.example",
    "bob.example/",
    "-bob.example",
    "bob-.example",
    "bob..example",
    "bob.example.",
    "bob.example:",
    "bob.example:123456",
    "bob.example:0",
    "bob.example:65536",
    "a".repeat(64),
    "bob example",
    ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(63)].join("."),
  ];
  for (const b of bad) assert.deepEqual(isAddress(b), false, b);
  assert.deepEqual(isAddress(42), false);
  assert.deepEqual(ADDRESS_PATTERN.test("a".repeat(63)), true);
});

Deno.test("schemeFor() uses http only for loopback hosts when insecure peers are allowed", () => {
  assert.deepEqual(schemeFor("localhost:8787", true), "http");
  assert.deepEqual(schemeFor("127.0.0.1", true), "http");
  assert.deepEqual(schemeFor("localhost:8787", false), "https");
  assert.deepEqual(schemeFor("127.0.0.2:8787", true), "https");
  assert.deepEqual(schemeFor("localhost.example", true), "https");
  assert.deepEqual(schemeFor("bob.example", true), "https");
});

Deno.test("baseUrlFor() builds the spine's base URL and rejects non-addresses", () => {
  assert.deepEqual(baseUrlFor("127.0.0.1:8787", true), "http://127.0.0.1:8787");
  assert.deepEqual(baseUrlFor("bob.example", true), "https://bob.example");
  assert.throws(() => baseUrlFor("evil.example/path", true), TypeError);
});

Deno.test("splitTarget() splits address and sub-agent name", () => {
  assert.deepEqual(splitTarget("bob.example"), { address: "bob.example" });
  assert.deepEqual(splitTarget("bob.example:443/chef"), {
    address: "bob.example:443",
    sub: "chef",
  });
  assert.deepEqual(splitTarget("bob.example/C"), undefined);
  assert.deepEqual(splitTarget("bob.example/"), undefined);
  assert.deepEqual(splitTarget("Bob.example/chef"), undefined);
});
