import assert from "node:assert/strict";
import { checkTables, tableCells } from "./tables.ts";
import { docFiles } from "./_markdown.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("every table in README.md, CONTRIBUTING.md and docs/ has whole rows", async () => {
  const problems: string[] = [];
  for (const file of await docFiles(ROOT)) {
    const markdown = await Deno.readTextFile(`${ROOT}/${file}`);
    for (const problem of checkTables(markdown)) problems.push(`${file}:${problem}`);
  }
  assert.deepEqual(problems, []);
});

Deno.test("tableCells() splits at unescaped pipes only", () => {
  assert.deepEqual(tableCells("| `a\\|b` | c |"), ["`a\\|b`", "c"]);
  assert.deepEqual(tableCells("a | b"), ["a", "b"]);
  assert.deepEqual(tableCells("| a | |"), ["a", ""]);
});

Deno.test("checkTables() finds the row an unescaped pipe in code split (the old kit row)", () => {
  const markdown = [
    "| Member | Package | Exports |",
    "| ------ | ------- | ------- |",
    "| `net/` | `@agent/net` | `.` |",
    "| `kit/` | `@agent/kit` | `agent net spine init|deploy` |",
    "| `hub/` | `@agent/hub` | `.` |",
    "",
    "| Two | cells |",
    "| --- | ----- |",
    "| one cell |",
    "",
    "```md",
    "| a | b |",
    "| - | - |",
    "| c |",
    "```",
  ].join("\n");
  assert.deepEqual(checkTables(markdown), [
    "4: a table row has 4 cells, its header 3 (a '|' inside a cell needs a backslash: '\\|')",
    "4: cell 3 of a table row leaves a code span open (a '|' inside code needs a backslash: '\\|')",
    "9: a table row has 1 cells, its header 2 (a '|' inside a cell needs a backslash: '\\|')",
  ]);
  assert.deepEqual(
    checkTables("| a | b |\n| - | - |\n| `init\\|deploy` | `x` |\n"),
    [],
  );
});
