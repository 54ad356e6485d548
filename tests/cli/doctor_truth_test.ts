/**
 * `agent doctor` tells the truth about what will fail next (issue 39 F8, F22, F25): no
 * `brain` role and a read-only home fail, a local-runtime role has one line that says
 * whether its server answers, and `.env` lines the reader ignores are named.
 */
import assert from "node:assert/strict";
import { agent, canMakeReadOnly, cleanup, initHome as setUp, tempHome } from "./_run.ts";
import type { Lang } from "@agent/hub/base";
import { freePort } from "../_port.ts";

/** A home as `agent --lang <lang> init --yes` makes it (in this process). */
function initHome(language: Lang = "en"): Promise<string> {
  return setUp(tempHome(), { language });
}

function lines(stdout: string): string[] {
  return stdout.trim().split("\n");
}

Deno.test("agent doctor fails when agent.toml has no brain role, en and tr", async () => {
  const home = await initHome();
  const path = `${home}/agent.toml`;
  const text = (await Deno.readTextFile(path)).replaceAll("models.roles.brain", "models.roles.b")
    .replace(/degrade_to = "brain"\n/g, "");
  await Deno.writeTextFile(path, text);
  const r = await agent(["--home", home, "doctor"]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.ok(
    lines(r.stdout).includes(
      "fail roles: there is no role 'brain' in [models.roles]; chat, the TUI and the messenger start on it, so they cannot start",
    ),
    r.stdout,
  );
  const tr = await agent(["--home", home, "--lang", "tr", "doctor"]);
  assert.equal(tr.code, 1);
  assert.match(tr.stdout, /^fail roles: \[models\.roles\] içinde 'brain' rolü yok;/m);
  await cleanup();
});

Deno.test({
  name: "agent doctor fails on a read-only home, where chat cannot start",
  ignore: !canMakeReadOnly(),
  async fn() {
    const home = await initHome();
    await Deno.mkdir(`${home}/data`, { recursive: true, mode: 0o700 });
    const r = await agent(["--home", home, "doctor"], { readOnly: [home] });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const line = lines(r.stdout).find((l) => l.startsWith("fail folders: "));
    assert.ok(line, r.stdout);
    assert.match(line, new RegExp(`${home}/data cannot be written \\(.*[Rr]ead-only file system`));
    // chat agrees: it refuses with one sentence.
    const chat = await agent(["--home", home, "chat"], { readOnly: [home], stdin: "hi\n" });
    assert.notEqual(chat.code, 0);
    assert.match(chat.stderr, /cannot be written/);
    await cleanup();
  },
});

Deno.test("agent doctor gives a local-runtime role one line that says the server is down", async () => {
  const home = await initHome();
  const port = freePort();
  const env = { AGENT_LOCAL_RUNTIME_URL: `http://127.0.0.1:${port}` };
  const r = await agent(["--home", home, "doctor"], { env });
  const local = lines(r.stdout).filter((l) => / role local: |local-runtime: /.test(l));
  assert.deepEqual(local, [
    `info role local: local-runtime qwen3:4b: the local server is not reachable (http://127.0.0.1:${port}: connection refused); fast answers instead`,
  ]);
  assert.doesNotMatch(r.stdout, /not contacted/);
  // Right below the other roles, as one of them.
  const names = lines(r.stdout).map((l) => l.split(":")[0]);
  assert.deepEqual(names.slice(0, 5), [
    "ok config",
    "ok role brain",
    "ok role fast",
    "ok role memory",
    local[0]!.split(":")[0],
  ]);
  await cleanup();
});

Deno.test("agent doctor names the .env lines it ignores, en and tr", async () => {
  const home = await initHome();
  await Deno.writeTextFile(
    `${home}/.env`,
    "# keys\nVENDOR_B_API_KEY sk-123\nAGENT_LANG=en\nvendor-b-key=1\n",
    { mode: 0o600 },
  );
  const r = await agent(["--home", home, "doctor"]);
  assert.ok(
    lines(r.stdout).includes(
      `warn .env: ${home}/.env: lines that are not NAME=value and so are ignored: 2, 4`,
    ),
    r.stdout,
  );
  assert.doesNotMatch(r.stdout, /sk-123/);
  const tr = await agent(["--home", home, "--lang", "tr", "doctor"]);
  assert.match(tr.stdout, /yok sayılan satırlar: 2, 4$/m);
  await cleanup();
});
