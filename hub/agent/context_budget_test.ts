/**
 * The context budget end to end: a long chat against a loopback provider in vendor-a's
 * wire format. The request stays near the role's `context_tokens` however many turns
 * pass, the oldest turns are folded into a summary written by `fast` (its own ledger
 * row, marked `compaction`), and the whole conversation stays stored.
 *
 * @module
 */
import assert from "node:assert/strict";
import { buildAgent } from "../mod.ts";
import { resolvePaths } from "../base.ts";
import { config, TEST_PRICE, workspace } from "../../tests/_models.ts";
import { freePort } from "../../tests/_port.ts";
import { startVendorServer, type VendorServer } from "../../tests/_vendor_server.ts";

const ENV = { VENDOR_A_API_KEY: "sk-test" };

function setup(server: VendorServer, fastToml: string) {
  const ws = workspace();
  const paths = resolvePaths({ home: ws.dir, env: {} });
  Deno.mkdirSync(paths.personaDir, { recursive: true });
  Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "You are Ada's agent.");
  Deno.writeTextFileSync(`${paths.personaDir}/user.md`, "The owner is Ada.");
  const cfg = config(`
[models.roles.brain]
provider = "vendor-a"
model_id = "m-brain"
context_tokens = 2000
budget = { usd = 100, period = "month" }
[models.roles.brain.params]
base_url = "${server.url}/v1"
${fastToml}
[models.prices.m-brain]
${TEST_PRICE}
[models.prices.m-fast]
${TEST_PRICE}
`);
  const make = () =>
    buildAgent({
      config: cfg,
      env: ENV,
      paths,
      channel: "chat",
      role: "brain",
      tools: [],
      persona: {
        personaFile: `${paths.personaDir}/persona.md`,
        userFile: `${paths.personaDir}/user.md`,
      },
      ledger: ws.ledger,
      logger: ws.logger,
    });
  return { ws, agent: make(), make };
}

type Body = { model: string; system: { text: string }[]; messages: unknown[] };

Deno.test("a long chat keeps its request near context_tokens; fast folds the oldest turns", async () => {
  const server = startVendorServer({ reply: "Noted, and here is a short answer to that." });
  const { ws, agent } = setup(
    server,
    `[models.roles.fast]
provider = "vendor-a"
model_id = "m-fast"
budget = { usd = 100, period = "month" }
[models.roles.fast.params]
base_url = "${server.url}/v1"`,
  );
  try {
    const turns = 80;
    for (let i = 0; i < turns; i++) {
      await agent.turn("s1", `Message ${i}: ${"tell me about the weather in Izmir ".repeat(6)}`);
    }
    const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body as Body);
    const brain = bodies.filter((b) => b.model === "m-brain");
    const fast = bodies.filter((b) => b.model === "m-fast");
    assert.equal(brain.length, turns);
    // Each turn adds about 85 tokens: 2000 are passed every ~3 turns once full.
    assert.ok(fast.length >= 10, `folds: ${fast.length}`);
    const size = (b: Body) => JSON.stringify(b.messages).length;
    // The history sent stays under the budget (2000 tokens at 4 characters each)...
    for (const b of brain) assert.ok(size(b) <= 2000 * 4, `request of ${size(b)} characters`);
    // ...and flat: turn 40 and turn 80 within 15% of each other.
    const at40 = size(brain[39]!);
    const at80 = size(brain[79]!);
    assert.ok(Math.abs(at80 - at40) / at40 < 0.15, `${at40} vs ${at80}`);
    // The summary rides in the system prompt, between the persona and the Now block.
    const last = brain[turns - 1]!;
    assert.equal(last.system.length, 1);
    assert.match(
      last.system[0]!.text,
      /Ada\.\n\n## Earlier in this conversation\nNoted[^#]+\n\n## Now\n/,
    );
    // The fast call was told the summary so far and the folded messages.
    const lastFold = JSON.stringify(fast[fast.length - 1]!.messages);
    assert.match(lastFold, /Summary so far:\\nNoted, and here is/);
    assert.match(lastFold, /Person: Message \d+: tell me about/);
    // Every call has its row; the summaries are marked compaction, on fast.
    const rows = ws.rows();
    assert.equal(rows.length, turns + fast.length);
    const folds = rows.filter((r) => r.purpose === "compaction");
    assert.equal(folds.length, fast.length);
    assert.ok(folds.every((r) => r.role === "fast" && r.session_id === "s1"));
    assert.equal(rows.filter((r) => r.purpose === "turn").length, turns);
    // Nothing is lost on disk: /resume still has all 160 messages.
    assert.equal((await agent.history("s1")).length, turns * 2);
    const meta = await agent.sessions.getMeta("s1");
    const fold = meta.compaction as { upto: number; summary: string };
    assert.ok(fold.upto > 100, `folded up to ${fold.upto}`);
  } finally {
    await server.close();
    ws.close();
  }
});

Deno.test("a fold goes on when fast cannot be reached, and another agent starts from the fold", async () => {
  const server = startVendorServer();
  const { ws, agent, make } = setup(
    server,
    `[models.roles.fast]
provider = "vendor-a"
model_id = "m-fast"
[models.roles.fast.params]
base_url = "http://127.0.0.1:${freePort()}/v1"`,
  );
  try {
    for (let i = 0; i < 40; i++) await agent.turn("s1", `Message ${i}: ${"x ".repeat(150)}`);
    const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body as Body);
    assert.equal(bodies.length, 40);
    const size = (b: Body) => JSON.stringify(b.messages).length;
    for (const b of bodies) assert.ok(size(b) <= 2000 * 4, `request of ${size(b)} characters`);
    // No summary could be written: the system prompt has none, and the log says why.
    assert.ok(bodies.every((b) => !JSON.stringify(b.system).includes("Earlier in this")));
    assert.match(ws.log(), /context fold of s1 without a new summary/);
    const upto = ((await agent.sessions.getMeta("s1")).compaction as { upto: number }).upto;
    assert.ok(upto > 40, `folded up to ${upto}`);
    // Another agent on the same home (another process) sends from the fold on.
    await make().turn("s1", "and now?");
    const sent = server.requests.at(-1)!.body as Body;
    assert.ok(size(sent) <= 2000 * 4);
    assert.match(JSON.stringify(sent.messages), /and now\?/);
  } finally {
    await server.close();
    ws.close();
  }
});
