// The [memory] table of docs/memory.md against the defaults in code.
import assert from "node:assert/strict";
import { parseConfig } from "@agent/hub";

const DOC = new URL("../../docs/memory.md", import.meta.url);

Deno.test("docs/memory.md lists every [memory] key with its default", async () => {
  const text = await Deno.readTextFile(DOC);
  const table = text.slice(text.indexOf("## `[memory]`"));
  const rows = new Map<string, string>();
  for (const line of table.split("\n")) {
    const m = /^\| `([a-z_]+)`\s*\| `?([^|`]+?)`?\s*\|/.exec(line);
    if (m) rows.set(m[1]!, m[2]!);
  }
  // The defaults as the loader gives them to a file without a [memory] table.
  const defaults = parseConfig(
    '[models.roles.brain]\nprovider = "fake"\nmodel_id = "m"\n',
    "agent.toml",
  )
    .memory as unknown as Record<string, unknown>;
  assert.deepEqual([...rows.keys()].sort(), Object.keys(defaults).sort());
  for (const [key, value] of Object.entries(defaults)) {
    const shown = typeof value === "string" ? `"${value}"` : String(value);
    assert.equal(rows.get(key), shown, key);
  }
});
