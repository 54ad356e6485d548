import assert from "node:assert/strict";
import { spineUrlAllowed } from "./setup.ts";

Deno.test("spineUrlAllowed() takes https anywhere and http only on loopback names", () => {
  assert.deepEqual(
    [
      "https://spine.example",
      "http://127.0.0.1:8787",
      "http://localhost:8787",
      "http://spine.example",
      "http://10.0.0.2:8787",
      "ftp://127.0.0.1",
      "not a url",
    ].map(spineUrlAllowed),
    [true, true, true, false, false, false, false],
  );
});
