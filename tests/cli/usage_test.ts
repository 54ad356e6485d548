import assert from "node:assert/strict";
import { agent, cleanup, isOneSentence, tempHome } from "./_run.ts";

Deno.test("an unknown command exits 2 with one sentence", async () => {
  const r = await agent(["frobnicate"]);
  assert.ok(isOneSentence(r), r.stderr);
  assert.equal(r.stderr, "Unknown command 'frobnicate'; run 'agent --help' to see the commands.\n");
  await cleanup();
});

Deno.test("an unknown option exits 2 with one sentence", async () => {
  // Far from every option of doctor's (`--frob` is near `--probe`: see the next test).
  const r = await agent(["doctor", "--xyzzy"]);
  assert.ok(isOneSentence(r), r.stderr);
  assert.equal(
    r.stderr,
    "Unknown option '--xyzzy'; run 'agent doctor --help' to see the options.\n",
  );
  const near = await agent(["doctor", "--frob"]);
  assert.equal(near.stderr, "Unknown option '--frob'; did you mean '--probe'?\n");
  const g = await agent(["--frob", "doctor"]);
  assert.ok(isOneSentence(g), g.stderr);
  assert.equal(g.stderr, "Unknown option '--frob'; run 'agent --help' to see the options.\n");
  await cleanup();
});

Deno.test("an option without its value exits 2 with one sentence", async () => {
  const r = await agent(["init", "--provider"]);
  assert.ok(isOneSentence(r), r.stderr);
  assert.equal(r.stderr, "The option '--provider' needs a value.\n");
  await cleanup();
});

Deno.test("--lang with an unknown language exits 2 with one sentence", async () => {
  const r = await agent(["--lang", "de", "version", "--help"]);
  assert.ok(isOneSentence(r), r.stderr);
  assert.equal(r.stderr, "Unknown language 'de'; use en or tr.\n");
  await cleanup();
});

Deno.test("no command prints help to stderr and exits 2", async () => {
  const r = await agent([]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /Usage: agent/);
  assert.match(r.stderr, /Name a command; run 'agent --help' to see them\.\n$/);
  await cleanup();
});

Deno.test("agent --help lists the global options and commands, exit 0", async () => {
  const r = await agent(["--help"]);
  assert.equal(r.code, 0);
  for (
    const word of [
      "--profile",
      "--home",
      "--lang",
      "--verbose",
      "init",
      "doctor",
      "components",
      "version",
    ]
  ) {
    assert.ok(r.stdout.includes(word), word);
  }
  const h = await agent(["help", "init"]);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /--provider <name>/);
  await cleanup();
});

Deno.test("usage errors and help follow --lang tr", async () => {
  const r = await agent(["--lang", "tr", "frobnicate"]);
  assert.ok(isOneSentence(r), r.stderr);
  assert.equal(
    r.stderr,
    "Bilinmeyen komut 'frobnicate'; komutları görmek için 'agent --help' çalıştırın.\n",
  );
  const h = await agent(["--lang", "tr", "--help"]);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /^Kullanım: agent/);
  assert.match(h.stdout, /Seçenekler:/);
  const e = await agent(["frobnicate"], { env: { AGENT_LANG: "tr" } });
  assert.match(e.stderr, /^Bilinmeyen komut/);
  await cleanup();
});

Deno.test("an empty --home or --profile is a usage error, never the working directory", async () => {
  const cwd = await tempHome();
  for (const args of [["--home=", "doctor"], ["--home", "", "doctor"], ["--profile=", "doctor"]]) {
    const r = await agent(args, { cwd });
    assert.ok(isOneSentence(r), `${args.join(" ")}: ${r.stderr}`);
    const name = args[0]!.replace("=", "");
    assert.equal(r.stderr, `The option '${name}' needs a value.\n`);
  }
  const i = await agent(["init", "--yes", "--home="], { cwd });
  assert.ok(isOneSentence(i), i.stderr);
  assert.equal(i.stderr, "The option '--home' needs a directory.\n");
  assert.deepEqual([...Deno.readDirSync(cwd)], [], "nothing was written in the working directory");
  await cleanup();
});

Deno.test("usage sentences name the command as typed, without the stray word", async () => {
  const cases: [string[], string][] = [
    [
      ["doctor", "extra"],
      "'agent doctor' takes no arguments; run 'agent doctor --help' to see its options.",
    ],
    [["hub", "frob"], "Unknown command 'frob'; run 'agent hub --help' to see the commands."],
    [["help", "frob"], "Unknown command 'frob'; run 'agent --help' to see the commands."],
    [["doctr"], "Unknown command 'doctr'; did you mean 'doctor'?"],
    [["doctor", "--jsn"], "Unknown option '--jsn'; did you mean '--json'?"],
    [
      ["doctor", "--home", "x"],
      "'--home' is a global option and goes before the command: 'agent --home ... doctor'.",
    ],
    [
      ["hub", "status", "-v"],
      "'-v' is a global option and goes before the command: 'agent -v ... hub status'.",
    ],
    [
      ["hub", "status", "--frob"],
      "Unknown option '--frob'; run 'agent hub status --help' to see the options.",
    ],
  ];
  for (const [args, sentence] of cases) {
    const r = await agent(args);
    assert.ok(isOneSentence(r), `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stderr, `${sentence}\n`);
  }
  await cleanup();
});
