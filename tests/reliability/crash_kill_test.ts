/**
 * Crash-kill: a hub (`agent hub run`, a real process) killed with SIGKILL at random
 * points while it handles a stream of messages from its peers, restarted each time.
 * Figures: messages answered, replies per message the peers saw, each exchange in the
 * network session once, model calls against messages (a kill between the model's answer
 * and the session may ask once more; never a row twice), state files readable.
 *
 * The Mailbox takes at most 60 messages an hour from one sender, so the stream comes
 * from two peers, 50 each.
 */
import assert from "node:assert/strict";
import { FileSessionStore } from "@agent/hub";
import { Ledger } from "@agent/hub/money";
import { connect, logReader, startAgent, type TestAgent } from "../hub/_agents.ts";
import { spawnHubProcess } from "../_hub_process.ts";
import { startSpine } from "../spine/_harness.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";

const PER_PEER = 50;
const KILLS = 10;

/**
 * The network sessions' exchanges: how often each message's frame was stored (its text
 * between the MESSAGE markers), and how many answers were stored beside them.
 */
async function sessionExchanges(
  dir: string,
): Promise<{ frames: Map<string, number>; answers: number; sessions: number }> {
  const store = new FileSessionStore(dir);
  const frames = new Map<string, number>();
  let answers = 0;
  const sessions = await store.listSessions(200);
  for (const s of sessions) {
    for (const record of await store.listMessages(s.session_id, "main") ?? []) {
      const message = (record as { message?: { role?: string; content?: unknown } }).message;
      if (message?.role === "assistant") answers++;
      if (message?.role !== "user" || typeof message.content !== "string") continue;
      const text = /<<<BEGIN MESSAGE>>>\n([^\n]*)\n<<<END MESSAGE>>>/.exec(message.content)?.[1];
      if (text !== undefined) frames.set(text, (frames.get(text) ?? 0) + 1);
    }
  }
  return { frames, answers, sessions: sessions.length };
}

/** Every JSON file under `dir` parses (JSON lines files line by line). */
async function unreadable(dir: string): Promise<string[]> {
  const bad: string[] = [];
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const full = `${path}/${entry.name}`;
      if (entry.isDirectory) await walk(full);
      else if (entry.name.endsWith(".json")) {
        try {
          JSON.parse(await Deno.readTextFile(full));
        } catch {
          bad.push(full);
        }
      } else if (entry.name.endsWith(".jsonl")) {
        const lines = (await Deno.readTextFile(full)).split("\n").filter((l) => l !== "");
        for (const line of lines) {
          try {
            JSON.parse(line);
          } catch {
            bad.push(`${full}: ${line.slice(0, 40)}`);
          }
        }
      }
    }
  };
  await walk(dir);
  return bad;
}

Deno.test({
  name:
    "crash-kill: SIGKILLed at random while handling 100 messages, nothing is lost or answered twice",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const spine = await startSpine({ hubToken: "tok-bob", rateLimits: false });
    const bob = await startAgent("bob", { spine, env: { AGENT_SPINE_TOKEN: "tok-bob" } });
    const peers: TestAgent[] = [];
    const spines = [spine];
    let hub: Deno.ChildProcess | undefined;
    try {
      for (const name of ["alice", "carol"]) {
        // No inbox rate limit: 50 replies a minute to one peer would wait for the outbox.
        const peerSpine = await startSpine({ hubToken: `tok-${name}`, rateLimits: false });
        const peer = await startAgent(name, {
          replies: ["[no reply]"],
          spine: peerSpine,
          env: { AGENT_SPINE_TOKEN: `tok-${name}` },
        });
        spines.push(peerSpine);
        peers.push(peer);
        await connect(peer, bob);
      }
      // From here on bob is the hub process; his in-process service stops.
      await bob.stopService();
      const port = freePort();
      await Deno.writeTextFile(
        `${bob.home}/agent.toml`,
        [
          "[models.roles.brain]",
          'provider = "fake"',
          'model_id = "fake-model"',
          "[models.roles.brain.budget]",
          "usd = 100",
          'period = "month"',
          "[models.roles.fast]",
          'provider = "fake"',
          'model_id = "fake-model"',
          "[hub]",
          `port = ${port}`,
          "[net]",
          'name = "bob"',
          "max_auto_replies_per_hour = 1000",
          "",
        ].join("\n"),
      );
      await Deno.writeTextFile(
        `${bob.home}/.env`,
        `AGENT_SPINE_URL=${spine.url}\nAGENT_SPINE_TOKEN=tok-bob\nAGENT_NET_ALLOW_INSECURE=1\n`,
        { mode: 0o600 },
      );
      const sent: { peer: TestAgent; id: string }[] = [];
      for (let i = 0; i < PER_PEER; i++) {
        for (const peer of peers) {
          const { id } = await peer.node.send(bob.address, `Message ${i} from ${peer.name}`);
          sent.push({ peer, id });
        }
      }

      // The logs are polled every 20 ms for tens of seconds: each is parsed again only
      // once its file changed.
      const peerLogs = new Map(peers.map((peer) => [peer, logReader(peer)]));
      const bobLogNow = logReader(bob);
      const answered = async () => {
        let n = 0;
        for (const peer of peers) {
          const threads = new Set(
            (await peerLogs.get(peer)!()).filter((e) =>
              e.direction === "in" && e.kind === "message" && e.address === bob.address
            ).map((e) => e.thread),
          );
          n += sent.filter((s) => s.peer === peer && threads.has(s.id)).length;
        }
        return n;
      };
      const started = performance.now();
      let kills = 0;
      hub = spawnHubProcess(bob.home, { env: { AGENT_HOME: bob.home } });
      // Bob's log of handled messages grows as the hub answers.
      const handled = async () =>
        (await bobLogNow()).filter((e) => e.direction === "in" && e.kind === "message").length;
      while (kills < KILLS) {
        // Each kill lands while the hub answers: once it handled one more message since
        // it started, at a random moment of the next half second (model call, session,
        // outbox, log, acknowledgement).
        const before = await handled();
        if (before === sent.length) break;
        await until("the hub answering", async () => await handled() > before, {
          timeoutMs: 60_000,
        });
        await new Promise((r) => setTimeout(r, Math.random() * 500));
        hub.kill("SIGKILL");
        await hub.status;
        kills++;
        hub = spawnHubProcess(bob.home, { env: { AGENT_HOME: bob.home } });
      }
      const killedBy = (performance.now() - started) / 1000;
      const atLastKill = await answered();
      await until("every message answered", async () => await answered() === sent.length, {
        timeoutMs: 90_000,
      });
      const seconds = (performance.now() - started) / 1000;
      hub.kill("SIGTERM");
      await hub.status;
      hub = undefined;

      // Exactly one reply per message, as each peer saw it.
      let duplicates = 0;
      for (const peer of peers) {
        const replies = (await peer.node.state.log()).filter((e) =>
          e.direction === "in" && e.kind === "message" && e.address === bob.address
        );
        const perThread = new Map<string, number>();
        for (const r of replies) perThread.set(r.thread, (perThread.get(r.thread) ?? 0) + 1);
        for (const s of sent.filter((s) => s.peer === peer)) {
          assert.equal(perThread.get(s.id), 1, `one reply to ${s.id}`);
        }
        duplicates += peer.handled.filter((h) =>
          h.result.outcome === "dropped" && h.result.from === bob.address
        ).length;
      }
      // Every message is in bob's log once.
      const bobLog = (await bob.node.state.log()).filter((e) =>
        e.direction === "in" && e.kind === "message"
      );
      assert.deepEqual(new Set(bobLog.map((e) => e.id)).size, sent.length);
      assert.equal(bobLog.length, sent.length, "no message logged twice");
      // And every reply in it once, even one posted just before a kill.
      const bobOut = (await bob.node.state.log()).filter((e) =>
        e.direction === "out" && e.kind === "message"
      );
      assert.equal(bobOut.length, sent.length, "every reply logged once");

      // Each exchange is in the network session once: the frame of every message once,
      // and one answer beside each, whatever the kill point (issue 27 S3).
      const stored = await sessionExchanges(`${bob.home}/data/sessions`);
      const twice = [...stored.frames].filter(([, n]) => n !== 1).map(([t, n]) => `${t} ×${n}`);
      assert.deepEqual(twice, [], "no exchange stored twice in a session");
      for (let i = 0; i < PER_PEER; i++) {
        for (const peer of peers) {
          assert.equal(stored.frames.get(`Message ${i} from ${peer.name}`), 1, `${peer.name} ${i}`);
        }
      }
      assert.equal(stored.answers, sent.length, "one stored answer per message");

      using ledger = Ledger.open(`${bob.home}/data/spend.sqlite3`);
      const calls = ledger.count();
      assert.ok(calls >= sent.length, `${calls} model calls for ${sent.length} messages`);
      assert.ok(calls <= sent.length + kills, `at most one call again per kill: ${calls}`);
      const bad = await unreadable(`${bob.home}/data`);
      assert.deepEqual(bad, []);
      console.log(
        `crash-kill: ${sent.length} messages, ${kills} SIGKILLs in the first ${
          killedBy.toFixed(1)
        } s (${atLastKill} answered by then), all answered after ${seconds.toFixed(1)} s; ` +
          `answered ${await answered()}/${sent.length}, one reply each as the peers saw it ` +
          `(${duplicates} resent copies dropped by them); ${calls} model calls ` +
          `(${
            calls - sent.length
          } asked again after a kill); sessions: ${stored.sessions}, ${stored.frames.size} ` +
          `exchanges stored once each, 0 twice; state files unreadable: ${bad.length}`,
      );
    } finally {
      if (hub) {
        try {
          hub.kill("SIGKILL");
        } catch { /* gone */ }
        await hub.status;
      }
      for (const peer of peers) await peer.close();
      await bob.close();
      for (const s of spines) await s.stop();
    }
  },
});
