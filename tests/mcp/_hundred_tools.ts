/**
 * An agent whose only tools are 100 of one MCP server's (pinned; `tool_042` lowered to
 * tier 1), answering with the fake provider's `replies` under a metered role whose
 * `context_tokens` is {@linkcode CONTEXT_TOKENS}, so each call's definition tokens are on
 * its ledger row. The turn test and the `mcp` benchmark use it.
 *
 * @module
 */
import { buildAgent, Ledger, McpServers } from "@agent/hub";
import { PinStore } from "@agent/hub/mcp";
import { config } from "../_models.ts";
import { baseEnv, fixture, homePaths } from "./_servers.ts";

/** The role's `context_tokens`. */
export const CONTEXT_TOKENS = 32_000;

/** The agent over 100 MCP tools in a home at `dir`; dispose it to stop the server. */
export async function hundredTools(dir: string, replies: string[]) {
  const paths = homePaths(dir);
  await Deno.mkdir(paths.personaDir, { recursive: true });
  await Deno.writeTextFile(`${paths.personaDir}/persona.md`, "You are a careful agent.");
  const cfg = config(`
[models.roles.brain]
provider = "fake"
model_id = "fake-1"
context_tokens = ${CONTEXT_TOKENS}
[models.roles.brain.params]
replies = ${JSON.stringify(replies)}
[models.roles.brain.budget]
usd = 5
period = "month"
`);
  cfg.mcp.servers.many = { ...fixture("many", "100"), tiers: { tool_042: 1 } };
  const first = new McpServers({ config: cfg, env: baseEnv(), paths, lang: "en" });
  await first.start();
  await new PinStore(paths.dataDir).pin("many", first.statuses()[0]!.listed);
  await first.close();
  const mcp = new McpServers({ config: cfg, env: baseEnv(), paths, lang: "en" });
  await mcp.start();
  const ledger = Ledger.open(paths.ledgerFile);
  const agent = buildAgent({
    config: cfg,
    env: {},
    paths,
    channel: "chat",
    role: "brain",
    tools: mcp.tools(),
    persona: { personaFile: `${paths.personaDir}/persona.md` },
    ledger,
  });
  return {
    agent,
    ledger,
    mcp,
    async [Symbol.asyncDispose]() {
      await mcp.close();
      ledger.close();
    },
  };
}
