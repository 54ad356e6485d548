/**
 * `deno compile` needs a runtime archive that cannot be fetched offline, so release
 * builds use `deno bundle`, which works offline: this keeps that path working. It
 * bundles the CLI the way `deno task bundle` does and runs the bundle for real.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempDir } from "./_run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("deno bundle builds a CLI that runs version, init, doctor and a chat turn", async () => {
  try {
    const out = await tempDir();
    const bundle = `${out}/agent.js`;
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--platform=deno", "--output", bundle, "cli/main.ts"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(built.code, 0, new TextDecoder().decode(built.stderr));

    const version = await agent(["version"], { main: bundle });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^agent-core \d+\.\d+\.\d+\n/);

    const home = await tempDir();
    const init = await agent(["--home", home, "init", "--yes"], { main: bundle });
    assert.equal(init.code, 0, init.stderr);
    const doctor = await agent(["--home", home, "doctor", "--json"], { main: bundle });
    const report = JSON.parse(doctor.stdout);
    assert.equal(report.checks.find((c: { name: string }) => c.name === "config")?.status, "ok");

    const chat = await agent(["--home", home, "chat"], { main: bundle, stdin: "hello\n" });
    assert.equal(chat.code, 0, chat.stderr);
    assert.match(chat.stdout, /Okay\./);
  } finally {
    await cleanup();
  }
});
