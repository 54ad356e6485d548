/**
 * The directory `agent net spine init` writes really is a spine: served by the
 * repository's pinned wrangler (`wrangler dev`, local only) it takes a card, accepts a
 * second agent's envelope, lists and acknowledges it, and rings the doorbell. This
 * proves the kit, not the source tree.
 */
import assert from "node:assert/strict";
import { cleanup, tempHome } from "../cli/_run.ts";
import { initSpineProject } from "@agent/kit/spine";
import { envelopeFor, hub, postInbox, startPeer } from "../spine/_fixtures.ts";
import { generateIdentity } from "@agent/net";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const WRANGLER = `${ROOT}node_modules/wrangler/bin/wrangler.js`;
const TOKEN = "kit-smoke-token-0123456789";

/**
 * Serves the project in `dir`; its state and wrangler's temporary files go beside it.
 * `vars`: the secret and the insecure-peer switch on the command line (else the
 * project's own `.dev.vars` has them).
 */
async function serve(dir: string, port: number, vars = true): Promise<{ stop(): Promise<void> }> {
  const tmp = `${dir}-tmp`;
  await Deno.mkdir(tmp, { recursive: true });
  const child = new Deno.Command("node", {
    args: [
      WRANGLER,
      "dev",
      "--local",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(freePort()),
      ...(vars ? ["--var", `HUB_TOKEN:${TOKEN}`, "--var", "ALLOW_INSECURE_PEERS:1"] : []),
      "--persist-to",
      `${dir}-state`,
    ],
    cwd: dir,
    env: {
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_SEND_METRICS: "false",
      NO_COLOR: "1",
      CI: "1",
      // wrangler's update check and Miniflare's own folder: inside the test's folder.
      TMPDIR: tmp,
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // Read stderr as it comes (for a failure's message) without ever waiting on the pipe:
  // wrangler's workerd child may hold it open for a moment after wrangler exits.
  let stderr = "";
  (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true });
  })().catch(() => {});
  try {
    await until(() => `wrangler dev to start:\n${stderr}`, async () => {
      const r = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
      return r !== undefined && r.ok && (await r.text()).startsWith("agent spine");
    }, { timeoutMs: 60_000, intervalMs: 250 });
  } catch (error) {
    // wrangler may have exited already (its stderr, in the error, says why): a kill of an
    // ended child throws, and must not hide that message.
    try {
      child.kill("SIGKILL");
    } catch { /* already ended */ }
    throw error;
  }
  return {
    async stop() {
      // wrangler exits before its workerd and esbuild (measured: 1.4 s later), which
      // write into the project's folder and its state, inside the home the test then
      // removes: they are waited for too.
      const under = await descendants(child.pid);
      child.kill("SIGTERM");
      const exited = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 10_000)),
      ]);
      if (!exited) child.kill("SIGKILL");
      await child.status;
      await until(
        "wrangler's workerd and esbuild to end",
        async () => (await running(under)).length === 0,
        { timeoutMs: 10_000, intervalMs: 50 },
      ).catch(async () => {
        for (const pid of await running(under)) {
          try {
            Deno.kill(pid, "SIGKILL");
          } catch { /* gone meanwhile */ }
        }
      });
    },
  };
}

/** `ps`'s pid and parent pid of every process that runs (a zombie has ended). */
async function processTable(): Promise<[number, number][]> {
  const out = await new Deno.Command("ps", {
    args: ["-e", "-o", "pid=,ppid=,stat="],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim().split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, , stat]) => !stat?.startsWith("Z"))
    .map(([pid, ppid]) => [Number(pid), Number(ppid)]);
}

/** The processes under `pid`: its children, theirs, and so on. */
async function descendants(pid: number): Promise<number[]> {
  const table = await processTable();
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid === parent) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

/** Which of `pids` still run. */
async function running(pids: readonly number[]): Promise<number[]> {
  const table = new Set((await processTable()).map(([pid]) => pid));
  return pids.filter((pid) => table.has(pid));
}

Deno.test({
  name: "an init'ed spine project served by wrangler dev works as a spine",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = `${await tempHome()}/spine`;
    // What `agent net spine init DIR` writes, in this process (spine_init_test runs it).
    await initSpineProject(dir);
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const address = `127.0.0.1:${port}`;
    const spine = await serve(dir, port);
    const peer = await startPeer("Second");
    try {
      assert.equal(await (await fetch(`${url}/`)).text(), `agent spine ${address}`);
      const health = await hub(url, TOKEN, "/hub/health");
      assert.deepEqual(health.body, {
        ok: true,
        address,
        mode: "local",
        card: false,
        mailbox: 0,
        version: (await Deno.readTextFile(`${ROOT}kit/spine/VERSION`)).trim(),
      });

      const me = await generateIdentity();
      const put = await hub(url, TOKEN, "/hub/card", {
        method: "PUT",
        body: JSON.stringify({ name: "Kit", sign_key: me.signKey, box_key: me.boxKey }),
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      const card = await (await fetch(`${url}/.well-known/agent.json`)).json() as {
        address: string;
        sign_key: string;
      };
      assert.equal(card.address, address);
      assert.equal(card.sign_key, me.signKey);

      // The doorbell says hello with the depth, then rings for the envelope.
      const ws = new WebSocket(`ws://${address}/hub/ws`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      } as unknown as string[]);
      const messages: { type: string; depth: number }[] = [];
      ws.onmessage = (e) => messages.push(JSON.parse(e.data));
      const waitFor = (n: number) => until(`${n} doorbell messages`, () => messages.length >= n);
      await waitFor(1);
      assert.deepEqual(messages[0], { type: "hello", depth: 0 });

      const wire = await envelopeFor(peer, address);
      const posted = await postInbox(url, wire);
      assert.deepEqual(posted, { status: 202, body: { status: "queued", id: wire.id } });
      await waitFor(2);
      assert.deepEqual(messages[1], { type: "mail", depth: 1 });
      ws.close();

      type U = { seq: number; envelope: { payload: string } };
      const updates = (await hub(url, TOKEN, "/hub/updates?timeout=0")).body.updates as U[];
      assert.deepEqual(updates.map((u) => u.envelope.payload), [wire.payload]);
      const ack = await hub(url, TOKEN, "/hub/ack", {
        method: "POST",
        body: JSON.stringify({ seqs: updates.map((u) => u.seq) }),
      });
      assert.deepEqual(ack.body, { deleted: 1 });
      assert.equal((await hub(url, TOKEN, "/hub/health")).body.mailbox, 0);
    } finally {
      await peer.stop();
      await spine.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "the project's README says how to run it locally, and its .dev.vars as written works",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = `${await tempHome()}/spine`;
    // What `agent net spine init DIR` writes, in this process (spine_init_test runs it).
    await initSpineProject(dir);
    const readme = await Deno.readTextFile(`${dir}/README.md`);
    // Was: only the deploy; nothing said how to run it on this machine.
    const local = readme.slice(readme.indexOf("## Try it on this machine first"));
    assert.ok(local.startsWith("## Try it on this machine first"), readme);
    assert.match(local, /`npx wrangler dev --port 8787`/);
    const block = /```sh\n([\s\S]*?)```/.exec(local)![1]!;
    const port = freePort();
    // The README's .dev.vars, on a port this test may use.
    const devVars = block.split("\n").map((l) => l.trim()).filter(Boolean).join("\n")
      .replace("127.0.0.1:8787", `127.0.0.1:${port}`);
    await Deno.writeTextFile(`${dir}/.dev.vars`, devVars + "\n");
    const token = /^HUB_TOKEN=(.+)$/m.exec(devVars)![1]!;
    const spine = await serve(dir, port, false);
    try {
      const health = await hub(`http://127.0.0.1:${port}`, token, "/hub/health");
      assert.equal(health.status, 200, JSON.stringify(health.body));
      assert.equal(health.body.address, `127.0.0.1:${port}`);
    } finally {
      await spine.stop();
      await cleanup();
    }
  },
});
