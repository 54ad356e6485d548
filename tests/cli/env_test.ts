import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "./_run.ts";
import { homeWith } from "./_home.ts";

const HELLO = new URL("./fixtures/hello_component.ts", import.meta.url).pathname;

Deno.test("<home>/.env is read at start and the environment wins", async () => {
  const home = await homeWith([HELLO]);
  const fromFile = `${await tempHome()}/file-data`;
  const fromEnv = `${await tempHome()}/env-data`;
  await Deno.writeTextFile(
    `${home}/.env`,
    `AGENT_DATA_DIR=${fromFile}\nAGENT_PROFILE=work\nAGENT_LANG=tr\n`,
    { mode: 0o600 },
  );
  const a = await agent(["--home", home, "hello", "--show"]);
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, new RegExp(`^profile=work lang=tr data=${fromFile}$`, "m"));
  const b = await agent(["--home", home, "hello", "--show"], {
    env: { AGENT_DATA_DIR: fromEnv, AGENT_PROFILE: "env", AGENT_LANG: "en" },
  });
  assert.match(b.stdout, new RegExp(`^profile=env lang=en data=${fromEnv}$`, "m"));
  await cleanup();
});

Deno.test("--profile and --lang win and are exported as AGENT_PROFILE and AGENT_LANG", async () => {
  const home = await homeWith([HELLO]);
  const r = await agent(
    ["--home", home, "--profile", "travel", "--lang", "tr", "hello", "--show"],
    // The export is to the process's environment, for the run's children: a process.
    { env: { AGENT_PROFILE: "env", AGENT_LANG: "en" }, process: true },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^profile=travel lang=tr /m);
  assert.match(r.stdout, /^exported AGENT_PROFILE=travel AGENT_LANG=tr$/m);
  const d = await agent(["--home", home, "hello", "--show"]);
  assert.match(d.stdout, /^profile=home lang=en /m, "defaults: profile home, language en");
  await cleanup();
});

Deno.test("[ui] lang picks the language when neither --lang nor AGENT_LANG is set", async () => {
  const home = await homeWith([HELLO]);
  const path = `${home}/agent.toml`;
  await Deno.writeTextFile(
    path,
    (await Deno.readTextFile(path)).replace('lang = "en"', 'lang = "tr"'),
  );
  const r = await agent(["--home", home, "hello", "--show"]);
  assert.match(r.stdout, /^profile=home lang=tr /m);
  await cleanup();
});

Deno.test("AGENT_HOME is honoured and AGENT_DATA_DIR moves the data directory", async () => {
  const home = await homeWith([]);
  const data = `${await tempHome()}/d`;
  const r = await agent(["doctor"], { env: { AGENT_HOME: home, AGENT_DATA_DIR: data } });
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, new RegExp(`^ok sessions: file store at ${data}/sessions`, "m"));
  await cleanup();
});
