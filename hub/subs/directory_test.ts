import assert from "node:assert/strict";

import { defaultConfig } from "../config/parse.ts";
import { type AgentPaths, resolvePaths } from "../paths.ts";
import { parseSubAgentFile } from "./definition.ts";
import { loadSubAgentDirectory, reportSubs } from "./directory.ts";
import { derivedPersona, writeDerivedPersona } from "./persona.ts";
import { subAgentDirectoryFrom } from "./from_registry.ts";
import { loadComponents } from "../app/components.ts";
import { tempDir } from "../../tests/_temp_dir.ts";

/** Paths of a fresh home holding `files` as sub-agents; the test's `using` block removes it. */
async function home(files: Record<string, string>): Promise<AgentPaths & Disposable> {
  const dir = tempDir("agent-subs-");
  const paths = Object.assign(resolvePaths({ home: dir.path, env: {} }), {
    [Symbol.dispose]: () => dir[Symbol.dispose](),
  });
  await Deno.mkdir(`${paths.personaDir}/subs`, { recursive: true });
  await Deno.writeTextFile(`${paths.personaDir}/user.md`, "SECRET owner facts");
  await Deno.writeTextFile(`${paths.personaDir}/net.md`, "Public facts");
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${paths.personaDir}/subs/${name}`, text);
  }
  return paths;
}

Deno.test("parseSubAgentFile() reads every key, quotes, comments and the persona body", () => {
  const parsed = parseSubAgentFile(
    '\uFEFF---\r\n# a comment\r\nabout: "Chess: openings"\r\nrole: fast\r\npublic: true\r\n' +
      "public_note: 'chess-note.md'\r\n---\r\n\r\nYou know chess.\r\nBe brief.\r\n",
  );
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.definition, {
    about: "Chess: openings",
    role: "fast",
    public: true,
    public_note: "chess-note.md",
    persona: "You know chess.\nBe brief.",
  });
});

Deno.test("parseSubAgentFile() defaults to private with no role and no note", () => {
  const parsed = parseSubAgentFile("---\n---\nHi.");
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.definition, {
    about: "",
    role: undefined,
    public: false,
    public_note: undefined,
    persona: "Hi.",
  });
});

Deno.test("parseSubAgentFile() names what is wrong with a bad front matter", () => {
  const problem = (text: string) => {
    const parsed = parseSubAgentFile(text);
    return parsed.ok ? undefined : parsed.problem;
  };
  assert.deepEqual(problem("about: x\n"), { code: "no_front_matter" });
  assert.deepEqual(problem("---\nabout: x\n"), { code: "unclosed_front_matter" });
  assert.deepEqual(problem("---\nabout x\n---\n"), { code: "bad_line", line: 2 });
  assert.deepEqual(problem("---\ncolour: red\n---\n"), { code: "unknown_key", key: "colour" });
  assert.deepEqual(problem("---\nabout: a\nabout: b\n---\n"), {
    code: "duplicate_key",
    key: "about",
  });
  assert.deepEqual(problem("---\npublic: yes\n---\n"), { code: "bad_public", value: "yes" });
  assert.deepEqual(problem("---\npublic_note: ../user.md\n---\n"), {
    code: "bad_note_name",
    value: "../user.md",
  });
  assert.deepEqual(problem("---\npublic_note: sub/x.md\n---\n"), {
    code: "bad_note_name",
    value: "sub/x.md",
  });
  assert.deepEqual(problem("---\nrole: a b\n---\n"), { code: "bad_role", value: "a b" });
  assert.deepEqual(problem('---\nabout: "unclosed\n---\n'), { code: "bad_line", line: 2 });
});

Deno.test("loadSubAgentDirectory() answers public sub-agents only", async () => {
  using paths = await home({
    "chess.md": "---\nabout: Chess openings\nrole: fast\npublic: true\n" +
      "public_note: chess-note.md\n---\nYou know chess.\n",
    "chess-note.md": "The owner plays the Sicilian.",
    "diary.md": "---\nabout: The owner's diary\npublic: false\n---\nYou keep the diary.\n",
    "cook.md": "---\nabout: Recipes\npublic: true\n---\nYou cook.\n",
    "ghost.md": "---\nabout: Haunts\nrole: nope\npublic: true\n---\nBoo.\n",
    "Upper.md": "---\nabout: Bad name\npublic: true\n---\nx\n",
    "lost.md": "---\npublic: true\npublic_note: missing.md\n---\nx\n",
  });
  const cfg = defaultConfig();
  const dir = loadSubAgentDirectory(cfg, paths);
  const chess = await dir.public("chess");
  assert.deepEqual(chess, {
    name: "chess",
    about: "Chess openings",
    role: "fast",
    persona_file: `${paths.personaDir}/subs/chess.md`,
    public_note_file: `${paths.personaDir}/subs/chess-note.md`,
  });
  // No note named: the agent's own public note; no role named: brain.
  assert.deepEqual(await dir.public("cook"), {
    name: "cook",
    about: "Recipes",
    role: "brain",
    persona_file: `${paths.personaDir}/subs/cook.md`,
    public_note_file: `${paths.personaDir}/net.md`,
  });
  assert.deepEqual(await dir.public("diary"), undefined, "private");
  assert.deepEqual(await dir.public("ghost"), undefined, "unknown role");
  assert.deepEqual(await dir.public("lost"), undefined, "missing note");
  assert.deepEqual(await dir.public("nobody"), undefined, "unknown");
  assert.deepEqual(await dir.public("chess-note"), undefined, "a note is no sub-agent");
  assert.deepEqual(await dir.public("Upper"), undefined, "invalid name");
  assert.deepEqual(await dir.public("../user"), undefined, "invalid name");
  assert.deepEqual((await dir.public_subs()).map((s) => s.name), ["chess", "cook"]);
  const entries = await dir.entries();
  assert.deepEqual(
    entries.map((e) => [e.name, e.public, e.problem?.code]),
    [
      ["Upper", false, "bad_name"],
      ["chess", true, undefined],
      ["cook", true, undefined],
      ["diary", false, undefined],
      ["ghost", false, "unknown_role"],
      ["lost", false, "note_missing"],
    ],
  );
});

Deno.test("loadSubAgentDirectory() refuses a persona or note that is persona/user.md", async () => {
  using paths = await home({
    "spy.md": "---\nabout: Spy\npublic: true\npublic_note: leak.md\n---\nx\n",
    "twin.md": "---\nabout: Twin\npublic: true\npublic_note: hard.md\n---\nx\n",
    "plain.md": "---\nabout: Plain\npublic: true\n---\nx\n",
  });
  const subs = `${paths.personaDir}/subs`;
  await Deno.symlink("../user.md", `${subs}/leak.md`);
  await Deno.link(`${paths.personaDir}/user.md`, `${subs}/hard.md`);
  // A definition that is user.md itself (with a front matter written into it).
  await Deno.writeTextFile(
    `${paths.personaDir}/user.md`,
    "---\nabout: Owner\npublic: true\n---\nSECRET owner facts\n",
  );
  await Deno.symlink("../user.md", `${subs}/owner.md`);
  const dir = loadSubAgentDirectory(defaultConfig(), paths);
  assert.deepEqual(await dir.public("spy"), undefined);
  assert.deepEqual(await dir.public("twin"), undefined);
  assert.deepEqual(await dir.public("owner"), undefined);
  assert.ok(await dir.public("plain"));
  const problems = Object.fromEntries((await dir.entries()).map((e) => [e.name, e.problem]));
  assert.deepEqual(problems.spy, { code: "user_md", which: "note" });
  assert.deepEqual(problems.twin, { code: "user_md", which: "note" });
  assert.deepEqual(problems.owner, { code: "user_md", which: "persona" });
  // The agent's own public note set to user.md makes every note-less sub-agent invalid.
  const cfg = defaultConfig();
  cfg.net.public_note = "user.md";
  assert.deepEqual(await loadSubAgentDirectory(cfg, paths).public("plain"), undefined);
});

Deno.test("derivedPersona() puts the header before the persona text", async () => {
  assert.deepEqual(
    derivedPersona(
      { name: "cook", about: "Recipes and menus." },
      "---\npublic: true\n---\nYou cook.",
    ),
    "You are /cook, a specialist of your owner's agent: Recipes and menus.\n\nYou cook.\n",
  );
  assert.deepEqual(
    derivedPersona({ name: "cook", about: "" }, "---\n---\n"),
    "You are /cook, a specialist of your owner's agent.\n",
  );
  using paths = await home({ "cook.md": "---\nabout: Recipes\npublic: true\n---\nYou cook.\n" });
  const sub = await loadSubAgentDirectory(defaultConfig(), paths).public("cook");
  assert.ok(sub);
  const file = await writeDerivedPersona(sub, paths);
  assert.deepEqual(file, `${paths.dataDir}/subs/cook.persona.md`);
  assert.deepEqual(
    await Deno.readTextFile(file),
    "You are /cook, a specialist of your owner's agent: Recipes.\n\nYou cook.\n",
  );
  assert.deepEqual((await Deno.stat(file)).mode! & 0o777, 0o600);
});

Deno.test("reportSubs() lists at most 20 by name with about cut to 200", () => {
  const subs = Array.from({ length: 25 }, (_, i) => ({
    name: `s${String(24 - i).padStart(2, "0")}`,
    about: "a".repeat(250),
    role: "brain",
    persona_file: "",
    public_note_file: "",
  }));
  const report = reportSubs(subs);
  assert.deepEqual(report.length, 20);
  assert.deepEqual(report[0], { name: "s00", about: "a".repeat(200) });
  assert.deepEqual(report[19]?.name, "s19");
});

Deno.test("the built-in agent.subs component is the persona/subs directory", async () => {
  using paths = await home({ "cook.md": "---\nabout: Recipes\npublic: true\n---\nYou cook.\n" });
  const config = defaultConfig();
  const registry = await loadComponents(config, paths);
  const subs = registry.components.filter((c) => c.group === "agent.subs");
  assert.deepEqual(subs.map((c) => [c.name, c.enabled, c.source]), [[
    "persona-subs",
    true,
    "builtin",
  ]]);
  const found = await subAgentDirectoryFrom(registry, { config, paths });
  assert.deepEqual(found.failures, []);
  assert.deepEqual(found.component, "persona-subs");
  assert.deepEqual((await found.directory?.public("cook"))?.about, "Recipes");
  // A broken entry point before it is skipped and reported; a disabled one is passed over.
  const broken = { ...subs[0]!, name: "broken", load: () => Promise.resolve(42) };
  const off = { ...subs[0]!, name: "off", enabled: false, load: () => Promise.reject(new Error()) };
  const again = await subAgentDirectoryFrom({ components: [off, broken, ...subs] }, {
    config,
    paths,
  });
  assert.deepEqual(again.component, "persona-subs");
  assert.deepEqual(again.failures, [{
    component: "broken",
    detail: "the entry point is not a factory",
  }]);
  // Disabling the built-in in agent.toml leaves the hub without sub-agents.
  config.components.disabled = ["persona-subs"];
  const none = await subAgentDirectoryFrom(await loadComponents(config, paths), { config, paths });
  assert.deepEqual(none.directory, undefined);
});
