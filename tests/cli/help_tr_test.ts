/**
 * `--help` in Turkish names its placeholders in Turkish (issue 39 F27): `[seçenekler]`,
 * `<dizin>`, `<hedef> <metin...>`, lined up in their columns; and `hub systemd-unit`
 * takes the Deno executable as `--deno PATH` (`--python`, the specification's name for
 * it, still works).
 */
import assert from "node:assert/strict";
import { agent, agentHere, cleanup, tempHome } from "./_run.ts";

/** Placeholder words Turkish writes as English does. */
const SAME_IN_BOTH = new Set(["json", "url", "usd"]);

/** The placeholder words of a help text's usage lines and terms. */
function placeholderWords(help: string): string[] {
  const terms = help.split("\n").flatMap((line) => {
    const usage = /^(?:Kullanım|Usage):(.*)$/.exec(line);
    if (usage) return [usage[1]!];
    const term = /^ {2}(\S.*?)(?: {2,}|$)/.exec(line);
    return term ? [term[1]!] : [];
  });
  return terms.flatMap((t) => [...t.matchAll(/[<[]([^\]>.]+)(?:\.\.\.)?[>\]]/g)].map((m) => m[1]!));
}

Deno.test("agent --help in Turkish: every placeholder is a Turkish word", async () => {
  try {
    const top = await agent(["--lang", "tr", "--help"]);
    assert.equal(top.code, 0, top.stderr);
    assert.match(top.stdout, /^Kullanım: agent \[seçenekler\] \[komut\]$/m);
    assert.match(top.stdout, /^ {2}--home <dizin> {2,}ajanın ana dizini/m);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z][a-z-]*)(?: |$)/gm)].map((m) => m[1]!)
      .filter((c) => c !== "help");
    assert.ok(commands.includes("net") && commands.includes("hub"), top.stdout);
    const more = (lang: string) => [
      ...commands.map((c) => ["--lang", lang, c, "--help"]),
      ["--lang", lang, "hub", "systemd-unit", "--help"],
      ["--lang", lang, "jobs", "add", "--help"],
      ["--lang", lang, "net", "send", "--help"],
    ];
    // Each command's help in this process, through the same main(): the point is their
    // words (a process each would cost ~0.3 s of processor time, 36 of them), whatever
    // the command (`agentHere()`, not `agent()`, which gives `hub systemd-unit` a process);
    // the top help above, English's and `net`'s below are printed by the real command.
    const here = async (runs: string[][]) => {
      const home = tempHome();
      const done = [];
      for (const args of runs) done.push(await agentHere(home, args));
      return done;
    };
    const helps = await here(more("tr"));
    const english = [await agent(["--lang", "en", "--help"]), ...await here(more("en"))];
    const words = (runs: typeof helps) =>
      new Set(runs.flatMap((help) => {
        assert.equal(help.code, 0, help.stderr);
        return placeholderWords(help.stdout);
      }));
    const tr = words([top, ...helps]);
    const en = words(english);
    assert.ok(tr.has("seçenekler") && tr.has("yol") && en.has("options"), [...tr].join(" "));
    // Was: [options], [command], <name>, <dir>, <path>, <text...> … in a Turkish help.
    const untranslated = [...tr].filter((w) => en.has(w) && !SAME_IN_BOTH.has(w));
    assert.deepEqual(untranslated, []);
    const net = await agent(["--lang", "tr", "net", "--help"]);
    assert.equal(net.code, 0, net.stderr);
    assert.match(net.stdout, /^ {2}send <hedef> <metin\.\.\.> {2,}\S/m);
    assert.match(helps[commands.indexOf("net")]!.stdout, /^ {2}send <hedef> <metin\.\.\.> {2,}\S/m);
  } finally {
    await cleanup();
  }
});

Deno.test("agent hub systemd-unit takes the Deno executable as --deno; --python still works", async () => {
  try {
    const help = await agent(["hub", "systemd-unit", "--help"]);
    assert.match(help.stdout, /--deno <path> +the Deno executable that runs the hub/);
    for (const flag of ["--deno", "--python"]) {
      const unit = await agent(["hub", "systemd-unit", flag, "/opt/deno/bin/deno"]);
      assert.equal(unit.code, 0, unit.stderr);
      assert.match(unit.stdout, /^ExecStart=\/opt\/deno\/bin\/deno /m);
    }
  } finally {
    await cleanup();
  }
});
