import { assert, assertEquals, assertRejects } from "./_test_assert.ts";
import { b64uEncode } from "./b64u.ts";
import {
  generateIdentity,
  identityFromEnv,
  identityFromJson,
  identityToEnv,
  identityToJson,
} from "./identity.ts";

Deno.test("generateIdentity() makes distinct 32-byte keys", async () => {
  const a = await generateIdentity();
  const b = await generateIdentity();
  assertEquals(a.signKeyBytes.length, 32);
  assertEquals(a.boxKeyBytes.length, 32);
  assertEquals(a.signKey, b64uEncode(a.signKeyBytes));
  assert(a.signKey !== b.signKey && a.boxKey !== b.boxKey);
  assertEquals(a.signPrivateKey.extractable, false);
  assertEquals(a.boxPrivateKey.extractable, false);
});

Deno.test("identityToJson() and identityFromJson() round-trip", async () => {
  const a = await generateIdentity();
  const json = identityToJson(a);
  assertEquals(Object.keys(json), ["v", "sign_seed", "box_seed"]);
  const b = await identityFromJson(json);
  const c = await identityFromJson(JSON.stringify(json));
  assertEquals(b.signKey, a.signKey);
  assertEquals(c.boxKey, a.boxKey);
});

Deno.test("identityFromEnv() reads b64u JSON with or without padding", async () => {
  const a = await generateIdentity();
  const env = identityToEnv(a);
  assertEquals((await identityFromEnv(env)).signKey, a.signKey);
  const padded = env + "=".repeat((4 - (env.length % 4)) % 4);
  assertEquals((await identityFromEnv(padded)).boxKey, a.boxKey);
});

Deno.test("identityFromJson() rejects bad shapes", async () => {
  const a = identityToJson(await generateIdentity());
  await assertRejects(() => identityFromJson("{"), TypeError, "not JSON");
  await assertRejects(() => identityFromJson([]), TypeError);
  await assertRejects(() => identityFromJson({ ...a, v: 2 }), TypeError, "'v'");
  await assertRejects(() => identityFromJson({ ...a, sign_seed: "AAAA" }), TypeError, "sign_seed");
  await assertRejects(() => identityFromJson({ ...a, box_seed: 5 }), TypeError, "box_seed");
  await assertRejects(() => identityFromEnv("not base64!"), TypeError, "AGENT_NET_IDENTITY");
});
