import assert from "node:assert/strict";
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
  assert.deepEqual(a.signKeyBytes.length, 32);
  assert.deepEqual(a.boxKeyBytes.length, 32);
  assert.deepEqual(a.signKey, b64uEncode(a.signKeyBytes));
  assert.ok(a.signKey !== b.signKey && a.boxKey !== b.boxKey);
  assert.deepEqual(a.signPrivateKey.extractable, false);
  assert.deepEqual(a.boxPrivateKey.extractable, false);
});

Deno.test("identityToJson() and identityFromJson() round-trip", async () => {
  const a = await generateIdentity();
  const json = identityToJson(a);
  assert.deepEqual(Object.keys(json), ["v", "sign_seed", "box_seed"]);
  const b = await identityFromJson(json);
  const c = await identityFromJson(JSON.stringify(json));
  assert.deepEqual(b.signKey, a.signKey);
  assert.deepEqual(c.boxKey, a.boxKey);
});

Deno.test("identityFromEnv() reads b64u JSON with or without padding", async () => {
  const a = await generateIdentity();
  const env = identityToEnv(a);
  assert.deepEqual((await identityFromEnv(env)).signKey, a.signKey);
  const padded = env + "=".repeat((4 - (env.length % 4)) % 4);
  assert.deepEqual((await identityFromEnv(padded)).boxKey, a.boxKey);
});

Deno.test("identityFromJson() rejects bad shapes", async () => {
  const a = identityToJson(await generateIdentity());
  await assert.rejects(
    () => identityFromJson("{"),
    (e: unknown) => e instanceof TypeError && e.message.includes("not JSON"),
  );
  await assert.rejects(() => identityFromJson([]), TypeError);
  await assert.rejects(
    () => identityFromJson({ ...a, v: 2 }),
    (e: unknown) => e instanceof TypeError && e.message.includes("'v'"),
  );
  await assert.rejects(
    () => identityFromJson({ ...a, sign_seed: "AAAA" }),
    (e: unknown) => e instanceof TypeError && e.message.includes("sign_seed"),
  );
  await assert.rejects(
    () => identityFromJson({ ...a, box_seed: 5 }),
    (e: unknown) => e instanceof TypeError && e.message.includes("box_seed"),
  );
  await assert.rejects(
    () => identityFromEnv("not base64!"),
    (e: unknown) => e instanceof TypeError && e.message.includes("AGENT_NET_IDENTITY"),
  );
});
