import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { mcpServerOf } from "./tools_config.ts";
import { addServerTable } from "../mcp/config_file.ts";

const BASE = '[models.roles.brain]\nprovider = "fake"\nmodel_id = "m"\n';

Deno.test("mcpServerOf() gives a server's table as the parser makes it from what add writes", () => {
  for (
    const spec of [
      { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything", ""] },
      { command: "/usr/bin/server" },
      { url: "https://mcp.example.org/mcp" },
    ]
  ) {
    const parsed = parseConfig(addServerTable(BASE, "s", spec), "agent.toml").mcp.servers.s;
    assert.deepEqual(mcpServerOf(spec), parsed, JSON.stringify(spec));
  }
});
