import assert from "node:assert/strict";
import { agent, cleanup, initHome, isOneSentence, tempHome } from "./_run.ts";
import { homeWith } from "./_home.ts";

const HELLO = new URL("./fixtures/hello_component.ts", import.meta.url).pathname;

Deno.test("exit codes follow the spec's table for the foundation commands", async () => {
  const home = await tempHome();
  const cases: [string[], number][] = [
    [["version"], 0],
    [["--help"], 0],
    [["init", "--help"], 0],
    [["--home", home, "doctor"], 1], // no agent.toml yet: a failed check
    [["--home", home, "init", "--yes"], 0],
    [["--home", home, "init", "--yes"], 0], // every file already existed
    [["--home", home, "doctor"], 0],
    [["--home", home, "components"], 0],
    [["nope"], 2],
    [["doctor", "--nope"], 2],
    [["--lang", "xx", "doctor"], 2],
    [["--lang", "xx", "version"], 2],
    [["--home=", "version"], 2],
    [["--home"], 2],
    [["init", "--provider", "nobody"], 2],
    [[], 2],
  ];
  for (const [args, code] of cases) {
    const r = await agent(args, { process: true }); // the table is the process's exit status
    assert.equal(r.code, code, `agent ${args.join(" ")}: ${r.stderr}`);
    if (code === 2 && args.length > 0) {
      assert.ok(isOneSentence(r), `agent ${args.join(" ")}: ${r.stderr}`);
    }
  }
  await cleanup();
});

Deno.test("-v sends INFO lines to stderr; without it they only reach the log", async () => {
  const home = await initHome(tempHome());
  const quiet = await agent(["--home", home, "doctor"]);
  assert.doesNotMatch(quiet.stderr, /^info: /m);
  const loud = await agent(["-v", "--home", home, "doctor"]);
  assert.match(loud.stderr, /^info: doctor: \d+ checks, 0 failed$/m);
  const log = await Deno.readTextFile(`${home}/data/logs/agent.log`);
  assert.match(log, / INFO doctor: \d+ checks, 0 failed$/m);
  await cleanup();
});

Deno.test("an invalid agent.toml is one sentence for commands that need it", async () => {
  const home = await initHome(tempHome());
  await Deno.writeTextFile(`${home}/agent.toml`, "[models.roles.brain]\nprovider = 1\n");
  const r = await agent(["--home", home, "components"]);
  assert.equal(r.code, 0);
  assert.equal(
    r.stderr,
    "agent.toml: [models.roles.brain] 'provider' must be one of vendor-a, vendor-b, vendor-c, local-runtime, vendor-d, fake. Showing the built-in components only.\n",
  );
  await cleanup();
});

Deno.test("an unexpected error is one sentence and exit 1; its stack goes only to the log", async () => {
  const home = await homeWith([HELLO]);
  const r = await agent(["--home", home, "hello", "--boom"]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "The command failed: boom on purpose\n");
  const log = await Deno.readTextFile(`${home}/data/logs/agent.log`);
  assert.match(log, / ERROR Error: boom on purpose +at /);
  await cleanup();
});

Deno.test("-h and --verbose work as their long and short twins", async () => {
  const home = await initHome(tempHome());
  const h = await agent(["-h"]);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /^Usage: agent /);
  const sub = await agent(["doctor", "-h"]);
  assert.equal(sub.code, 0);
  assert.match(sub.stdout, /^Usage: agent doctor /);
  const loud = await agent(["--verbose", "--home", home, "components"]);
  assert.equal(loud.code, 0, loud.stderr);
  const json = await agent(["--verbose", "--home", home, "doctor", "--json"]);
  assert.match(json.stderr, /^info: doctor: \d+ checks, 0 failed$/m);
  assert.equal(JSON.parse(json.stdout).ok, true, "stdout stays pure JSON");
  await cleanup();
});
