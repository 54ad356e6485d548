import assert from "node:assert/strict";
import { HttpError } from "@agent/net";
import { cloudMount, DASHBOARD_ORIGIN_HEADER, localMount } from "./mount.ts";

Deno.test("localMount(): the own origin is http://<Host>", () => {
  const mount = localMount();
  const req = new Request("http://127.0.0.1:8790/dashboard/", {
    headers: { host: "127.0.0.1:8790" },
  });
  assert.equal(mount.origin(req), "http://127.0.0.1:8790");
  assert.deepEqual([mount.base, mount.command, mount.sessionKey], [
    "/dashboard",
    "agent dashboard",
    undefined,
  ]);
});

Deno.test("cloudMount(): only the spine's own origin is answered; sessions are signed", () => {
  const mount = cloudMount("https://agent.example.com/", "hub-token");
  const at = (origin?: string) =>
    new Request("http://brain/hub/dashboard/", {
      headers: origin === undefined ? {} : { [DASHBOARD_ORIGIN_HEADER]: origin },
    });
  assert.equal(mount.origin(at("https://agent.example.com")), "https://agent.example.com");
  for (const other of [undefined, "http://agent.example.com", "https://x.workers.dev", ""]) {
    assert.throws(
      () => mount.origin(at(other)),
      (e) => e instanceof HttpError && e.status === 403,
      String(other),
    );
  }
  assert.equal(mount.base, "/hub/dashboard");
  assert.equal(mount.command, "agent dashboard --cloud");
  // The sessions' key comes from the hub token and is not the token.
  assert.match(mount.sessionKey ?? "", /^[\w-]{43}$/);
  assert.notEqual(mount.sessionKey, cloudMount("https://agent.example.com", "other").sessionKey);
});
