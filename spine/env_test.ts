import assert from "node:assert/strict";
import { insecurePeersAllowed, ownAddress, spineMode } from "./env.ts";
import { fullCard } from "./hub_api.ts";
import { isCloudOnlyPath } from "./cloud/routes.ts";

Deno.test("ownAddress() is ADDRESS when set, else the request host", () => {
  const url = new URL("http://127.0.0.1:8787/net/inbox");
  assert.deepEqual(ownAddress({ ADDRESS: "agent.example" }, url), "agent.example");
  assert.deepEqual(ownAddress({ ADDRESS: "" }, url), "127.0.0.1:8787");
  assert.deepEqual(ownAddress({}, new URL("https://Agent.Example/")), "agent.example");
});

Deno.test("spineMode() is cloud only for AGENT_MODE=cloud", () => {
  assert.deepEqual(spineMode({ AGENT_MODE: "cloud" }), "cloud");
  for (const value of [undefined, "", "local", "Cloud", "x"]) {
    assert.deepEqual(spineMode(value === undefined ? {} : { AGENT_MODE: value }), "local");
  }
  assert.deepEqual(insecurePeersAllowed({ ALLOW_INSECURE_PEERS: "1" }), true);
  assert.deepEqual(insecurePeersAllowed({ ALLOW_INSECURE_PEERS: "true" }), false);
});

Deno.test("isCloudOnlyPath() names the state, files, sessions and brain routes", () => {
  for (
    const p of [
      "/hub/state/net.log",
      "/hub/files",
      "/hub/files/agent.toml",
      "/hub/sessions",
      "/hub/sessions/a/meta",
      "/hub/brain",
      "/hub/jobs/claim",
    ]
  ) {
    assert.deepEqual(isCloudOnlyPath(p), true, p);
  }
  for (const p of ["/hub/health", "/hub/card", "/hub/filesx", "/hub/brains", "/hub/updates"]) {
    assert.deepEqual(isCloudOnlyPath(p), false, p);
  }
});

Deno.test("fullCard() adds address, inbox (scheme rule) and software", () => {
  const stored = { name: "A", sign_key: "k", box_key: "b" };
  assert.deepEqual(
    fullCard(stored, "127.0.0.1:8787", true).inbox,
    "http://127.0.0.1:8787/net/inbox",
  );
  assert.deepEqual(
    fullCard(stored, "127.0.0.1:8787", false).inbox,
    "https://127.0.0.1:8787/net/inbox",
  );
  assert.deepEqual(fullCard(stored, "agent.example", true), {
    v: 1,
    address: "agent.example",
    name: "A",
    sign_key: "k",
    box_key: "b",
    inbox: "https://agent.example/net/inbox",
    software: "agent-spine/0.1.0",
  });
});
