import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { requireBearer, timingSafeEqual } from "./auth.ts";
import { HttpError } from "@agent/net";

function codeOf(authorization: string | undefined, token: string | undefined): string {
  const headers = authorization === undefined ? {} : { authorization };
  try {
    requireBearer(new Request("https://spine.example/hub/health", { headers }), token);
    return "ok";
  } catch (error) {
    assert(error instanceof HttpError);
    return `${error.status} ${error.code}`;
  }
}

Deno.test("timingSafeEqual() compares whole strings", () => {
  assert(timingSafeEqual("secret", "secret"));
  assert(!timingSafeEqual("secret", "secreT"));
  assert(!timingSafeEqual("secret", "secret2"));
  assert(!timingSafeEqual("", "x"));
  assert(timingSafeEqual("", ""));
});

Deno.test("requireBearer() answers 503 not_configured without HUB_TOKEN", () => {
  assertEquals(codeOf("Bearer x", undefined), "503 not_configured");
  assertEquals(codeOf("Bearer x", ""), "503 not_configured");
});

Deno.test("requireBearer() matches the scheme case-insensitively and the token exactly", () => {
  assertEquals(codeOf("Bearer tok", "tok"), "ok");
  assertEquals(codeOf("bearer tok", "tok"), "ok");
  assertEquals(codeOf("BEARER  tok ", "tok"), "ok");
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
    assertEquals(codeOf(bad, "tok"), "401 unauthorized", String(bad));
  }
});
