import assert from "node:assert/strict";
import { checkDocRefs, privateRefs } from "./doc_refs.ts";
import { tempDir } from "../../tests/_temp_dir.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("privateRefs() reads deno doc's findings and leaves npm packages' types alone", () => {
  const output = [
    "\x1b[1merror[private-type-ref]\x1b[0m: public type 'Ledger.prototype.begin' references private type 'HardCap'",
    "  --> /r/hub/money/ledger.ts:209:3",
    "   | ",
    "error[private-type-ref]: public type 'AgentTool' references private type 'ZodType'",
    "  --> /r/hub/tools/tool.ts:25:1",
    "error[missing-jsdoc]: exported symbol is missing JSDoc documentation",
    "  --> /r/hub/log.ts:28:3",
  ].join("\n");
  assert.deepEqual(privateRefs(output, "/r"), [
    { symbol: "Ledger.prototype.begin", type: "HardCap", at: "hub/money/ledger.ts:209" },
  ]);
});

Deno.test("the workspace's published signatures name only published types", async () => {
  assert.deepEqual(await checkDocRefs(ROOT), []);
});

Deno.test("a door whose function takes a type it does not export is named", async () => {
  await using root = await tempDir("agent-doc-refs-");
  await Deno.mkdir(`${root.path}/p`);
  await Deno.writeTextFile(`${root.path}/deno.json`, JSON.stringify({ workspace: ["./p"] }));
  await Deno.writeTextFile(
    `${root.path}/p/deno.json`,
    JSON.stringify({ name: "@t/p", version: "0.1.0", exports: "./mod.ts" }),
  );
  await Deno.writeTextFile(
    `${root.path}/p/mod.ts`,
    [
      "/** @module */",
      "interface Options { loud: boolean }",
      "/** Says hello. */",
      "export function hello(options: Options): string { return options.loud ? 'HI' : 'hi'; }",
      "",
    ].join("\n"),
  );
  const root2 = await Deno.realPath(root.path);
  assert.deepEqual(await checkDocRefs(root2), [
    { symbol: "hello", type: "Options", at: "p/mod.ts:4" },
  ]);
});
