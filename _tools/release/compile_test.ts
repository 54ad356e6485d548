/**
 * `deno task compile` builds a binary from the bundle where the Deno runtime archive
 * can be had, and the binary passes the new user's command list; where it cannot (no
 * network to dl.deno.land), the task says so in one line and exits 1.
 */
import assert from "node:assert/strict";
import { binaryName } from "./compile.ts";
import { checkCommandList } from "./_command_list.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "deno task compile: a working binary, or one line saying the runtime archive is missing",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const work = await Deno.makeTempDir({ prefix: "agent-compile-check-" });
    try {
      const target = Deno.build.target;
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", "compile", "--out-dir", `${work}/dist`, target],
        cwd: ROOT,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      if (out.code !== 0) {
        assert.equal(out.code, 1);
        const lines = stderr.trim().split("\n");
        assert.equal(lines.length, 1, stderr);
        assert.match(lines[0]!, new RegExp(`^Cannot compile for ${target}: .*denort`));
        console.log(`no binary here: ${lines[0]}`);
        return;
      }
      const binary = `${work}/dist/${binaryName(target)}`;
      console.log(`binary: ${((await Deno.stat(binary)).size / 1e6).toFixed(1)} MB`);
      for (const dir of ["empty", "home"]) await Deno.mkdir(`${work}/${dir}`);
      await checkCommandList({
        command: [binary],
        env: { PATH: "/usr/bin:/bin", HOME: `${work}/home`, NO_COLOR: "1" },
        cwd: `${work}/empty`,
        unitHolds: [`ExecStart=${binary} --home`],
      }, { log: (line) => console.log(line) });
    } finally {
      await Deno.remove(work, { recursive: true });
    }
  },
});
