/**
 * `agent net send` to a contact whose request is pending learns the answer itself
 * (issue 39 F5): docs/network.md's two-agent recipe has A send right after B accepts,
 * with no `agent net poll --once` in between. Before B answers, A hears one clear
 * sentence, in English and Turkish.
 */
import assert from "node:assert/strict";
import { agent } from "../cli/_run.ts";
import { netNode, netPollOnce, netPublished } from "../_net_here.ts";
import { startSpine } from "../spine/_harness.ts";
import { type TempDir, tempDir } from "../_temp_dir.ts";
import { initHomeAt } from "../_init_home.ts";

async function newHome(language: "en" | "tr"): Promise<TempDir> {
  const dir = tempDir("agent-net-send-");
  await initHomeAt(dir.path, { language });
  return dir;
}

Deno.test("agent net send right after the other side accepts goes through, no poll first", async () => {
  const [spineA, spineB] = await Promise.all([
    startSpine({ hubToken: "ta" }),
    startSpine({ hubToken: "tb" }),
  ]);
  using homeA = await newHome("en");
  using homeB = await newHome("tr");
  const env = (url: string, token: string) => ({
    AGENT_SPINE_URL: url,
    AGENT_SPINE_TOKEN: token,
    AGENT_NET_ALLOW_INSECURE: "1",
  });
  const [envA, envB] = [env(spineA.url, "ta"), env(spineB.url, "tb")];
  const a = (...args: string[]) => agent(["--home", homeA.path, "net", ...args], { env: envA });
  const b = (...args: string[]) => agent(["--home", homeB.path, "net", ...args], { env: envB });
  try {
    // Identities and cards are not this test's point: made in this process (tests/_net_here.ts).
    await Promise.all([
      netPublished({ home: homeA.path, env: envA }, "Alice"),
      netPublished({ home: homeB.path, env: envB }, "Bob"),
    ]);
    // The steps around the sends (add, Bob's poll and accept) are the commands' own calls
    // in this process (tests/_net_here.ts): ~0.7 CPU-s a spawned command; the sends are
    // this test's point.
    await (await netNode({ home: homeA.path, env: envA })).add(spineB.address, "Hi Bob");
    // Not accepted yet: one sentence, after a poll that found nothing new.
    const early = await a("send", spineB.address, "Too", "soon");
    assert.equal(early.code, 1);
    assert.equal(
      early.stderr.trim(),
      `${spineB.address} has not accepted your contact request yet; send again once they have.`,
    );
    // Bob (in Turkish) has Alice's request only after his poll; he has no request out.
    const bobEarly = await b("send", spineA.address, "merhaba");
    assert.equal(bobEarly.stderr.trim(), `${spineA.address} kabul edilmiş bir kişi değil.`);
    assert.equal((await netPollOnce({ home: homeB.path, env: envB })).handled, 1);
    await (await netNode({ home: homeB.path, env: envB })).accept(spineA.address);
    // Was: "… is not an accepted contact." until `agent net poll --once`.
    const send = await a("send", spineB.address, "How", "are", "you?");
    assert.equal(send.code, 0, send.stderr);
    assert.match(send.stdout, /^Sent /);
    const contacts = await a("contacts");
    assert.match(
      contacts.stdout,
      new RegExp(`accepted\\s+${spineB.address.replaceAll(".", "\\.")}`),
    );
  } finally {
    await spineA.stop();
    await spineB.stop();
  }
});
