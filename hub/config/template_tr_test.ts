import assert from "node:assert/strict";
import { setupHome } from "./setup.ts";
import { ENV_EXAMPLE } from "./setup_files.ts";
import { CONFIG_TEMPLATE } from "./template.ts";
import { CONFIG_TEMPLATE_TR, ENV_EXAMPLE_TR } from "./template_tr.ts";
import { parseConfig } from "./parse.ts";
import { resolvePaths } from "../paths.ts";

/** The lines that are not comments (keys, tables, blank lines). */
const settings = (text: string) => text.split("\n").filter((l) => !l.startsWith("#"));

/** The `#` comment lines that hold `# key = value` examples (kept as they are). */
const examples = (text: string) => text.split("\n").filter((l) => /^# (\[|[a-z_0-9]+ = )/.test(l));

Deno.test("the Turkish agent.toml and .env.example differ from the English ones in comments only", () => {
  assert.deepEqual(settings(CONFIG_TEMPLATE_TR), settings(CONFIG_TEMPLATE));
  assert.deepEqual(examples(CONFIG_TEMPLATE_TR), examples(CONFIG_TEMPLATE));
  assert.deepEqual(settings(ENV_EXAMPLE_TR), settings(ENV_EXAMPLE));
  assert.deepEqual(
    parseConfig(CONFIG_TEMPLATE_TR, "agent.toml"),
    parseConfig(CONFIG_TEMPLATE, "agent.toml"),
  );
});

Deno.test("setupHome() in Turkish writes agent.toml's and .env.example's comments in Turkish (issue 39 F11)", async () => {
  const home = await Deno.makeTempDir();
  try {
    const paths = resolvePaths({ home, env: {} });
    await setupHome(paths, { language: "tr", env: {} });
    const toml = await Deno.readTextFile(paths.configFile);
    // Was: "# agent.toml: the agent's configuration." whatever the language.
    assert.ok(toml.startsWith("# agent.toml: ajanın yapılandırması.\n"), toml.slice(0, 80));
    assert.match(toml, /^# Konuşma ve planlama; sohbet ve TUI bununla başlar\.$/m);
    assert.match(toml, /^lang = "tr"$/m);
    assert.equal(parseConfig(toml, "agent.toml").ui.lang, "tr");
    const example = await Deno.readTextFile(paths.envExampleFile);
    assert.ok(example.startsWith("# Ajanın .env dosyasından"), example.slice(0, 80));
    // English stays English.
    const en = await Deno.makeTempDir();
    try {
      const enPaths = resolvePaths({ home: en, env: {} });
      await setupHome(enPaths, { language: "en", env: {} });
      assert.ok(
        (await Deno.readTextFile(enPaths.configFile)).startsWith("# agent.toml: the agent's"),
      );
    } finally {
      await Deno.remove(en, { recursive: true });
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
