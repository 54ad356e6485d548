/**
 * The commands a sentence suggests are the ones this person can type (issue 39 F24): a
 * home that does not exist is named (with the `--home` that makes it), and run through
 * `deno task agent` from a checkout, the hints say `deno task agent …`, not `agent …`.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "./_run.ts";
import { tmpdirEnv } from "../_temp_dir.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("a --home that does not exist is named, en and tr, with the init that makes it", async () => {
  try {
    const missing = `${tempHome()}/typo`;
    const en = await agent(["--home", missing, "spend"]);
    assert.notEqual(en.code, 0);
    // Was: "agent.toml: not found at …/typo/agent.toml; run 'agent init' to create it."
    assert.equal(
      en.stderr.trim(),
      `The agent's home ${missing} does not exist; check --home (or AGENT_HOME) for a typo, or run 'agent --home ${missing} init' to create it.`,
    );
    const tr = await agent(["--lang", "tr", "--home", missing, "spend"]);
    assert.match(tr.stderr, new RegExp(`^Ajanın ana dizini ${missing} yok; `));
    // A home that exists without agent.toml keeps its own sentence.
    const bare = tempHome();
    const none = await agent(["--home", bare, "spend"]);
    assert.match(none.stderr, /^agent\.toml: not found at /);
  } finally {
    await cleanup();
  }
});

Deno.test("deno task agent in the checkout: hints name deno task agent", async () => {
  try {
    const user = tempHome();
    const missing = `${user}/typo`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "agent", "--home", missing, "spend"],
      cwd: ROOT,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: user,
        DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
        NO_COLOR: "1",
        ...tmpdirEnv(),
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.notEqual(out.code, 0);
    assert.match(
      stderr,
      new RegExp(`run 'deno task agent --home ${missing} init' to create it\\.`),
    );
    // The same command run as an installed agent is run says `agent`.
    const installed = await agent(["--home", missing, "spend"]);
    assert.match(installed.stderr, new RegExp(`run 'agent --home ${missing} init'`));
  } finally {
    await cleanup();
  }
});
