import assert from "node:assert/strict";
import { parseConfig } from "../config/parse.ts";
import { tomlKey } from "./core_checks.ts";

Deno.test("the unpriced advice's table key is valid TOML for ids with a dot, and agent.toml accepts it", () => {
  for (const id of ["gpt-5.2", "anthropic.claude-v2:1", "claude-sonnet-5"]) {
    const toml = `[models.roles.brain]\nprovider = "vendor-b"\nmodel_id = "${id}"\n` +
      `[models.prices.${tomlKey(id)}]\ninput = 1\noutput = 2\n`;
    const config = parseConfig(toml, "agent.toml");
    assert.equal(config.models.prices[id]?.input, 1, id);
  }
});
