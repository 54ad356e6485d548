/**
 * What a new user's slips get: a mistyped `--home` for doctor (told, not created), an
 * empty `agent.toml` (refused), `hub run` with a broken configuration (exit 1, as
 * docs/commands.md says) and on a read-only home (one sentence, no OS error).
 */
import assert from "node:assert/strict";
import { RUN_FLAGS } from "../_agent_flags.ts";
import { agent, cleanup, initHome, tempHome } from "./_run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("agent --home <typo> doctor says the folder does not exist and creates nothing", async () => {
  try {
    const typo = `${await tempHome()}/agnet`;
    const r = await agent(["--home", typo, "doctor"]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      `fail home: ${typo} does not exist; check --home (or AGENT_HOME) for a typo, or run \`agent --home ${typo} init\` to create it\n`,
    );
    await assert.rejects(Deno.stat(typo), Deno.errors.NotFound);
    const tr = await agent(["--home", typo, "--lang", "tr", "doctor", "--json"]);
    assert.equal(tr.code, 1);
    const json = JSON.parse(tr.stdout);
    assert.equal(json.ok, false);
    assert.match(json.checks[0].detail, /^\/.*agnet yok; --home/);
    await assert.rejects(Deno.stat(typo), Deno.errors.NotFound);
  } finally {
    await cleanup();
  }
});

Deno.test("an empty agent.toml is refused: doctor fails its config, chat exits 2", async () => {
  try {
    const home = await tempHome();
    await Deno.writeTextFile(`${home}/agent.toml`, "");
    const sentence =
      "agent.toml: [models.roles] has no role, so nothing can answer; add one (`agent init --force` writes a working file).";
    const doctor = await agent(["--home", home, "doctor"]);
    assert.equal(doctor.code, 1);
    assert.ok(doctor.stdout.includes(sentence), doctor.stdout);
    const chat = await agent(["--home", home, "chat"], { stdin: "hi\n" });
    assert.equal(chat.code, 2);
    assert.equal(chat.stderr, `${sentence}\n`);
  } finally {
    await cleanup();
  }
});

Deno.test("agent hub run with a broken agent.toml: the sentence, exit 1", async () => {
  try {
    const home = await tempHome();
    await Deno.writeTextFile(`${home}/agent.toml`, "[models.prices.m]\ninput = 1\noutpt = 2\n");
    const r = await agent(["--home", home, "hub", "run"]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      "agent.toml: [models.prices.m] has an unknown key 'outpt'. Did you mean 'output'?\n",
    );
  } finally {
    await cleanup();
  }
});

/** Whether this process can mount a read-only folder in a mount namespace of its own. */
const CAN_MOUNT = (() => {
  try {
    return Deno.uid() === 0 &&
      new Deno.Command("unshare", { args: ["-m", "true"], stdout: "null", stderr: "null" })
        .outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "agent hub run on a read-only home: one sentence, no OS error or lock file name, exit 1",
  ignore: !CAN_MOUNT,
  async fn() {
    try {
      const home = await initHome(tempHome(), { provider: "fake" });
      await Deno.mkdir(`${home}/data`, { recursive: true });
      // Root passes permission checks: the home is made read-only by a read-only mount
      // in a mount namespace of the agent's own.
      const deno = [Deno.execPath(), "run", "--quiet", ...RUN_FLAGS, `${ROOT}cli/main.ts`]
        .map((w) => `'${w}'`).join(" ");
      const script = `mount --bind '${home}' '${home}' && mount -o remount,ro,bind '${home}' && ` +
        `exec ${deno} --home '${home}' hub run`;
      for (const lang of ["en", "tr"]) {
        const out = await new Deno.Command("unshare", {
          args: ["-m", "sh", "-c", script],
          env: { AGENT_LANG: lang, NO_COLOR: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const stderr = new TextDecoder().decode(out.stderr);
        assert.equal(out.code, 1, stderr);
        const sentence = lang === "en"
          ? `Cannot start the hub: ${home}/data cannot be written (a read-only home), and the hub keeps its state there; make it writable or run the hub as its owner.`
          : `Hub başlatılamıyor: ${home}/data yazılamıyor`;
        assert.ok(stderr.includes(sentence), stderr);
        assert.doesNotMatch(stderr, /os error|hub\.lock|The command failed/);
      }
    } finally {
      await cleanup();
    }
  },
});
