import assert from "node:assert/strict";
import { agent, fakeConfig, makeHome } from "../chat/_run.ts";

function toolResults(home: string): { toolName: string; output: unknown; notRun?: string }[] {
  const results: { toolName: string; output: unknown; notRun?: string }[] = [];
  for (const session of Deno.readDirSync(`${home}/data/sessions`)) {
    const dir = `${home}/data/sessions/${session.name}/agents/main/messages`;
    for (const file of [...Deno.readDirSync(dir)].map((e) => e.name).sort()) {
      const row = JSON.parse(Deno.readTextFileSync(`${dir}/${file}`));
      if (row.message.role !== "tool") continue;
      for (const part of row.message.content) results.push(part);
    }
  }
  return results;
}

Deno.test("agent chat offers net_send (tier 2); without a terminal the answer is no and nothing is sent", async () => {
  const home = makeHome(fakeConfig([
    '/tool net_send {"to":"127.0.0.1:9/bob","text":"hi"}',
    "I did not send it.",
  ]));
  try {
    const r = await agent(["chat"], { home, stdin: "Tell bob hi\n" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "I did not send it.\n");
    const [result] = toolResults(home);
    assert.equal(result?.toolName, "net_send");
    // Offered (not "unavailable tool") and refused (no one to ask), never run; the model
    // is told so.
    assert.equal(result.notRun, "no_one_to_ask");
    assert.match(JSON.stringify(result.output), /net_send did NOT run/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent chat leaves out a tool disabled in [components]", async () => {
  const home = makeHome(
    `${
      fakeConfig(['/tool net_send {"to":"127.0.0.1:9","text":"hi"}', "Cannot."])
    }\n[components]\ndisabled = ["net_send"]\n`,
  );
  try {
    const r = await agent(["chat"], { home, stdin: "Tell bob hi\n" });
    assert.equal(r.code, 0, r.stderr);
    const [result] = toolResults(home);
    assert.match(JSON.stringify(result?.output), /There is no tool named net_send;/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
