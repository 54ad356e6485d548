import assert from "node:assert/strict";
import { defaultConfig } from "../config/parse.ts";
import { resolvePaths } from "../paths.ts";
import { subsCheck } from "./doctor.ts";
import { loadComponents } from "../app/components.ts";
import { tempDir } from "../../tests/_temp_dir.ts";

/** A doctor context over a fresh home holding `files`; the test's `using` block removes it. */
async function context(files: Record<string, string>) {
  const home = tempDir("agent-subs-");
  const paths = resolvePaths({ home: home.path, env: {} });
  await Deno.mkdir(`${paths.personaDir}/subs`, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${paths.personaDir}/subs/${name}`, text);
  }
  return {
    [Symbol.dispose]: () => home[Symbol.dispose](),
    paths,
    env: {},
    lang: "en" as const,
    config: defaultConfig(),
    configError: undefined,
    registry: () => loadComponents(undefined, resolvePaths({ home: "/nowhere", env: {} })),
    now: Date.now(),
  };
}

Deno.test("subsCheck() lists public and private sub-agents and says why others answer no one", async () => {
  using d = await context({
    "chess.md": "---\nabout: Chess\nrole: fast\npublic: true\n---\nx\n",
    "diary.md": "---\nabout: Diary\n---\nx\n",
    "ghost.md": "---\nrole: nope\npublic: true\n---\nx\n",
    "typo.md": "---\npublik: true\n---\nx\n",
    "note.md": "Just a public note.",
  });
  assert.deepEqual(await subsCheck(d), [
    { name: "subs", status: "ok", detail: "public: /chess; private: /diary." },
    {
      name: "subs",
      status: "warn",
      detail: "persona/subs/ghost.md: role 'nope' is not defined in agent.toml; it answers no one.",
    },
    {
      name: "subs",
      status: "warn",
      detail:
        "persona/subs/typo.md: unknown key 'publik' (keys: about, role, public, public_note); it answers no one.",
    },
  ]);
  const tr = await subsCheck({ ...d, lang: "tr" });
  assert.equal(tr[0]?.detail, "herkese açık: /chess; özel: /diary.");
});

Deno.test("subsCheck() prints nothing without sub-agent definitions", async () => {
  using note = await context({ "note.md": "x" });
  assert.deepEqual(await subsCheck(note), []);
  using empty = await context({});
  assert.deepEqual(await subsCheck({ ...empty, config: undefined }), []);
});
