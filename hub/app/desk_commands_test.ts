import assert from "node:assert/strict";
import { Logger } from "../log.ts";
import { Desk } from "../desk/mod.ts";
import { jobHome } from "../jobs/_testing.ts";
import { ALL_JOBS } from "../jobs/pause_store.ts";
import type { CommandSpec } from "../desk/mod.ts";
import { appCommands } from "./desk_commands.ts";

/** A desk on a job home's files, with `commands` registered. */
function deskOn(
  home: Awaited<ReturnType<typeof jobHome>>,
  commands: CommandSpec[] | undefined,
  env: Record<string, string> = {},
): Desk {
  return new Desk({
    config: home.ctx.config,
    env,
    paths: home.paths,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    ledger: home.ledger,
    tools: [],
    commands,
  });
}

Deno.test("/jobs pause and /jobs resume on a desk with the app's commands stop and restart every job", async () => {
  const home = await jobHome();
  const desk = deskOn(home, appCommands());
  try {
    await home.write({ name: "news" });
    const chat = await desk.open("chat");
    const said = async (line: string) => {
      const outcome = await chat.submit(line);
      assert.equal(outcome.kind, "command");
      return outcome.kind === "command" ? outcome.outcome.lines.join("\n") : "";
    };
    assert.equal(
      await said("/jobs pause"),
      "Paused all jobs; no job runs until /jobs resume.",
    );
    assert.ok(home.store.pauses.all().has(ALL_JOBS));
    // Two lines a job: the name and schedule, then its figures.
    assert.match(
      await said("/jobs"),
      /^All jobs are paused\.\nnews {2}\* \* \* \* \* \* \(Europe\/Istanbul\)\n {2}next \d\d\.\d\d\.\d{4} \d\d:\d\d {2}last - {2}today \$0\.00 {2}30 days \$0\.00$/,
    );
    assert.equal(await said("/jobs pause nope"), "No job 'nope' in persona/jobs/.");
    assert.equal(await said("/jobs resume"), "Resumed all jobs.");
    assert.equal(home.store.pauses.all().size, 0);
    assert.equal(await said("/jobs pause news"), "Paused job 'news'.");
    assert.equal(
      await said("/jobs stop"),
      "Usage: /jobs, /jobs pause [NAME], /jobs resume [NAME].",
    );
  } finally {
    await desk.close();
    await home.close();
  }
});

Deno.test("a desk without the app's commands has no /jobs, /status or /settings", async () => {
  const home = await jobHome();
  const desk = deskOn(home, undefined);
  try {
    const chat = await desk.open("chat");
    for (const word of ["/jobs", "/status", "/settings"]) {
      const outcome = await chat.submit(word);
      assert.ok(outcome.kind === "command");
      assert.deepEqual(outcome.outcome.lines, [
        `Unknown command ${word}. /help lists the commands.`,
      ]);
    }
  } finally {
    await desk.close();
    await home.close();
  }
});

Deno.test("/settings set through the command intent: the key is written 0600, added to the desk's environment, and the role it unlocks answers", async () => {
  const home = await jobHome();
  const config = home.ctx.config;
  config.models.roles.remote = {
    ...config.models.roles.brain!,
    provider: "vendor-b",
    model_id: "gpt-test",
  };
  const env: Record<string, string> = {};
  const desk = deskOn(home, appCommands(), env);
  try {
    const tui = await desk.open("tui");
    assert.deepEqual(
      (await tui.choices("settings")).map((c) => [c.value, c.state]).slice(0, 1),
      [["VENDOR_B_API_KEY", "needed"]],
    );
    const before = await tui.submit("/model remote");
    assert.ok(before.kind === "command");
    assert.match(before.outcome.lines[0]!, /VENDOR_B_API_KEY/);
    const saved = await tui.command("/settings set VENDOR_B_API_KEY", { secret: " sk-1 " });
    assert.ok(saved.kind === "command");
    assert.deepEqual(saved.outcome.lines, [
      `VENDOR_B_API_KEY saved to ${home.paths.envFile}.`,
    ]);
    assert.match(await Deno.readTextFile(home.paths.envFile), /^VENDOR_B_API_KEY=sk-1$/m);
    assert.equal((await Deno.stat(home.paths.envFile)).mode! & 0o777, 0o600);
    assert.equal(env.VENDOR_B_API_KEY, "sk-1");
    assert.equal(
      (await tui.choices("settings")).find((c) => c.value === "VENDOR_B_API_KEY")?.state,
      "set",
    );
    const after = await tui.submit("/model remote");
    assert.ok(after.kind === "command");
    assert.deepEqual(after.outcome.lines, ["Role remote (vendor-b gpt-test) answers from now on."]);
    assert.equal(tui.snapshot().role, "remote");
    assert.throws(() => tui.command("not a command"), TypeError);
  } finally {
    await desk.close();
    await home.close();
  }
});
