import assert from "node:assert/strict";
import { callError } from "./call_errors.ts";

function notFound(): Error {
  return Object.assign(new Error("model: not_found_error"), { statusCode: 404 });
}

Deno.test("callError(): a missing model says 'pull it' only for the local model server", () => {
  const hosted = callError("en", notFound(), "brain", {
    provider: "vendor-b",
    model_id: "gpt-5.2",
  } as never, { reason: undefined, attempts: 4 });
  assert.match(
    hosted.sentence,
    /^The model 'gpt-5\.2' is not available at vendor-b .*; check model_id of brain in agent\.toml against the provider's model list\.$/,
  );
  assert.ok(!hosted.sentence.includes("pull"));
  const local = callError("en", notFound(), "local", {
    provider: "local-runtime",
    model_id: "qwen3:4b",
  } as never, { reason: undefined, attempts: 4 });
  assert.match(local.sentence, /; pull it or change model_id of local in agent\.toml\.$/);
});
