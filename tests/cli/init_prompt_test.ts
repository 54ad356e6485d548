import assert from "node:assert/strict";
import { parseConfig } from "@agent/hub";
import { cleanup, tempHome } from "./_run.ts";

const MAIN = new URL("../../cli/main.ts", import.meta.url).pathname;
const hasScript = await new Deno.Command("sh", { args: ["-c", "command -v script"] }).output()
  .then((o) => o.success, () => false);

/**
 * Runs `agent --home <home> init` on a pseudo-terminal (as a user's shell would, through
 * `script`), waits for the language question, types `keys` and returns the exit code
 * and everything the terminal showed.
 */
async function initOnTerminal(
  home: string,
  keys: string[],
): Promise<{ code: number; output: string }> {
  const command = [
    Deno.execPath(),
    "run",
    "--quiet",
    "--no-prompt",
    "--unstable-lazy-dynamic-imports",
    "-A",
    MAIN,
    "--home",
    home,
    "init",
  ].map((a) => `'${a}'`).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qfec", command, "/dev/null"],
    env: { NO_COLOR: "1", TERM: "xterm" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
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
  for (const key of keys) {
    await writer.write(new TextEncoder().encode(key));
    await new Promise((r) => setTimeout(r, 300));
  }
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    output += decoder.decode(value);
  }
  await writer.close().catch(() => {});
  const status = await child.status;
  await child.stderr.cancel();
  return { code: status.code, output };
}

Deno.test({
  name: "agent init asks for the language on a terminal (arrow down, Enter: tr)",
  ignore: !hasScript,
  async fn() {
    const home = await tempHome();
    const { code, output } = await initOnTerminal(home, ["\x1b[B", "\r"]);
    assert.equal(code, 0, output);
    const c = parseConfig(await Deno.readTextFile(`${home}/agent.toml`), "agent.toml");
    assert.equal(c.ui.lang, "tr");
    assert.match(await Deno.readTextFile(`${home}/persona/persona.md`), /^# Kişilik/);
    await cleanup();
  },
});

Deno.test({
  name: "agent init stopped with Ctrl-C at the question writes nothing and exits 130",
  ignore: !hasScript,
  async fn() {
    const home = await tempHome();
    const { code, output } = await initOnTerminal(home, ["\x03"]);
    assert.equal(code, 130, output);
    assert.match(output, /Setup stopped; nothing was written\./);
    assert.deepEqual([...Deno.readDirSync(home)], []);
    await cleanup();
  },
});
