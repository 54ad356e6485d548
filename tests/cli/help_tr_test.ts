/**
 * `--help` in Turkish names its placeholders in Turkish (issue 39 F27): `[seçenekler]`,
 * `<dizin>`, `<hedef> <metin...>`, lined up in their columns; and `hub systemd-unit`
 * takes the Deno executable as `--deno PATH` (`--python`, the specification's name for
 * it, still works).
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "./_run.ts";
import { PLACEHOLDERS } from "../../cli/_messages.ts";

const TURKISH = new Set(Object.values(PLACEHOLDERS.tr));

/** The placeholder words of a help text's usage lines and terms. */
function placeholderWords(help: string): string[] {
  const terms = help.split("\n").flatMap((line) => {
    const usage = /^Kullanım:(.*)$/.exec(line);
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
    const helps = await Promise.all([
      ...commands.map((c) => agent(["--lang", "tr", c, "--help"])),
      agent(["--lang", "tr", "hub", "systemd-unit", "--help"]),
      agent(["--lang", "tr", "jobs", "add", "--help"]),
      agent(["--lang", "tr", "net", "send", "--help"]),
    ]);
    const english = new Set<string>();
    const seen = new Set<string>();
    for (const help of [top, ...helps]) {
      assert.equal(help.code, 0, help.stderr);
      for (const word of placeholderWords(help.stdout)) {
        seen.add(word);
        if (!TURKISH.has(word)) english.add(word);
      }
    }
    assert.ok(seen.has("seçenekler") && seen.has("yol") && seen.size > 8, [...seen].join(" "));
    // Was: [options], [command], <name>, <dir>, <path>, <text...> … in a Turkish help.
    assert.deepEqual([...english], []);
    const net = helps[commands.indexOf("net")]!.stdout;
    assert.match(net, /^ {2}send <hedef> <metin\.\.\.> {2,}\S/m);
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
