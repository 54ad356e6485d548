/**
 * `/settings` in terminal chat, on a tmux screen (issue 39 F10): a variable nothing needs
 * (the local server's address, which has a default) reads "not set (optional)", not
 * "missing"; a key a role cannot answer without still reads "missing". English and
 * Turkish.
 */
import assert from "node:assert/strict";
import { HAS_TMUX, Pane } from "../tui/_tmux.ts";
import { tempDir } from "../_temp_dir.ts";
import { agent } from "../cli/_run.ts";

Deno.test({
  name: "/settings in chat says an optional variable is optional and a needed key missing",
  ignore: !HAS_TMUX,
  async fn() {
    using home = tempDir("settings_");
    const init = await agent(["--home", home.path, "init", "--yes"]);
    assert.equal(init.code, 0, init.stderr);
    const config = `${home.path}/agent.toml`;
    await Deno.writeTextFile(
      config,
      `${await Deno.readTextFile(config)}
[models.roles.paid]
provider = "vendor-b"
model_id = "gpt-5-mini"
`,
    );
    for (
      const [lang, optional, missing] of [
        ["en", "AGENT_LOCAL_RUNTIME_URL: not set (optional)", "VENDOR_B_API_KEY: missing"],
        ["tr", "AGENT_LOCAL_RUNTIME_URL: ayarlı değil (isteğe bağlı)", "VENDOR_B_API_KEY: eksik"],
      ] as const
    ) {
      const pane = await Pane.start(["--home", home.path, "--lang", lang, "chat"], {
        columns: 120,
        rows: 40,
      });
      try {
        await pane.until(/^› ?$/m, 20_000);
        await pane.type("/settings");
        await pane.keys("Enter");
        const screen = await pane.until(optional);
        await pane.keep(`settings_${lang}`);
        assert.ok(screen.includes(missing), screen);
        assert.doesNotMatch(screen, /AGENT_LOCAL_RUNTIME_URL: (missing|eksik)/);
      } finally {
        await pane.kill();
      }
    }
  },
});
