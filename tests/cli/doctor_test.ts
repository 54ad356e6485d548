import assert from "node:assert/strict";
import { agent, cleanup, initHome as setUp, tempHome } from "./_run.ts";
import { SHIPPED_MODELS, type ShippedProvider } from "@agent/hub/config";

interface Doctor {
  ok: boolean;
  checks: { name: string; status: string; detail: string }[];
}

/** A home as `agent init --yes --provider <provider>` makes it (in this process). */
function initHome(provider: ShippedProvider = "fake"): Promise<string> {
  return setUp(tempHome(), { provider });
}

async function editConfig(home: string, edit: (text: string) => string): Promise<void> {
  const path = `${home}/agent.toml`;
  await Deno.writeTextFile(path, edit(await Deno.readTextFile(path)));
}

Deno.test("agent doctor on a fresh fake setup passes every check, exit 0", async () => {
  const home = await initHome();
  const r = await agent(["--home", home, "doctor"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const lines = r.stdout.trim().split("\n");
  for (const line of lines) assert.match(line, /^(ok|warn|info|fail) [^:]+: .+$/);
  assert.doesNotMatch(r.stdout, /^fail /m);
  for (
    const name of [
      "config",
      "role brain",
      "role fast",
      "role local",
      "sessions",
      "persona",
      ".env",
      "components",
    ]
  ) {
    assert.ok(lines.some((l) => l.split(":")[0]!.endsWith(` ${name}`)), name);
  }
  await cleanup();
});

Deno.test("agent doctor --json prints {ok, checks:[{name,status,detail}]}", async () => {
  const home = await initHome();
  const r = await agent(["--home", home, "doctor", "--json"]);
  assert.equal(r.code, 0);
  const doc = JSON.parse(r.stdout) as Doctor;
  assert.equal(doc.ok, true);
  assert.ok(doc.checks.length >= 7);
  for (const c of doc.checks) {
    assert.deepEqual(Object.keys(c).sort(), ["detail", "name", "status"]);
    assert.ok(["ok", "warn", "info", "fail"].includes(c.status));
  }
  await cleanup();
});

Deno.test("agent doctor without agent.toml fails the config check, exit 1", async () => {
  const home = await tempHome();
  const r = await agent(["--home", home, "doctor", "--json"]);
  assert.equal(r.code, 1);
  const doc = JSON.parse(r.stdout) as Doctor;
  assert.equal(doc.ok, false);
  assert.deepEqual(doc.checks[0], {
    name: "config",
    status: "fail",
    detail: `${home}/agent.toml not found; run 'agent init' to create it`,
  });
  await cleanup();
});

Deno.test("agent doctor reports a missing credential in the spec's words, exit 1", async () => {
  const home = await initHome("vendor-a");
  const r = await agent(["--home", home, "doctor"]);
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /^fail role brain: provider 'vendor-a' is missing VENDOR_A_API_KEY \(names are in \.env\.example\)$/m,
  );
  assert.match(
    r.stdout,
    /^fail role fast: provider 'vendor-a' is missing VENDOR_A_API_KEY \(names are in \.env\.example\)$/m,
  );
  // The key in .env (or the environment) satisfies it; the key itself is never printed.
  await Deno.writeTextFile(`${home}/.env`, "VENDOR_A_API_KEY=sk-secret-value\n", { mode: 0o600 });
  const ok = await agent(["--home", home, "doctor"]);
  assert.equal(ok.code, 0, ok.stdout);
  assert.doesNotMatch(ok.stdout + ok.stderr, /sk-secret-value/);
  const env = await agent(["--home", await initHome("vendor-b"), "doctor"], {
    env: { VENDOR_B_API_KEY: "k" },
  });
  assert.equal(env.code, 0, env.stdout);
  await cleanup();
});

Deno.test("agent doctor warns about a budget on an unpriced model", async () => {
  const home = await initHome("vendor-b");
  const brain = SHIPPED_MODELS["vendor-b"].brain;
  await editConfig(home, (t) => t.replace(`model_id = "${brain}"`, 'model_id = "my-own-model"'));
  const r = await agent(["--home", home, "doctor"], { env: { VENDOR_B_API_KEY: "k" } });
  assert.equal(r.code, 0, r.stdout);
  assert.match(
    r.stdout,
    /^warn role brain: has a budget, but model 'my-own-model' has no price, so its calls count as \$0; add \[models\.prices\.my-own-model\] to agent\.toml$/m,
  );
  await cleanup();
});

Deno.test("agent doctor lists names in .env that .env.example does not list", async () => {
  const home = await initHome();
  await Deno.writeTextFile(`${home}/.env`, "VENDOR_A_API_KEY=k\nMY_TOKEN=x\nOTHER=y\n", {
    mode: 0o600,
  });
  const r = await agent(["--home", home, "doctor"]);
  assert.equal(r.code, 0);
  assert.match(
    r.stdout,
    /^warn \.env: names in \.env that \.env\.example does not list: MY_TOKEN, OTHER$/m,
  );
  await Deno.chmod(`${home}/.env`, 0o644);
  const loose = await agent(["--home", home, "doctor"]);
  assert.match(loose.stdout, /^warn \.env: .* has mode 0644; run 'chmod 600 /m);
  await cleanup();
});

Deno.test("agent doctor fails an invalid agent.toml with its exact sentence", async () => {
  const home = await initHome();
  await editConfig(home, (t) => t.replace('period = "month"', 'period = "1mo"'));
  const r = await agent(["--home", home, "doctor"]);
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /^fail config: agent\.toml: \[models\.roles\.brain\] 'budget' needs 'period', one of day, week, month\.$/m,
  );
  await editConfig(
    home,
    (t) =>
      t.replace('period = "1mo"', 'period = "month"').replace(
        'period = "day"',
        'period = "day"\ndegrade_to = "brain"',
      ),
  );
  const loop = await agent(["--home", home, "doctor"]);
  assert.equal(loop.code, 1);
  assert.match(
    loop.stdout,
    /^fail config: agent\.toml: \[models\.roles\.brain\] stand-ins loop: brain -> fast -> brain \(budget\.degrade_to and failover together\)\.$/m,
  );
  await cleanup();
});

Deno.test("agent doctor reports persona files and the session store", async () => {
  const home = await initHome();
  await Deno.remove(`${home}/persona/user.md`);
  await Deno.mkdir(`${home}/data`, { recursive: true });
  await Deno.writeTextFile(`${home}/data/sessions`, "not a directory");
  const r = await agent(["--home", home, "doctor"]);
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /^warn persona: persona\/user\.md is missing; run 'agent init' to create it$/m,
  );
  assert.match(r.stdout, /^fail sessions: .*\/data\/sessions exists but is not a directory$/m);
  await cleanup();
});

Deno.test("agent doctor speaks Turkish with --lang tr", async () => {
  const home = await initHome("vendor-a");
  const r = await agent(["--lang", "tr", "--home", home, "doctor"]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^fail role brain: 'vendor-a' sağlayıcısında VENDOR_A_API_KEY eksik/m);
  await cleanup();
});
