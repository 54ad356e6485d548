import assert from "node:assert/strict";
import { sentLine } from "./_net_actions.ts";

const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z

Deno.test("sentLine() names a peer's rate limit with its retry time, not 'does not answer' (en, tr)", () => {
  const sent = {
    id: "abcdefghijklmnop",
    delivery: "pending" as const,
    later: { why: "rate_limited" as const, status: 429, code: "rate_limited", retry_at: NOW + 65 },
  };
  assert.equal(
    sentLine("en", "b.example", sent, NOW),
    "Not delivered yet: b.example's spine rate limits this agent (429 rate_limited, id abcdefghijklmnop); the outbox tries again in 65 s (at 00:01:05 UTC), for up to 24 hours (the hub, or `agent net poll --once`).",
  );
  assert.equal(
    sentLine("tr", "b.example", sent, NOW),
    "Henüz teslim edilmedi: b.example spine'ı bu ajana hız sınırı uyguluyor (429 rate_limited, id abcdefghijklmnop); giden kutusu 65 sn sonra (UTC 00:01:05) yeniden dener, en çok 24 saat (hub ya da `agent net poll --once`).",
  );
});

Deno.test("sentLine() names a peer's 5xx, and no answer as before (en, tr)", () => {
  const full = {
    id: "abcdefghijklmnop",
    delivery: "pending" as const,
    later: { why: "peer_error" as const, status: 503, code: "mailbox_full", retry_at: NOW + 5 },
  };
  assert.equal(
    sentLine("en", "b.example", full, NOW),
    "Not delivered yet: b.example's spine answered HTTP 503 mailbox_full (id abcdefghijklmnop); the outbox tries again in 5 s (at 00:00:05 UTC), for up to 24 hours (the hub, or `agent net poll --once`).",
  );
  assert.ok(
    sentLine("tr", "b.example", full, NOW).includes("HTTP 503 mailbox_full yanıtını verdi"),
  );
  const silent = {
    ...full,
    later: { why: "unreachable" as const, status: 0, code: "", retry_at: NOW + 5 },
  };
  assert.equal(
    sentLine("en", "b.example", silent, NOW),
    "Not delivered yet: b.example does not answer (id abcdefghijklmnop); the outbox tries again for 24 hours (the hub, or `agent net poll --once`).",
  );
  assert.equal(
    sentLine("en", "b.example", { id: "x", delivery: "queued" }, NOW),
    "Sent to b.example (id x).",
  );
});
