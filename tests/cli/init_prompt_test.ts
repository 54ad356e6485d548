import assert from "node:assert/strict";
import { parseConfig } from "../../hub/config/load.ts";
import { cleanup, tempDir } from "./_run.ts";

const MAIN = new URL("../../cli/main.ts", import.meta.url).pathname;
const hasScript = await new Deno.Command("sh", { args: ["-c", "command -v script"] }).output()
  .then((o) => o.success, () => false);

Deno.test({
  name: "agent init asks for the language on a terminal (arrow down, Enter: tr)",
  ignore: !hasScript,
  async fn() {
    const home = await tempDir();
    const command = [
      Deno.execPath(),
      "run",
      "--no-prompt",
      "--unstable-lazy-dynamic-imports",
      "-A",
      MAIN,
      "--home",
      home,
      "init",
    ].map((a) => `'${a}'`).join(" ");
    // `script` gives the command a pseudo-terminal, as a user's shell would.
    const child = new Deno.Command("script", {
      args: ["-qfec", command, "/dev/null"],
      env: { NO_COLOR: "1", TERM: "xterm" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    const configFile = `${home}/agent.toml`;
    // Wait for the question, then answer it.
    let output = "";
    const reader = child.stdout.getReader();
    const decoder = new TextDecoder();
    const deadline = Date.now() + 20_000;
    while (!output.includes("Language of the agent") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value);
    }
    assert.match(output, /Language of the agent/);
    await writer.write(new TextEncoder().encode("\x1b[B"));
    await new Promise((r) => setTimeout(r, 300));
    await writer.write(new TextEncoder().encode("\r"));
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value);
    }
    await writer.close().catch(() => {});
    const status = await child.status;
    await child.stderr.cancel();
    assert.equal(status.code, 0, output);
    const c = parseConfig(await Deno.readTextFile(configFile), "agent.toml");
    assert.equal(c.ui.lang, "tr");
    assert.match(await Deno.readTextFile(`${home}/persona/persona.md`), /^# Kişilik/);
    await cleanup();
  },
});
