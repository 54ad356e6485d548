/**
 * The contact life cycle a person can repair, with two homes on two spines on workerd:
 * `agent net remove` tells the other side (a signed `contact_removed` it records),
 * `agent net contacts` shows where each side stands, a re-add sends a new request, and
 * a blocked peer gets no signal. The texts are checked in English and Turkish.
 */
import assert from "node:assert/strict";
import { agent } from "../cli/_run.ts";
import { startSpine } from "../spine/_harness.ts";
import { type TempDir, tempDir } from "../_temp_dir.ts";
import { initHomeAt } from "../_init_home.ts";
import { acceptedPair, netPollOnce } from "../_net_here.ts";

async function newHome(language: "en" | "tr"): Promise<TempDir> {
  const dir = tempDir("agent-contact-life-");
  await initHomeAt(dir.path, { language });
  return dir;
}

/** Two homes that are accepted contacts of each other; `a` and `b` run `agent net`. */
async function pair(language: "en" | "tr") {
  const [spineA, spineB, homeA, homeB] = await Promise.all([
    startSpine({ hubToken: "ta" }),
    startSpine({ hubToken: "tb" }),
    newHome(language),
    newHome(language),
  ]);
  const close = async () => {
    await spineA.stop();
    await spineB.stop();
    await homeA[Symbol.asyncDispose]();
    await homeB[Symbol.asyncDispose]();
  };
  const env = (spine: typeof spineA, token: string) => ({
    AGENT_SPINE_URL: spine.url,
    AGENT_SPINE_TOKEN: token,
    AGENT_NET_ALLOW_INSECURE: "1",
  });
  const [envA, envB] = [env(spineA, "ta"), env(spineB, "tb")];
  const a = (...args: string[]) => agent(["--home", homeA.path, "net", ...args], { env: envA });
  const b = (...args: string[]) => agent(["--home", homeB.path, "net", ...args], { env: envB });
  // A poll whose sentence the test does not read, in this process (`agent net poll --once`'s
  // own calls): the spawned command is ~0.8 CPU-seconds; its sentence is checked where read.
  const pollA = () => netPollOnce({ home: homeA.path, env: envA });
  const pollB = () => netPollOnce({ home: homeB.path, env: envB });
  try {
    // The handshake is not these tests' point: it runs in this process (tests/_net_here.ts).
    await acceptedPair(
      { home: homeA.path, env: envA, name: "Alice" },
      { home: homeB.path, env: envB, name: "Bob" },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { a, b, pollA, pollB, addressA: spineA.address, addressB: spineB.address, close };
}

Deno.test("agent net remove tells the other side, contacts shows both sides, a re-add asks again", async () => {
  const p = await pair("en");
  try {
    assert.equal(
      (await p.a("contacts")).stdout,
      `accepted    ${p.addressB}  Bob\n  their side: accepted\n`,
    );
    const removed = await p.a("remove", p.addressB);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(
      removed.stdout,
      `Forgot ${p.addressB} and told it (its log and session stay); \`agent net add ${p.addressB}\` asks again.\n`,
    );
    assert.equal((await p.b("poll", "--once")).stdout, "Handled 1 envelope(s), dropped 0.\n");
    assert.equal(
      (await p.b("contacts")).stdout,
      `removed     ${p.addressA}  Alice\n  their side: removed you; \`agent net add ${p.addressA}\` sends a new request\n`,
    );
    assert.ok(
      (await p.b("status")).stdout.includes(
        "contacts: 0 accepted, 0 asking you, 0 waiting, 1 removed you, 0 blocked",
      ),
    );
    const send = await p.b("send", p.addressA, "Still there?");
    assert.equal(send.code, 1);
    assert.equal(
      send.stderr.trim(),
      `${p.addressA} removed you as a contact; \`agent net add ${p.addressA}\` sends a new request.`,
    );

    // Alice adds Bob again: a new request, which Bob's owner accepts.
    assert.equal((await p.a("add", p.addressB, "--note", "Sorry")).code, 0);
    assert.equal(
      (await p.a("contacts")).stdout,
      `pending_out ${p.addressB}  Bob · Sorry\n  their side: your request waits for their answer\n`,
    );
    assert.equal((await p.pollB()).handled, 1);
    assert.equal(
      (await p.b("contacts")).stdout,
      `pending_in  ${p.addressA}  Alice · Sorry\n  their side: waiting for your answer\n` +
        `  accept with \`agent net accept ${p.addressA}\`\n`,
    );
    assert.equal((await p.b("accept", p.addressA)).code, 0);
    assert.equal((await p.pollA()).handled, 1);
    assert.ok((await p.a("contacts")).stdout.startsWith(`accepted    ${p.addressB}`));
    assert.ok((await p.b("contacts")).stdout.startsWith(`accepted    ${p.addressA}`));

    // A blocked peer gets no signal: Bob blocks, then removes; Alice hears nothing.
    assert.equal((await p.b("block", p.addressA)).code, 0);
    assert.ok((await p.b("contacts")).stdout.includes("their side: not told"));
    const quiet = await p.b("remove", p.addressA);
    assert.equal(quiet.stdout, `Forgot ${p.addressA} (its log and session stay).\n`);
    assert.equal((await p.a("poll", "--once")).stdout, "Handled 0 envelope(s), dropped 0.\n");
    assert.ok((await p.a("contacts")).stdout.startsWith(`accepted    ${p.addressB}`));
  } finally {
    await p.close();
  }
});

Deno.test("agent net remove and contacts speak Turkish", async () => {
  const p = await pair("tr");
  try {
    assert.equal(
      (await p.a("contacts")).stdout,
      `accepted    ${p.addressB}  Bob\n  karşı taraf: kabul etti\n`,
    );
    const removed = await p.a("remove", p.addressB);
    assert.equal(
      removed.stdout,
      `${p.addressB} unutuldu ve kendisine bildirildi (kaydı ve oturumu kalır); \`agent net add ${p.addressB}\` yeniden sorar.\n`,
    );
    assert.equal((await p.pollB()).handled, 1);
    assert.equal(
      (await p.b("contacts")).stdout,
      `removed     ${p.addressA}  Alice\n  karşı taraf: sizi çıkardı; \`agent net add ${p.addressA}\` yeni bir istek gönderir\n`,
    );
    assert.ok(
      (await p.b("status")).stdout.includes(
        "kişiler: 0 kabul edilmiş, 0 size soruyor, 0 bekliyor, 1 sizi çıkardı, 0 engelli",
      ),
    );
    const send = await p.b("send", p.addressA, "Orada mısın?");
    assert.equal(
      send.stderr.trim(),
      `${p.addressA} sizi kişilerinden çıkardı; \`agent net add ${p.addressA}\` yeni bir istek gönderir.`,
    );
  } finally {
    await p.close();
  }
});
