import assert from "node:assert/strict";
import { Command, type Option } from "commander";
import type { CommandModule, PlainArgs } from "./command.ts";
import { plainOptions, plainSubcommandArgs } from "./_plain_args.ts";
import { command as net } from "./commands/net.ts";
import { command as hub } from "./commands/hub.ts";
import { command as jobs } from "./commands/jobs.ts";
import { command as cloud } from "./commands/cloud.ts";
import { command as memory } from "./commands/memory.ts";
import { command as chat } from "./commands/chat.ts";
import { command as doctor } from "./commands/doctor.ts";
import { command as init } from "./commands/init.ts";
import { command as spend } from "./commands/spend.ts";

const GROUPS = [net, hub, jobs, cloud, memory];

/** `agent` with only `module`'s command, configured as `_program.ts` does it, silent. */
function programWith(module: CommandModule): { program: Command; cmd: Command } {
  const program = new Command("agent").enablePositionalOptions().exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  const cmd = program.createCommand(module.name).copyInheritedSettings(program);
  module.configure(cmd, "en");
  program.addCommand(cmd);
  return { program, cmd };
}

/**
 * What commander hands `run` for `agent NAME WORDS…`, or `"error"` when commander
 * refuses the words.
 */
async function commanderArgs(module: CommandModule, words: string[]) {
  const { program, cmd: group } = programWith(module);
  let got: PlainArgs | undefined;
  for (const sub of group.commands) {
    sub.exitOverride().action((...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      got = { args: [sub.name(), ...self.args], opts: self.opts() as PlainArgs["opts"] };
    });
  }
  try {
    await program.parseAsync([module.name, ...words], { from: "user" });
  } catch {
    return "error";
  }
  return got;
}

/** The group's subcommands as commander declares them. */
function declared(module: CommandModule): readonly Command[] {
  const group = new Command(module.name);
  module.configure(group, "en");
  return group.commands;
}

/** A word list that fills `sub`'s required arguments. */
function base(sub: Command): string[] {
  const args = sub.registeredArguments.filter((a) => a.required).map((_, i) => `word${i}`);
  return [sub.name(), ...args];
}

/** An option's word: the long form when it has one (`--note`), else the short (`-n`). */
function flag(option: Option): string {
  return option.long ?? option.short!;
}

Deno.test("plainArgs() of agent net, hub, jobs, cloud and memory reads each declared form as commander does", async () => {
  let read = 0;
  for (const module of GROUPS) {
    for (const sub of declared(module)) {
      const start = base(sub);
      if (module.plainArgs!(start) === undefined) continue; // left to commander
      const args = sub.registeredArguments;
      const forms: string[][] = [start];
      // Optional arguments filled, and a variadic one given three words.
      const filled = args.filter((a) => !a.required).map(() => "extra");
      const variadic = args.at(-1)?.variadic === true ? ["more", "words"] : [];
      if (filled.length + variadic.length > 0) forms.push([...start, ...filled, ...variadic]);
      const options = sub.options.filter((o) => !o.negate);
      const all: string[] = [];
      for (const option of options) {
        const word = option.isBoolean()
          ? [flag(option)]
          : [flag(option), `value of ${flag(option)}`];
        // After the arguments and before them, as commander takes them.
        forms.push([...start, ...word], [start[0]!, ...word, ...start.slice(1)]);
        if (!option.isBoolean() && option.long !== undefined) {
          forms.push([...start, `${option.long}=x`]);
        }
        all.push(...word);
      }
      forms.push([...start, ...all]);
      for (const words of forms) {
        const plain = module.plainArgs!(words);
        const label = `agent ${module.name} ${words.join(" ")}`;
        assert.ok(plain !== undefined, `${label}: not read plainly`);
        assert.deepEqual(plain, await commanderArgs(module, words), label);
        read++;
      }
    }
  }
  assert.ok(read > 40, `only ${read} forms read`);
});

Deno.test("plainArgs() of agent net, hub, jobs, cloud and memory leaves to commander what it refuses or reads otherwise", async () => {
  for (const module of GROUPS) {
    const words = [
      [],
      ["unknown"],
      ["--help"],
      ["constructor"],
    ];
    for (const sub of declared(module)) {
      const start = base(sub);
      if (module.plainArgs!(start) === undefined) continue;
      const args = sub.registeredArguments;
      if (args.some((a) => a.required)) words.push([sub.name()]);
      if (!args.some((a) => a.variadic)) {
        words.push([...start, ...args.filter((a) => !a.required).map(() => "x"), "extra"]);
      }
      words.push([...start, "--unknown"], [...start, "-h"], [...start, "--"], [...start, "-"]);
      for (const option of sub.options) {
        if (option.isBoolean()) {
          words.push([...start, flag(option), flag(option)]);
          if (option.long !== undefined) words.push([...start, `${option.long}=yes`]);
        } else {
          words.push([...start, flag(option)], [...start, flag(option), "--json"]);
          words.push([...start, flag(option), "a", flag(option), "b"]);
        }
      }
    }
    for (const w of words) {
      assert.equal(module.plainArgs!(w), undefined, `agent ${module.name} ${w.join(" ")}`);
    }
  }
  // What commander refuses is refused by neither reading silently: e.g. a missing address.
  assert.equal(await commanderArgs(net, ["add"]), "error");
  assert.equal(plainSubcommandArgs(["add"], { add: { args: ["<address>"] } }), undefined);
});

Deno.test("plainArgs() reads the forms the tests and scripts run most", () => {
  assert.deepEqual(net.plainArgs!(["send", "127.0.0.1:1", "How", "are", "you?"]), {
    args: ["send", "127.0.0.1:1", "How", "are", "you?"],
    opts: {},
  });
  assert.deepEqual(net.plainArgs!(["add", "127.0.0.1:1", "--note", "Hi Bob"]), {
    args: ["add", "127.0.0.1:1"],
    opts: { note: "Hi Bob" },
  });
  assert.deepEqual(net.plainArgs!(["log", "-n", "1"]), { args: ["log"], opts: { n: "1" } });
  assert.deepEqual(net.plainArgs!(["poll", "--once"]), { args: ["poll"], opts: { once: true } });
  assert.deepEqual(hub.plainArgs!(["status", "--json"]), {
    args: ["status"],
    opts: { json: true },
  });
  assert.deepEqual(jobs.plainArgs!(["add", "j", "--max-usd-per-run", "0.5"]), {
    args: ["add", "j"],
    opts: { maxUsdPerRun: "0.5" },
  });
});

/** What commander hands a command without subcommands for `agent NAME WORDS…`. */
async function commanderOpts(module: CommandModule, words: string[]) {
  const { program, cmd } = programWith(module);
  let got: Record<string, unknown> | undefined;
  cmd.exitOverride().action((...params: unknown[]) => {
    got = (params[params.length - 1] as Command).opts();
  });
  await program.parseAsync([module.name, ...words], { from: "user" });
  return got;
}

Deno.test("plainOptions() of agent chat, doctor, init and spend reads each plain option as commander does", async () => {
  for (const module of [chat, doctor, init, spend]) {
    const declaredOptions = new Command(module.name);
    module.configure(declaredOptions, "en");
    const flags = module.plainFlags!;
    const valued = module.plainOptions ?? [];
    const forms: string[][] = [[], ...flags.map((f) => [f]), ...valued.map((o) => [o, "x"])];
    forms.push([...flags, ...valued.flatMap((o) => [`${o}=y`])]);
    for (const word of [...flags, ...valued]) {
      // Each plain word is declared, as a flag or as an option with a value.
      const option = declaredOptions.options.find((o) => o.long === word);
      assert.ok(option !== undefined, `${module.name} ${word} is not declared`);
      assert.equal(option.isBoolean(), flags.includes(word), `${module.name} ${word}`);
    }
    for (const words of forms) {
      const plain = plainOptions(words, module);
      assert.ok(plain !== undefined, `agent ${module.name} ${words.join(" ")}`);
      assert.deepEqual(plain, await commanderOpts(module, words), words.join(" "));
    }
  }
});
