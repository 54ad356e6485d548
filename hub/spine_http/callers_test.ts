/**
 * Every module that talks to a spine goes through {@linkcode SpineHttp}: the network
 * client (own spine and peers), the spine document store, the spine session store,
 * `agent cloud`'s files and `agent doctor`. Each one, faced with the same hostile
 * spine, sends the token the one way, fails with the one {@linkcode SpineError} (cloud
 * wraps it in its sentence) and keeps the spine's Retry-After; and no other module of
 * the hub builds a bearer header of its own.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SpineError } from "./mod.ts";
import { fetchCard, postEnvelope, SpineClient } from "../network/spine_client.ts";
import { SpineDocuments } from "../network/store/spine_documents.ts";
import { networkCheck } from "../network/doctor.ts";
import { SpineSessionStore } from "../sessions/spine_store.ts";
import { CloudSpine } from "../cloud/spine_files.ts";
import { UserError } from "../user_error.ts";
import { resolvePaths } from "../paths.ts";

const TOKEN = "callers-token-0123456789abcdef";
const HTML = "<html><body><h1>Bad gateway</h1></body></html>";

/** A spine (behind a broken proxy) answering every request 502 with HTML and a Retry-After. */
function brokenSpine() {
  const seen: { path: string; authorization: string | null }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({ path: new URL(req.url).pathname, authorization: req.headers.get("authorization") });
    return new Response(HTML, {
      status: 502,
      headers: { "content-type": "text/html", "retry-after": "9" },
    });
  });
  const address = `127.0.0.1:${server.addr.port}`;
  return { address, url: `http://${address}`, seen, close: () => server.shutdown() };
}

/** The error a call fails with, checked for the one shape. */
async function spineFailure(call: Promise<unknown>, what: string): Promise<SpineError> {
  const error = await call.then(() => assert.fail(`${what} did not fail`), (e: unknown) => e);
  assert.ok(error instanceof SpineError, `${what}: ${error}`);
  assert.deepEqual([error.status, error.code, error.retryAfterMs], [502, "", 9000], what);
  assert.ok(!error.message.includes(TOKEN) && !error.message.includes("<"), error.message);
  return error;
}

Deno.test("every spine caller fails the one way against a broken spine, token sent the one way", async () => {
  const spine = brokenSpine();
  try {
    const client = new SpineClient(spine.url, TOKEN);
    let e = await spineFailure(client.health(), "SpineClient.health");
    assert.equal(e.message, "GET /hub/health: HTTP 502 (retry after 9 s)");
    await spineFailure(client.updates(0, { timeout: 0 }), "SpineClient.updates");
    await spineFailure(client.ack([1]), "SpineClient.ack");
    await spineFailure(client.putCard({ name: "a", sign_key: "k", box_key: "k" }), "putCard");
    await spineFailure(client.publishedCard(), "SpineClient.publishedCard");
    assert.equal(await client.probeDoorbell(), 502);

    const peer = { allowInsecure: true };
    e = await spineFailure(fetchCard(spine.address, peer), "fetchCard");
    assert.ok(e.message.startsWith(`Cannot fetch the card of ${spine.address}: `), e.message);
    e = await spineFailure(
      postEnvelope(spine.address, { payload: "e30", sig: "AA" }, peer),
      "postEnvelope",
    );
    assert.ok(e.message.startsWith(`Cannot deliver to ${spine.address}: HTTP 502`), e.message);

    const documents = new SpineDocuments(spine.url, TOKEN);
    e = await spineFailure(documents.read("contacts"), "SpineDocuments.read");
    assert.equal(e.message, "Cannot read net.contacts from the spine: HTTP 502 (retry after 9 s)");
    e = await spineFailure(documents.write("cursor", 3), "SpineDocuments.write");
    assert.ok(e.message.startsWith("Cannot write net.cursor to the spine: HTTP 502"), e.message);

    const sessions = new SpineSessionStore(spine.url, TOKEN);
    e = await spineFailure(sessions.getSession("chat-1"), "SpineSessionStore.getSession");
    assert.ok(e.message.startsWith("GET /hub/sessions/chat-1: HTTP 502"), e.message);
    await spineFailure(sessions.createSession("chat-1", {}), "SpineSessionStore.createSession");
    await spineFailure(sessions.listMessages("chat-1", "main"), "SpineSessionStore.listMessages");

    // agent cloud prints one line: the same error, in its sentence, kept as the cause.
    const cloud = new CloudSpine(spine.url, TOKEN, "en");
    const refused = await cloud.files().then(() => undefined, (x: unknown) => x);
    assert.ok(refused instanceof UserError && refused.cause instanceof SpineError);
    assert.equal(refused.message, `The spine at ${spine.url} answered HTTP 502 to GET /hub/files.`);
    assert.equal(refused.cause.retryAfterMs, 9000);
    assert.deepEqual(await cloud.brain(), { ok: false, detail: "HTTP 502 (retry after 9 s)" });

    // agent doctor: the spine's status in its own line.
    const dir = await Deno.makeTempDir({ prefix: "agent-callers-" });
    try {
      const lines = await networkCheck({
        paths: resolvePaths({ home: dir, env: {} }),
        env: { AGENT_SPINE_URL: spine.url, AGENT_SPINE_TOKEN: TOKEN },
        lang: "en",
        config: undefined,
        configError: undefined,
        now: Date.now(),
        registry: () => Promise.reject(new Error("not needed")),
      });
      assert.deepEqual(lines, [{
        name: "spine",
        status: "fail",
        detail: `${spine.url} answered 502 on /hub/health`,
      }]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }

    // Hub routes carried the token; a peer's public endpoints never did.
    for (const s of spine.seen) {
      const isPeer = s.path === "/net/inbox" ||
        (s.path === "/.well-known/agent.json" && s.authorization === null);
      assert.equal(s.authorization, isPeer ? null : `Bearer ${TOKEN}`, s.path);
    }
    assert.ok(spine.seen.some((s) => s.path === "/net/inbox"));
  } finally {
    await spine.close();
  }
});

Deno.test("no module of the hub but hub/spine_http builds a bearer header or its own spine fetch", async () => {
  const hub = fileURLToPath(new URL("..", import.meta.url));
  const offenders: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        await walk(path);
        continue;
      }
      const file = relative(hub, path);
      if (!file.endsWith(".ts") || file.endsWith("_test.ts")) continue;
      if (file.startsWith("spine_http/")) continue;
      const text = await Deno.readTextFile(path);
      // The control API's own token (`control/token.ts`) is the hub's, not a spine's; a
      // search provider's key (`tools/search_providers.ts`) is the owner's SearXNG's.
      const ownBearer = file.startsWith("control/") || file === "tools/search_providers.ts";
      const bearer = !ownBearer &&
        (/[`"']Bearer\s/.test(text) || /\bauthorization["']?\s*:\s*[`"']/i.test(text));
      if (bearer || /fetch\([^)]*\/hub\//.test(text)) {
        offenders.push(file);
      }
    }
  }
  await walk(hub);
  assert.deepEqual(offenders, []);
});
