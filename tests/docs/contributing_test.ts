import assert from "node:assert/strict";
import { LAYERS } from "../../_tools/doors/doors.ts";
import {
  layerTableProblems,
  memberTableProblems,
  namedSpans,
  readMemberConfigs,
} from "./contributing.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const contributing = () => Deno.readTextFile(`${ROOT}/CONTRIBUTING.md`);

Deno.test("CONTRIBUTING.md's layer table is LAYERS of _tools/doors/doors.ts, top down", async () => {
  assert.deepEqual(layerTableProblems(await contributing(), LAYERS.hub!), []);
});

Deno.test("CONTRIBUTING.md's member table names every member, its package and exports", async () => {
  assert.deepEqual(memberTableProblems(await contributing(), await readMemberConfigs(ROOT)), []);
});

Deno.test("layerTableProblems() names a folder missing, one extra and the layers' order", () => {
  const layers = [
    { name: "leaves", paths: ["paths.ts"] },
    { name: "domain", paths: ["ledger/", "spend/"] },
  ];
  const table = (rows: string[]) =>
    ["| Layer | Folders and files |", "| --- | --- |", ...rows, ""].join("\n");
  assert.deepEqual(
    layerTableProblems(
      table([
        "| domain | `ledger/` (the ledger: `open.ts`), `money/` |",
        "| leaves | `paths.ts` |",
      ]),
      layers,
    ),
    ["line 3: domain lacks spend/ (in LAYERS)", "line 3: domain lists money/ (not in LAYERS)"],
  );
  assert.deepEqual(
    layerTableProblems(
      table(["| leaves | `paths.ts` |", "| domain | `ledger/`, `spend/` |"]),
      layers,
    ),
    ["the layers are leaves, domain; LAYERS has domain, leaves"],
  );
});

Deno.test("memberTableProblems() names a missing export, a stale one and a missing member", () => {
  const markdown = [
    "| Member | Package | What it is for | Exports |",
    "| --- | --- | --- | --- |",
    "| `hub/` | `@agent/hub` | the hub (`.` in notes counts not) | `.`; `./base` (`a`), `./money` |",
    "",
  ].join("\n");
  assert.deepEqual(
    memberTableProblems(markdown, [
      { dir: "hub", name: "@agent/hub", exports: [".", "./base", "./jobs"] },
      { dir: "net", name: "@agent/net", exports: ["."] },
    ]),
    [
      "line 3: hub/ lacks the export ./jobs",
      "line 3: hub/ lists ./money, not an export",
      "the member table lacks net/",
    ],
  );
});

Deno.test("namedSpans() skips the code spans inside a row's notes", () => {
  assert.deepEqual(namedSpans("`app/` (`startHub()` (and `x/`)), `mod.ts`"), ["app/", "mod.ts"]);
});
