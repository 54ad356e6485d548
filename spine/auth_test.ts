import assert from "node:assert/strict";
import { requireBearer, timingSafeEqual } from "./auth.ts";
import { HttpError } from "@agent/net";

function codeOf(authorization: string | undefined, token: string | undefined): string {
  const headers = authorization === undefined ? {} : { authorization };
  try {
    requireBearer(new Request("https://spine.example/hub/health", { headers }), token);
    return "ok";
  } catch (error) {
    assert.ok(error instanceof HttpError);
    return `${error.status} ${error.code}`;
  }
}

Deno.test("timingSafeEqual() compares whole strings", () => {
  assert.ok(timingSafeEqual("secret", "secret"));
  assert.ok(!timingSafeEqual("secret", "secreT"));
  assert.ok(!timingSafeEqual("secret", "secret2"));
  assert.ok(!timingSafeEqual("", "x"));
  assert.ok(timingSafeEqual("", ""));
});

Deno.test("requireBearer() answers 503 not_configured without HUB_TOKEN", () => {
  assert.deepEqual(codeOf("Bearer x", undefined), "503 not_configured");
  assert.deepEqual(codeOf("Bearer x", ""), "503 not_configured");
});

Deno.test("requireBearer() matches the scheme case-insensitively and the token exactly", () => {
  assert.deepEqual(codeOf("Bearer tok", "tok"), "ok");
  assert.deepEqual(codeOf("bearer tok", "tok"), "ok");
  assert.deepEqual(codeOf("BEARER  tok ", "tok"), "ok");
  for (
    const bad of [
      undefined,
      "",
      "Bearer",
      "Bearer ",
      "Basic tok",
      "tok",
      "Bearer tok2",
      "Bearer to",
      "Bearer TOK",
      "Bearer tok x",
    ]
  ) {
    assert.deepEqual(codeOf(bad, "tok"), "401 unauthorized", String(bad));
  }
});
