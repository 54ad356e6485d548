import assert from "node:assert/strict";
import type { RateLimit } from "@cloudflare/workers-types/index.ts";
import { clientIpKey, resetLimitNotices, withinLimit } from "./rate_limit.ts";

Deno.test("clientIpKey() keeps IPv4 and counts IPv6 by its /64", () => {
  assert.deepEqual(clientIpKey("203.0.113.9"), "203.0.113.9");
  assert.deepEqual(clientIpKey("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
  assert.deepEqual(clientIpKey("2001:0DB8:0001:0002::ffff"), "2001:db8:1:2::/64");
  assert.deepEqual(clientIpKey("2001:db8::1"), "2001:db8:0:0::/64");
  assert.deepEqual(clientIpKey("::1"), "0:0:0:0::/64");
  assert.deepEqual(clientIpKey("fe80::1%eth0"), "fe80:0:0:0::/64");
  assert.deepEqual(clientIpKey("::ffff:198.51.100.7"), "198.51.100.7");
  assert.deepEqual(clientIpKey("2001:db8:1:2::1.2.3.4"), "2001:db8:1:2::/64");
  // Two hosts of one /64 share a key; another /64 does not.
  assert.deepEqual(
    clientIpKey("2001:db8:a:b:1::"),
    clientIpKey("2001:db8:a:b:ffff:ffff:ffff:ffff"),
  );
  assert.deepEqual(clientIpKey("2001:db8:a:c::1") === clientIpKey("2001:db8:a:b::1"), false);
});

function binding(outcome: boolean | Error): RateLimit & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    limit(options: { key: string }) {
      keys.push(options.key);
      if (outcome instanceof Error) return Promise.reject(outcome);
      return Promise.resolve({ success: outcome });
    },
  };
}

Deno.test("withinLimit() passes the key and returns the binding's verdict", async () => {
  resetLimitNotices();
  const lines: string[] = [];
  const ok = binding(true);
  assert.deepEqual(
    await withinLimit(ok, "INBOX_IP_LIMIT", "ip:1.2.3.4", (l) => lines.push(l)),
    true,
  );
  assert.deepEqual(ok.keys, ["ip:1.2.3.4"]);
  assert.deepEqual(
    await withinLimit(binding(false), "INBOX_IP_LIMIT", "k", (l) => lines.push(l)),
    false,
  );
  assert.deepEqual(lines, []);
});

Deno.test("withinLimit() skips an unbound or throwing binding and logs each once", async () => {
  resetLimitNotices();
  const lines: string[] = [];
  const log = (l: string) => lines.push(l);
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(await withinLimit(undefined, "INBOX_IP_LIMIT", "k", log), true);
    assert.deepEqual(await withinLimit(undefined, "INBOX_SENDER_LIMIT", "k", log), true);
    assert.deepEqual(
      await withinLimit(binding(new Error("down")), "INBOX_IP_LIMIT", "k", log),
      true,
    );
    // A binding of the wrong kind throws when called.
    assert.deepEqual(
      await withinLimit("x" as unknown as RateLimit, "INBOX_SENDER_LIMIT", "k", log),
      true,
    );
  }
  assert.deepEqual(lines.map((l) => l.split(":")[0] + " " + l.split(" ")[1]), [
    "rate_limit_unbound INBOX_IP_LIMIT",
    "rate_limit_unbound INBOX_SENDER_LIMIT",
    "rate_limit_failed INBOX_IP_LIMIT",
    "rate_limit_failed INBOX_SENDER_LIMIT",
  ]);
});
