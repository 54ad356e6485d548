// Scopes in code: across 1,000 generated turns of the owner, two other persons, a group
// conversation and a network peer, no request the model receives holds another scope's
// memory, whether recalled before the turn, found by the recall tool or just remembered.
import assert from "node:assert/strict";
import { accessFor, buildAgent, parseConfig, SqliteMemoryStore, type TurnParty } from "@agent/hub";
import { Logger, resolvePaths } from "@agent/hub/base";
import { tempDir } from "../_temp_dir.ts";
import { modelStandIn, STAND_IN_ENV, standInRoles } from "./_model.ts";
import { memorySessions } from "./_sessions.ts";

const PARTIES: Record<string, TurnParty> = {
  owner: { kind: "owner", conversation: "chat" },
  ali: { kind: "person", id: "ali@example.org", conversation: "email:<t1@example.org>" },
  bea: { kind: "person", id: "bea@example.org", conversation: "email:<t2@example.org>" },
  group: { kind: "group", conversation: "messenger:-100200" },
  peer: { kind: "network" },
};
const WHO = Object.keys(PARTIES);

/** A word only `who`'s memories hold, so a leak is found by a plain search. */
function mark(who: string, i: number): string {
  return `zq${who}mark${i}`;
}

Deno.test("memory scopes: 0 memories reach a turn outside their scope in 1,000 turns", async () => {
  await using tmp = await tempDir("agent-memory-scope-");
  const paths = resolvePaths({ home: tmp.path, env: {} });
  Deno.mkdirSync(paths.personaDir, { recursive: true });
  Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "You are careful.");
  const config = parseConfig(standInRoles(), "agent.toml");
  const store = new SqliteMemoryStore(paths.dataDir + "/memory.sqlite3");
  const model = modelStandIn();
  const sessions = memorySessions();
  try {
    // Every scope holds memories about the same things (garden, tea, Ayşe), each with
    // words of its own; a conversation's own scope holds some too.
    for (const who of WHO) {
      const access = accessFor(PARTIES[who]!);
      const scopes = access === undefined ? ["person:peer.example"] : access.read;
      for (const [n, scope] of scopes.entries()) {
        for (let i = 0; i < 12; i++) {
          await store.add({
            scope: scope as never,
            text: `${mark(who, n * 100 + i)} garden tea Ayşe note ${i}`,
            source: "owner",
            pinned: i === 0,
          });
        }
      }
    }
    const agents = Object.fromEntries(WHO.map((who) => {
      const party = PARTIES[who]!;
      const access = accessFor(party);
      return [
        who,
        buildAgent({
          config,
          env: STAND_IN_ENV,
          paths,
          channel: who === "peer" ? "net" : "chat",
          role: "brain",
          tools: [],
          persona: { personaFile: `${paths.personaDir}/persona.md` },
          logger: new Logger({ stderr: "off" }),
          fetch: model.fetch,
          sessions,
          context: who === "peer" ? "private" : "owner",
          // The peer is handed a memory too: a network turn must ignore it.
          memory: {
            store,
            access: access ?? accessFor(PARTIES.owner!)!,
            settings: { enabled: true, recall_tokens: 600, pinned_tokens: 400 },
          },
        }),
      ];
    }));
    const seen: Record<string, number> = Object.fromEntries(WHO.map((w) => [w, 0]));
    for (let turn = 0; turn < 1000; turn++) {
      const who = WHO[turn % WHO.length]!;
      const from = model.requests.length;
      // Some turns search further or remember something new of their own.
      if (turn % 10 === 3 && who !== "peer") {
        model.script.push({
          calls: [{ id: `c${turn}`, name: "recall", input: { query: "garden tea" } }],
        });
      }
      if (turn % 25 === 7 && who !== "peer") {
        const text = `${mark(who, 900 + turn)} garden tea Ayşe, remembered`;
        model.script.push({ calls: [{ id: `r${turn}`, name: "remember", input: { text } }] });
      }
      // A new session now and then, as conversations come and go.
      await agents[who]!.turn(
        `session-${who}-${Math.floor(turn / 100)}`,
        `What about the garden, tea and ayse? (${turn})`,
      );
      const sent = JSON.stringify(model.requests.slice(from));
      for (const other of WHO) {
        if (other !== who) assert.ok(!sent.includes(`zq${other}mark`), `${other} reached ${who}`);
      }
      if (sent.includes(`zq${who}mark`)) seen[who]!++;
    }
    // The control: every conversation with memory saw its own, the network turn none.
    for (const who of WHO) {
      if (who === "peer") assert.equal(seen[who], 0);
      else assert.ok(seen[who]! > 150, `${who} saw its memories in ${seen[who]} turns`);
    }
    const peerTools = model.requests.filter((r) => JSON.stringify(r).includes("(4)"));
    assert.ok(peerTools.every((r) => !JSON.stringify(r.tools ?? []).includes("remember")));
    // Another person's and the group's remembers wait for the owner.
    const pending = await store.list("every", { status: "pending" });
    assert.ok(pending.length > 0 && pending.every((m) => m.scope !== "owner"));
  } finally {
    store.close();
  }
});
