import assert from "node:assert/strict";
import { agent, cleanup, initHome, needsProcess, tempHome } from "./_run.ts";

Deno.test("agent() keeps a process for the commands that need one", () => {
  const process = [
    ["--home", "/h", "--lang", "tr", "tui"],
    ["hub", "run"],
    ["hub", "stop", "--timeout", "1"],
    ["hub", "systemd-unit"],
    ["mcp", "add", "x", "--", "/bin/true"],
    ["net", "spine", "deploy", "/d"],
    ["net", "spine", "init", "/d", "--cloud"],
    ["cloud", "status"],
  ];
  const here = [
    ["doctor"],
    ["chat", "--session", "s1"], // its stdin a pipe given here, never a terminal
    ["--home", "chat", "doctor"], // a home named like a command
    ["hub", "status", "--json"],
    ["net", "spine", "init", "/d"],
    ["net", "send", "a@b", "chat"],
    ["memory", "list"],
    ["--lang", "tr", "frobnicate"],
    [],
  ];
  for (const args of process) assert.ok(needsProcess(args), args.join(" "));
  for (const args of here) assert.ok(!needsProcess(args), args.join(" "));
});

Deno.test("a command run in this process sees a child's environment and leaves this one's alone", async () => {
  const before = Deno.env.get("AGENT_LANG");
  const home = await initHome(tempHome());
  const r = await agent(["--home", home, "--lang", "tr", "doctor", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(Deno.env.get("AGENT_LANG"), before, "--lang is exported to the run, not here");
  const ok = await agent(["--home", home, "frobnicate"], { env: { AGENT_LANG: "tr" } });
  assert.equal(ok.code, 2);
  assert.match(ok.stderr, /^Bilinmeyen komut 'frobnicate'/);
  await cleanup();
});
