import assert from "node:assert/strict";
import { aligned, authVerdict, parseAuthResults, resultsFor } from "./auth_results.ts";
import { judge } from "./trust.ts";

const ID = "mx.example.net";

Deno.test("parseAuthResults() reads RFC 8601's examples: version, comments, none, quoted values", () => {
  assert.deepEqual(parseAuthResults("example.org 1; none"), {
    authservId: "example.org",
    results: [],
  });
  const h = parseAuthResults(
    'example.com;\r\n    spf=pass (good (nested) comment) smtp.mailfrom="user@example.net";\r\n' +
      '    dkim=pass reason="good signature" header.i=@mail-router.example.net;\r\n' +
      '    dkim=fail reason="bad signature" header.i=@newyork.example.com',
  )!;
  assert.equal(h.authservId, "example.com");
  assert.deepEqual(h.results, [
    { method: "spf", result: "pass", props: { "smtp.mailfrom": "user@example.net" } },
    { method: "dkim", result: "pass", props: { "header.i": "@mail-router.example.net" } },
    { method: "dkim", result: "fail", props: { "header.i": "@newyork.example.com" } },
  ]);
  assert.equal(parseAuthResults("   ")?.authservId, undefined);
  assert.equal(parseAuthResults('"quoted.id" ; dmarc=pass')?.authservId, "quoted.id");
});

Deno.test("resultsFor() takes, per method, the topmost header under the authserv-id only", () => {
  const results = resultsFor([
    `${ID}; dkim=fail header.d=example.com`,
    "evil.example; dkim=pass header.d=example.com; spf=pass",
    `${ID.toUpperCase()}; dkim=pass header.d=example.com; spf=pass smtp.mailfrom=example.com`,
  ], ID);
  assert.deepEqual(results.get("dkim")?.map((r) => r.result), ["fail"]);
  assert.deepEqual(results.get("spf")?.map((r) => r.result), ["pass"]);
});

Deno.test("authVerdict() wants an aligned passing DKIM, or SPF and DMARC for the From domain", () => {
  const from = "me@mail.example.com";
  assert.equal(authVerdict([`${ID}; dkim=pass header.d=example.com`], ID, from), "dkim");
  assert.equal(authVerdict([`${ID}; dkim=pass header.i=@mail.example.com`], ID, from), "dkim");
  // A signature of someone else's domain proves nothing about this sender.
  assert.equal(authVerdict([`${ID}; dkim=pass header.d=other.org`], ID, from), "none");
  assert.equal(authVerdict([`${ID}; dkim=pass header.d=ample.com`], ID, "me@example.com"), "none");
  assert.equal(
    authVerdict([`${ID}; spf=pass; dmarc=pass header.from=mail.example.com`], ID, from),
    "spf+dmarc",
  );
  // SPF alone, or DMARC for another From domain, is not enough.
  assert.equal(authVerdict([`${ID}; spf=pass smtp.mailfrom=mail.example.com`], ID, from), "none");
  assert.equal(
    authVerdict([`${ID}; spf=pass; dmarc=pass header.from=other.org`], ID, from),
    "none",
  );
  assert.equal(authVerdict([], ID, from), "none");
  assert.equal(aligned("co", "x.co"), false);
});

const SETTINGS = {
  address: "agent@example.org",
  owner: "me@example.com",
  allowed_senders: ["bob@example.net"],
  authserv_id: ID,
  trust_from: false,
};
const PROVEN = [`${ID}; dkim=pass header.d=example.com`];

Deno.test("judge() refuses no sender, itself, machines, strangers and the unproven", () => {
  const mail = (address: string | undefined, authResults = PROVEN, automatic = false) => ({
    from: address === undefined ? undefined : { address, name: "" },
    authResults,
    automatic,
  });
  assert.deepEqual(judge(mail(undefined), SETTINGS), {
    ok: false,
    sender: undefined,
    reason: "no_sender",
  });
  assert.equal((judge(mail("agent@example.org"), SETTINGS) as { reason: string }).reason, "self");
  assert.equal(
    (judge(mail("me@example.com", PROVEN, true), SETTINGS) as { reason: string }).reason,
    "automatic",
  );
  assert.equal(
    (judge(mail("x@example.com"), SETTINGS) as { reason: string }).reason,
    "unknown_sender",
  );
  assert.equal(
    (judge(mail("me@example.com", []), SETTINGS) as { reason: string }).reason,
    "unauthenticated",
  );
  assert.deepEqual(judge(mail("me@example.com"), SETTINGS), {
    ok: true,
    sender: "me@example.com",
    person: "owner",
    proof: "dkim",
  });
  const bob = judge(mail("bob@example.net", [`${ID}; dkim=pass header.d=example.net`]), SETTINGS);
  assert.deepEqual(bob, {
    ok: true,
    sender: "bob@example.net",
    person: "person:bob@example.net",
    proof: "dkim",
  });
  // trust_from skips the proof, never the other rules.
  const trusting = { ...SETTINGS, trust_from: true };
  assert.equal(
    (judge(mail("me@example.com", []), trusting) as { proof: string }).proof,
    "trust_from",
  );
  assert.equal(
    (judge(mail("x@example.com", []), trusting) as { reason: string }).reason,
    "unknown_sender",
  );
});
