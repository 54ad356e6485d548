import assert from "node:assert/strict";
import { agent, cleanup, isOneSentence } from "./_run.ts";
import { homeWith } from "./_home.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;

Deno.test("agent components prints one block per group with notes", async () => {
  const home = await homeWith([]);
  const r = await agent(["--home", home, "components"]);
  assert.equal(r.code, 0, r.stderr);
  const groups = r.stdout.split("\n").filter((l) => l.startsWith("agent."));
  assert.deepEqual(groups, [
    "agent.commands",
    "agent.tools",
    "agent.providers",
    "agent.sessions",
    "agent.channels",
    "agent.subs",
  ]);
  assert.match(r.stdout, /^ {2}doctor +agent-core +\d+\.\d+\.\d+ +enabled +agent doctor$/m);
  assert.match(r.stdout, /^ {2}fake +agent-core +\S+ +enabled +in use: brain, fast, memory$/m);
  assert.match(r.stdout, /^ {2}local-runtime +agent-core +\S+ +enabled +in use: local$/m);
  assert.match(r.stdout, /^ {2}vendor-b +agent-core +\S+ +enabled +available$/m);
  assert.match(r.stdout, /^ {2}file +agent-core +\S+ +enabled +in use$/m);
  await cleanup();
});

Deno.test("agent components --json lists groups and load errors", async () => {
  const home = await homeWith([
    `${FIXTURES}hello_component.ts`,
    `${FIXTURES}broken_component.ts`,
  ], ["echo"]);
  const r = await agent(["--home", home, "components", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  const hello = doc.groups["agent.commands"].find((c: { name: string }) => c.name === "hello");
  assert.deepEqual(
    { ...hello, source: undefined },
    {
      name: "hello",
      distribution: "agent-hello",
      version: "1.2.3",
      enabled: true,
      note: "agent hello",
      source: undefined,
    },
  );
  const echo = doc.groups["agent.tools"].find((c: { name: string }) => c.name === "echo");
  assert.equal(echo.name, "echo");
  assert.equal(echo.enabled, false);
  assert.equal(echo.note, "tier 0");
  const pager = doc.groups["agent.channels"].find((c: { name: string }) => c.name === "pager");
  assert.equal(pager.note, "load error: pager needs PAGER_TOKEN");
  assert.equal(doc.errors.length, 1);
  assert.equal(doc.errors[0].detail, "broken on purpose");
  await cleanup();
});

Deno.test("a component that fails to load is reported, never crashes a command", async () => {
  const home = await homeWith([
    `${FIXTURES}broken_component.ts`,
    `${FIXTURES}bad_manifest_component.ts`,
    "./missing_component.ts",
  ], ["ghost"]);
  const text = await agent(["--home", home, "components"]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^load errors$/m);
  assert.match(text.stdout, /broken_component\.ts {2}load error: broken on purpose$/m);
  assert.match(
    text.stdout,
    /bad_manifest_component\.ts {2}load error: 'version' in its manifest is missing or not valid$/m,
  );
  const doctor = await agent(["--home", home, "doctor"]);
  assert.equal(doctor.code, 1);
  assert.match(
    doctor.stdout,
    /^fail components: .*broken_component\.ts failed to load: broken on purpose$/m,
  );
  assert.match(doctor.stdout, /^fail components: \.\/missing_component\.ts failed to load: /m);
  assert.match(
    doctor.stdout,
    /^warn components: \[components\] disabled names 'ghost', which no component provides$/m,
  );
  const version = await agent(["--home", home, "version"]);
  assert.equal(version.code, 0);
  await cleanup();
});

Deno.test("agent doctor fails an extra component whose load() fails", async () => {
  const home = await homeWith([`${FIXTURES}hello_component.ts`]);
  const r = await agent(["--home", home, "doctor"]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(
    r.stdout,
    /^fail components: pager from .*hello_component\.ts failed to load: pager needs PAGER_TOKEN$/m,
  );
  const off = await homeWith([`${FIXTURES}hello_component.ts`], ["pager"]);
  const quiet = await agent(["--home", off, "doctor"]);
  assert.doesNotMatch(quiet.stdout, /pager/, "a disabled component is not loaded");
  await cleanup();
});

Deno.test("an agent.commands component adds a subcommand with its options", async () => {
  const home = await homeWith([`${FIXTURES}hello_component.ts`]);
  const r = await agent(["--home", home, "hello", "--name", "Ada"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "Hello, Ada.\n");
  const version = await agent(["--home", home, "version"]);
  assert.equal(version.code, 0, version.stderr);
  const lines = version.stdout.trim().split("\n");
  assert.match(lines[0]!, /^agent-core \S+$/);
  assert.equal(lines[lines.length - 1], "agent-hello 1.2.3", "extra distributions come last");
  const help = await agent(["--home", home, "--help"]);
  assert.match(help.stdout, /hello \[options\] +Say hello\./);
  const off = await homeWith([`${FIXTURES}hello_component.ts`], ["hello"]);
  const disabled = await agent(["--home", off, "hello"]);
  assert.equal(disabled.code, 2);
  assert.equal(
    disabled.stderr,
    "Unknown command 'hello'; run 'agent --help' to see the commands.\n",
  );
  await cleanup();
});

Deno.test("an unknown command with an invalid agent.toml names the file's problem", async () => {
  const home = await homeWith([`${FIXTURES}hello_component.ts`]);
  await Deno.writeTextFile(`${home}/agent.toml`, "[ui]\nlang = 1\n", { append: true });
  const r = await agent(["--home", home, "hello"]);
  assert.ok(isOneSentence(r), r.stderr);
  assert.match(
    r.stderr,
    /^Unknown command 'hello'; agent\.toml, which can add commands, is invalid: .+\.\n$/,
  );
  const nested = await agent(["--home", home, "hub", "frob"]);
  assert.equal(
    nested.stderr,
    "Unknown command 'frob'; run 'agent hub --help' to see the commands.\n",
  );
  await cleanup();
});

Deno.test("a command component whose configure() throws is left out, the rest still work", async () => {
  const home = await homeWith([`${FIXTURES}clumsy_component.ts`]);
  const help = await agent(["--home", home, "--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^ {2}doctor /m);
  assert.doesNotMatch(help.stdout, /clumsy/);
  assert.match(
    help.stderr,
    /^warning: The command 'clumsy' could not declare its options: clumsy on purpose$/m,
  );
  const r = await agent(["--home", home, "clumsy"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^Unknown command 'clumsy'; run 'agent --help' to see the commands\.$/m);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  await cleanup();
});
