import assert from "node:assert/strict";
import { agent, cleanup, isOneSentence, tempHome } from "./_run.ts";

Deno.test("agent version prints one '<name> <version>' line per distribution", async () => {
  const r = await agent(["version"]);
  assert.equal(r.code, 0);
  assert.equal(r.stderr, "");
  const lines = r.stdout.trim().split("\n");
  assert.ok(lines.length >= 1);
  for (const line of lines) assert.match(line, /^agent-[a-z]+ \d+\.\d+\.\d+$/);
  assert.ok(lines.includes("agent-core 0.1.0"));
  const version = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)))
    .version;
  assert.ok(lines.includes(`agent-core ${version}`), "agent-core follows deno.json's version");
  await cleanup();
});

Deno.test("agent version works after global options and reads no home", async () => {
  const home = `${await tempHome()}/nowhere`;
  const r = await agent(["--home", home, "--lang", "tr", "-v", "--profile", "x", "version"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^agent-core /m);
  const existed = await Deno.stat(home).then(() => true, () => false);
  assert.equal(existed, false, "version creates nothing");
  await cleanup();
});

Deno.test("agent version --help shows the command's help and exits 0", async () => {
  const r = await agent(["version", "--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Usage: agent version/);
  await cleanup();
});

Deno.test("agent version with an extra argument is a usage error", async () => {
  const r = await agent(["version", "extra"]);
  assert.ok(isOneSentence(r), r.stderr);
  assert.equal(r.stdout, "");
  await cleanup();
});

Deno.test("AGENT_FLAGS match the agent task in deno.json", async () => {
  const { AGENT_FLAGS } = await import("../_agent_flags.ts");
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const task: string = denoJson.tasks.agent;
  assert.equal(task, `deno run ${AGENT_FLAGS.join(" ")} cli/main.ts`);
});

Deno.test("agent --version and -V print 'agent <version>' and exit 0, on both paths", async () => {
  const version = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)))
    .version;
  for (const args of [["--version"], ["-V"], ["--lang", "tr", "--version"]]) {
    const r = await agent(args);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `agent ${version}\n`);
    assert.equal(r.stderr, "");
  }
  // Through commander (another option before it): the same line.
  const full = await agent(["--version", "--lang", "tr"]);
  assert.equal(full.code, 0, full.stderr);
  assert.equal(full.stdout, `agent ${version}\n`);
  const help = await agent(["--help"]);
  assert.match(help.stdout, /-V, --version/);
  await cleanup();
});
