import assert from "node:assert/strict";
import type { DurableObjectNamespace } from "@cloudflare/workers-types/index.ts";
import type { Env } from "./env.ts";
import { handleRequest } from "./router.ts";

const SECRET = "SQLITE_CORRUPT at /var/lib/mailbox: token=hunter2";

/** A Mailbox namespace whose every call fails with `SECRET`, as a broken store would. */
function brokenMailbox(): DurableObjectNamespace {
  return {
    idFromName: (name: string) => ({ name }),
    get: () => ({ fetch: () => Promise.reject(new Error(SECRET)) }),
  } as unknown as DurableObjectNamespace;
}

/** Runs `fn` with console.error caught; returns what it logged. */
async function logged(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void lines.push(args.join(" "));
  try {
    await fn();
  } finally {
    console.error = original;
  }
  return lines;
}

Deno.test("handleRequest() answers an internal failure 500 internal, its text in the log only", async () => {
  const env = { MAILBOX: brokenMailbox(), ADDRESS: "bob.example", HUB_TOKEN: "t" } as Env;
  const lines = await logged(async () => {
    for (
      const request of [
        new Request("https://bob.example/.well-known/agent.json"),
        new Request("https://bob.example/hub/health", { headers: { authorization: "Bearer t" } }),
      ]
    ) {
      const res = await handleRequest(request, env);
      const text = await res.text();
      assert.deepEqual([res.status, JSON.parse(text)], [500, { error: "internal" }], request.url);
      assert.ok(!text.includes("hunter2"), text);
    }
  });
  assert.deepEqual(lines, [`internal: ${SECRET}`, `internal: ${SECRET}`]);
});

Deno.test("handleRequest() keeps a bad card's field in the bad_request detail", async () => {
  const env = { MAILBOX: brokenMailbox(), ADDRESS: "bob.example", HUB_TOKEN: "t" } as Env;
  const res = await handleRequest(
    new Request("https://bob.example/hub/card", {
      method: "PUT",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify({ name: "" }),
    }),
    env,
  );
  assert.deepEqual([res.status, await res.json()], [400, {
    error: "bad_request",
    detail: "Bad card: 'name' must have 1 to 80 characters",
  }]);
});
