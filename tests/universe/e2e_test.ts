/**
 * Three agents with their own spines and one universe, all local: they exchange
 * messages, then join and report through the real CLI (`agent net universe join` with
 * its options, `status`, `leave`), and the snapshot shows the mutual links with the
 * smaller counts. The steps before the universe (`agent net init`, `publish`, `add`,
 * `accept`, `poll --once`, `send`) and the plain re-joins run in the test's process with
 * the calls those commands make (`tests/_net_here.ts`, the node's `send()`): 29 process
 * starts were ~17 CPU-seconds, and those commands are tested in `tests/hub/cli_test.ts`
 * and the `net` CLI tests.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { startSpine } from "../spine/_harness.ts";
import { snapshot, startUniverse } from "./_harness.ts";
import { initHomeAt } from "../_init_home.ts";
import { netNode, netPollOnce, netPublished, netUniverseJoin } from "../_net_here.ts";

const T = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name:
    "three agents, three spines, one universe: join, messages, mutual links with the smaller counts, leave",
  ...T,
  async fn() {
    const universe = await startUniverse();
    const spines = await Promise.all(
      ["ta", "tb", "tc"].map((hubToken) => startSpine({ hubToken })),
    );
    try {
      const homes: string[] = [];
      for (const [i, spine] of spines.entries()) {
        const home = await tempHome();
        await initHomeAt(home);
        const toml = (await Deno.readTextFile(`${home}/agent.toml`))
          .replace(/^universe = ""$/m, `universe = "${universe.host}"`)
          .replace(/^auto_reply = true$/m, "auto_reply = false");
        await Deno.writeTextFile(`${home}/agent.toml`, toml);
        await Deno.writeTextFile(
          `${home}/.env`,
          `AGENT_SPINE_URL=${spine.url}\nAGENT_SPINE_TOKEN=${
            ["ta", "tb", "tc"][i]
          }\nAGENT_NET_ALLOW_INSECURE=1\n`,
          { mode: 0o600 },
        );
        homes.push(home);
      }
      type R = (...args: string[]) => Promise<string>;
      const [a, b, c] = homes.map((home): R => async (...args: string[]) => {
        const r = await agent(["--home", home, "net", ...args]);
        assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
        return r.stdout;
      }) as [R, R, R];
      const [A, B, C] = spines.map((s) => s.address) as [string, string, string];
      const [ha, hb, hc] = homes as [string, string, string];
      // Three homes, three spines: `net init --name` and `publish` run side by side.
      await Promise.all([
        netPublished(ha, "Ada"),
        netPublished(hb, "Bora"),
        netPublished(hc, "Cem"),
      ]);
      // Contacts: A–B, A–C, B–C (a node per step, as each command opens its own).
      const befriend = async (x: string, y: string, yAddress: string, xAddress: string) => {
        await (await netNode(x)).add(yAddress, "");
        await netPollOnce(y);
        await (await netNode(y)).accept(xAddress);
        await netPollOnce(x);
      };
      await befriend(ha, hb, B, A);
      await befriend(ha, hc, C, A);
      await befriend(hb, hc, C, B);
      const send = async (x: string, to: string, text: string) => {
        const sent = await (await netNode(x)).send(to, text);
        assert.equal(sent.delivery, "queued", `${to}: ${JSON.stringify(sent)}`);
      };
      // Messages: A sends B three; B reads them and sends A one that A has not read yet:
      // A counts 3, B counts 4, the universe shows 3.
      for (let i = 0; i < 3; i++) await send(ha, B, `hello ${i}`);
      await netPollOnce(hb);
      await send(hb, A, "hi back");
      // B–C: C sends B two, B reads them: both count 2.
      for (let i = 0; i < 2; i++) await send(hc, B, `hey ${i}`);
      await netPollOnce(hb);

      // Join: A first (B and C are not listed yet, so A's report has no links).
      assert.match(
        await a("universe", "join", "--owner", "Ada L.", "--about", "first"),
        new RegExp(
          `^${A.replace(/\./g, "\\.")} is listed in ${
            universe.host.replace(/\./g, "\\.")
          } \\(0 visible link\\(s\\)\\): http://`,
        ),
      );
      await b("universe", "join", "--owner", "Bora");
      await c("universe", "join", "--no-links");
      // Everyone reports again now that all are listed (a join without options, in this
      // process: the settings the first joins gave stay, links off for C included).
      for (const home of homes) await netUniverseJoin(home);

      let s = await snapshot(universe);
      // (Joined within the same second, their order is the addresses'.)
      assert.deepEqual(s.taus.map((t: { name: string }) => t.name).sort(), ["Ada", "Bora", "Cem"]);
      assert.equal(s.taus.find((t: { name: string }) => t.name === "Ada").owner, "Ada L.");
      const pair = (x: string, y: string) => (x < y ? `${x} ${y}` : `${y} ${x}`);
      const links = Object.fromEntries(
        s.links.map((
          l: { a: string; b: string; messages: number },
        ) => [`${l.a} ${l.b}`, l.messages]),
      );
      // C reports no links (--no-links), so only A–B is mutual.
      assert.deepEqual(links, { [pair(A, B)]: 3 });

      // C turns its links on: B–C appears with 2 (A–C has no messages: a 0-message link).
      await c("universe", "join", "--links");
      s = await snapshot(universe);
      assert.deepEqual(
        Object.fromEntries(
          s.links.map((
            l: { a: string; b: string; messages: number },
          ) => [`${l.a} ${l.b}`, l.messages]),
        ),
        { [pair(A, B)]: 3, [pair(A, C)]: 0, [pair(B, C)]: 2 },
      );
      assert.equal(s.stats.messages, 5);

      const status = await a("universe", "status");
      assert.match(
        status,
        new RegExp(
          `^universe: ${universe.host.replace(/\./g, "\\.")} \\(report every 60 min, links on\\)\n`,
        ),
      );
      assert.match(status, /profile: joined\nlisted: yes, as Ada \(online\)\nvisible links: 2\n/);

      assert.match(await b("universe", "leave"), /left/);
      s = await snapshot(universe);
      assert.deepEqual(s.taus.map((t: { name: string }) => t.name).sort(), ["Ada", "Cem"]);
      assert.deepEqual(s.links.map((l: { messages: number }) => l.messages), [0]);
      assert.match(await b("universe", "status"), /profile: not joined\nlisted: no\n/);
    } finally {
      for (const spine of spines) await spine.stop();
      await universe.stop();
      await cleanup();
    }
  },
});
