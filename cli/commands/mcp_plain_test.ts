import assert from "node:assert/strict";
import { Command } from "commander";
import { command, plainMcpArgs } from "./mcp.ts";

/** What commander hands `run` for `agent mcp WORDS…` (as `_program.ts` attaches it). */
async function commanderArgs(words: string[]) {
  const program = new Command("agent").exitOverride();
  const mcp = program.command("mcp").exitOverride();
  command.configure(mcp, "en");
  let got: { args: string[]; opts: Record<string, unknown> } | undefined;
  for (const sub of mcp.commands) {
    sub.exitOverride().action((...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      got = { args: [sub.name(), ...self.args], opts: self.opts() };
    });
  }
  await program.parseAsync(["mcp", ...words], { from: "user" });
  return got;
}

Deno.test("plainMcpArgs() reads list and add as commander does", async () => {
  for (
    const words of [
      ["list"],
      ["list", "--json"],
      ["add", "everything", "--", "npx", "-y", "@modelcontextprotocol/server-everything"],
      ["add", "fs", "--", "deno", "run", "-A", "server.ts", "--", "-h", "--url", "x"],
      ["add", "web", "--url", "http://127.0.0.1:9/mcp"],
    ]
  ) {
    const plain = plainMcpArgs(words);
    assert.ok(plain !== undefined, words.join(" "));
    assert.deepEqual(plain, await commanderArgs(words), words.join(" "));
  }
});

Deno.test("plainMcpArgs() leaves anything else to commander", () => {
  for (
    const words of [
      [],
      ["list", "--help"],
      ["list", "extra"],
      ["list", "--json", "--json"],
      ["add"],
      ["add", "--url", "http://x"],
      ["add", "name"],
      ["add", "name", "--"],
      ["add", "name", "command"], // no `--`: commander reads the options
      ["add", "name", "--url"],
      ["add", "name", "--url", "http://x", "more"],
      ["add", "name", "--url", "--json"],
      ["add", "-h"],
      ["show", "name"],
      ["remove", "name"],
    ]
  ) {
    assert.equal(plainMcpArgs(words), undefined, words.join(" "));
  }
});
