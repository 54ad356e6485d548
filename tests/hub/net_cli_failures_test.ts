/**
 * `agent net` on its failure paths: one sentence each, never a stack trace, and a
 * corrupted store document kept aside rather than lost.
 */
import assert from "node:assert/strict";
import { agent } from "../cli/_run.ts";
import { freePort } from "../_port.ts";
import { initHomeAt } from "../_init_home.ts";

const noTrace = (text: string) => !/\n\s+at |Stack backtrace|error: Uncaught/.test(text);

Deno.test("agent net failure paths: broken identity, missing token, spine down, corrupted contacts.json", async () => {
  const home = await Deno.makeTempDir({ prefix: "agent-net-fail-" });
  const env = {
    AGENT_SPINE_URL: `http://127.0.0.1:${freePort()}`,
    AGENT_SPINE_TOKEN: "t",
    AGENT_NET_ALLOW_INSECURE: "1",
  };
  const net = (args: string[], extra: Record<string, string> = {}) =>
    agent(["--home", home, "net", ...args], { env: { ...env, ...extra } });
  try {
    await initHomeAt(home);
    await Deno.mkdir(`${home}/data/net`, { recursive: true });
    await Deno.writeTextFile(`${home}/data/net/identity.json`, "garbage");
    let r = await net(["status"]);
    assert.deepEqual(r.code, 0, r.stderr);
    assert.ok(
      r.stdout.startsWith("identity: unreadable: Cannot load the network identity:"),
      r.stdout,
    );
    assert.ok(r.stdout.includes(`spine: ${env.AGENT_SPINE_URL} (not checked without an identity)`));
    r = await net(["publish"]);
    assert.deepEqual(r.code, 1);
    assert.ok(
      r.stderr.startsWith("Cannot load the network identity:") && noTrace(r.stderr),
      r.stderr,
    );
    r = await net(["send", "b.example", "hi"], { AGENT_NET_IDENTITY: "zzz" });
    assert.deepEqual([r.code, noTrace(r.stderr)], [1, true], r.stderr);

    await Deno.remove(`${home}/data/net/identity.json`);
    assert.deepEqual((await net(["init"])).code, 0);
    r = await net(["status"], { AGENT_SPINE_TOKEN: "" });
    assert.ok(r.stdout.includes("spine: not configured (missing AGENT_SPINE_TOKEN)"), r.stdout);
    // What is missing is worded in the user's language, not left in English.
    r = await net(["send", "b.example", "hi"], {
      AGENT_LANG: "tr",
      AGENT_SPINE_URL: "http://spine.example",
    });
    assert.deepEqual(r.code, 1);
    assert.ok(
      r.stderr.includes("https ile başlayan bir AGENT_SPINE_URL (http yalnızca localhost"),
      r.stderr,
    );
    r = await net(["card"]);
    assert.deepEqual(r.code, 1);
    assert.ok(
      r.stderr.startsWith("The network request failed: GET /.well-known/agent.json:"),
      r.stderr,
    );
    r = await net(["add", "b.example"]);
    assert.deepEqual(r.code, 1);
    // The own spine is named as the culprit, with the next step.
    assert.ok(
      r.stderr.startsWith(
        `Your own spine ${env.AGENT_SPINE_URL} does not answer (GET /hub/health:`,
      ),
      r.stderr,
    );
    assert.ok(r.stderr.endsWith("; start it, or check AGENT_SPINE_URL in .env.\n"), r.stderr);
    r = await net(["add", "b.example"], { AGENT_LANG: "tr" });
    assert.ok(
      r.stderr.startsWith(`Kendi spine'ınız ${env.AGENT_SPINE_URL} yanıt vermiyor`),
      r.stderr,
    );

    // A spine refusing the token: one sentence everywhere.
    const refusing = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => Response.json({ error: "unauthorized" }, { status: 401 }),
    );
    try {
      const url = { AGENT_SPINE_URL: `http://127.0.0.1:${refusing.addr.port}` };
      r = await net(["status"], url);
      assert.ok(
        r.stdout.includes(`refused AGENT_SPINE_TOKEN (401)`) && noTrace(r.stdout),
        r.stdout,
      );
      r = await net(["publish"], url);
      assert.deepEqual(
        [r.code, r.stderr],
        [1, "The spine refused AGENT_SPINE_TOKEN (401); check the token in .env.\n"],
      );
    } finally {
      await refusing.shutdown();
    }

    // An accept that cannot be delivered leaves the request pending, so it can be retried.
    const pending = {
      address: "127.0.0.1:1",
      name: "Peer",
      state: "pending_in",
      sign_key: "A".repeat(43),
      box_key: "A".repeat(43),
      note: "hi",
      created_at: 1,
      updated_at: 1,
    };
    await Deno.writeTextFile(`${home}/data/net/contacts.json`, JSON.stringify([pending]));
    r = await net(["accept", "127.0.0.1:1"]);
    assert.deepEqual(r.code, 1);
    // The own spine (down here) is asked for this agent's address first, and named.
    assert.ok(r.stderr.startsWith("Your own spine ") && noTrace(r.stderr), r.stderr);
    const after = JSON.parse(await Deno.readTextFile(`${home}/data/net/contacts.json`));
    assert.deepEqual(after.map((c: { state: string }) => c.state), ["pending_in"]);

    await Deno.writeTextFile(`${home}/data/net/contacts.json`, '[{"address": "b.exa');
    r = await net(["contacts"]);
    assert.deepEqual([r.code, r.stdout], [
      0,
      "No contacts yet. Add one with `agent net add ADDRESS`.\n",
    ]);
    r = await net(["status"]);
    assert.ok(
      /warning: .*contacts\.json\.unreadable-\d+ was not valid JSON/.test(r.stdout),
      r.stdout,
    );
    for (const out of [r.stdout, r.stderr]) assert.ok(noTrace(out), out);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
