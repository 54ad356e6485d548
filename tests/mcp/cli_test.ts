/**
 * `agent mcp` as the owner runs it, as a subprocess: add (the server starts, its tools
 * are pinned), list, show, test, a changed list disabled until pin shows the change and
 * pins it, remove, and one sentence with exit 2 for bad input.
 */
import assert from "node:assert/strict";
import { setupHome } from "@agent/hub";
import { resolvePaths } from "@agent/hub/base";
import { agent } from "../cli/_run.ts";
import { tempDir } from "../_temp_dir.ts";
import { FIXTURE } from "./_servers.ts";

async function home(dir: string): Promise<void> {
  const paths = resolvePaths({ env: { AGENT_HOME: dir } });
  await setupHome(paths, { provider: "fake", language: "en", env: {} });
}

const fixture = (mode: string, arg?: string) => [
  "--",
  Deno.execPath(),
  "run",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  FIXTURE,
  mode,
  ...(arg === undefined ? [] : [arg]),
];

Deno.test("agent mcp: add pins the list, a changed list is disabled until pin shows and pins it, remove", async () => {
  await using dir = await tempDir();
  await home(dir.path);
  const run = (...args: string[]) => agent(["--home", dir.path, "mcp", ...args]);

  const state = `${dir.path}/drift-count`;
  const added = await run("add", "drift", ...fixture("drift", state));
  assert.equal(added.code, 0, added.stderr);
  assert.match(
    added.stdout,
    /^Added the MCP server drift: 1 tool, pinned \(started and listed in \d+\.\d s\)\. Each is tier 2/,
  );
  const toml = await Deno.readTextFile(`${dir.path}/agent.toml`);
  assert.match(toml, /\n\[mcp\.servers\.drift\]\ncommand = ".*deno"\nargs = \["run",/);
  // What add wrote it validated once and kept: the list after it parses nothing.
  const cached = `${resolvePaths({ env: { AGENT_HOME: dir.path } }).dataDir}/cache/config.json`;
  assert.equal(JSON.parse(await Deno.readTextFile(cached)).text, toml);

  const list = JSON.parse((await run("list", "--json")).stdout);
  assert.deepEqual(
    list.map((l: { name: string; state: string; tools: number }) => [l.name, l.state, l.tools]),
    [
      ["drift", "pinned", 1],
    ],
  );

  const components = JSON.parse(
    (await agent(["--home", dir.path, "components", "--json"])).stdout,
  );
  assert.deepEqual(
    components.groups["agent.tools"].find((c: { name: string }) => c.name === "drift__echo"),
    {
      name: "drift__echo",
      distribution: "mcp:drift",
      version: "-",
      enabled: true,
      note: "MCP server drift, tier 2, pinned",
      source: "mcp:drift",
    },
  );

  const show = await run("show", "drift");
  assert.equal(show.code, 0, show.stderr);
  assert.match(
    show.stdout,
    /^drift \(stdio, pinned\): 1 tool, about \d+ tokens of definitions\.\n/,
  );
  assert.match(
    show.stdout,
    /\n {2}echo {2}tier 2 {2}~\d+ tokens {2}Echoes the text \(version 0\)\.\n/,
  );

  // The server now lists version 1: test shows it, pin shows the change first.
  const tested = await run("test", "drift", "echo", '{"text":"hi"}');
  assert.equal(tested.stdout, "hi\n");
  const refused = await run("pin", "drift");
  assert.equal(refused.code, 1, "no terminal and no --yes: nothing pinned");
  assert.match(
    refused.stdout,
    /^What the MCP server drift lists now, against its pin:\n {2}~ echo\n/,
  );
  assert.match(
    refused.stdout,
    /before: Echoes the text \(version 0\)\.\n.*now: {4}Echoes the text \(version 2\)\./,
  );
  assert.match(refused.stdout, /Not pinned\. Run 'agent mcp pin drift --yes' to pin it\./);
  const pinned = await run("pin", "drift", "--yes");
  assert.equal(pinned.code, 0, pinned.stderr);
  assert.match(pinned.stdout, /Pinned the MCP server drift: 1 tool; it is on again\.\n$/);

  const removed = await run("remove", "drift");
  assert.equal(removed.code, 0, removed.stderr);
  assert.doesNotMatch(await Deno.readTextFile(`${dir.path}/agent.toml`), /mcp\.servers/);
  assert.equal(
    (await run("list")).stdout,
    "No MCP server yet; 'agent mcp add NAME -- COMMAND ARGS…' adds one.\n",
  );
});

Deno.test("agent mcp: bad input is one sentence, exit 2; a server that does not start is not added", async () => {
  await using dir = await tempDir();
  await home(dir.path);
  const run = (...args: string[]) => agent(["--home", dir.path, "mcp", ...args]);
  const bad = await run("add", "Bad Name", "--", "x");
  assert.equal(bad.code, 2);
  assert.equal(
    bad.stderr,
    "'Bad Name' is not a server name: lowercase letters, digits, '_' and '-', starting with a letter, at most 32.\n",
  );
  const unknown = await run("show", "nope");
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stderr, "There is no MCP server named nope in agent.toml (servers: -).\n");
  const missing = await run("add", "gone", "--", "/no/such/program");
  assert.equal(missing.code, 1);
  assert.equal(
    missing.stderr,
    "The MCP server gone did not start: the program /no/such/program was not found.\n",
  );
  assert.doesNotMatch(await Deno.readTextFile(`${dir.path}/agent.toml`), /mcp\.servers/);
  const tr = await agent(["--home", dir.path, "--lang", "tr", "mcp", "show", "nope"]);
  assert.equal(tr.stderr, "agent.toml içinde nope adında bir MCP sunucusu yok (sunucular: -).\n");

  // A name in use: one sentence, the file as it was. A table is seen before anything
  // starts; a server written as an inline table, once the file is parsed.
  const marker = `${dir.path}/started`;
  const config = `${dir.path}/agent.toml`;
  await Deno.writeTextFile(
    config,
    `${await Deno.readTextFile(config)}\n[mcp.servers.dup]\ncommand = "x"\n\n` +
      `[mcp.servers]\ninline = { command = "y" }\n`,
  );
  const text = await Deno.readTextFile(config);
  for (const name of ["dup", "inline"]) {
    const taken = await run("add", name, "--", "/bin/sh", "-c", `touch ${marker}; exec sleep 5`);
    assert.equal(taken.code, 2, taken.stderr);
    assert.equal(
      taken.stderr,
      `There is already an MCP server named ${name}; 'agent mcp remove ${name}' removes it.\n`,
    );
    assert.equal(await Deno.readTextFile(config), text);
    if (name === "dup") await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
  }
});

Deno.test("agent chat starts the pinned MCP servers and runs a lowered tool in a turn", async () => {
  await using dir = await tempDir();
  await home(dir.path);
  const file = `${dir.path}/agent.toml`;
  const replies = ['/tool files__echo {"text":"hi from mcp"}', "Done."];
  await Deno.writeTextFile(
    file,
    (await Deno.readTextFile(file)).replace(
      'model_id = "fake-brain"\n',
      `model_id = "fake-brain"\nparams = { replies = ${JSON.stringify(replies)} }\n`,
    ),
  );
  const added = await agent(["--home", dir.path, "mcp", "add", "files", ...fixture("ok")]);
  assert.equal(added.code, 0, added.stderr);
  await Deno.writeTextFile(file, "\n[mcp.servers.files.tiers]\necho = 1\n", { append: true });
  const chat = await agent(["--home", dir.path, "chat"], { stdin: "hello\n" });
  assert.equal(chat.code, 0, chat.stderr);
  assert.match(chat.stdout, /Done\./);
  const sessions = `${dir.path}/data/sessions`;
  let stored = "";
  for await (const entry of Deno.readDir(sessions)) {
    for await (const m of Deno.readDir(`${sessions}/${entry.name}/agents/main/messages`)) {
      stored += await Deno.readTextFile(`${sessions}/${entry.name}/agents/main/messages/${m.name}`);
    }
  }
  assert.match(stored, /"hi from mcp"/, "the server's answer is in the stored turn");
});
