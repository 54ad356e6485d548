import assert from "node:assert/strict";
import { parseConfig } from "@agent/hub";
import { CONFIG_TEMPLATE } from "@agent/hub";
import { SHIPPED_MODELS } from "@agent/hub/config";
import { agent, cleanup, initHome, isOneSentence, modeOf, tempHome } from "./_run.ts";

const FILES = [
  "agent.toml",
  "persona/persona.md",
  "persona/user.example.md",
  "persona/user.md",
  ".env.example",
];

async function snapshot(home: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of FILES) out[f] = await Deno.readTextFile(`${home}/${f}`);
  return out;
}

Deno.test("agent init creates every file with private modes and exits 0", async () => {
  const home = `${await tempHome()}/home`;
  const r = await agent(["init", "--yes"], { env: { AGENT_HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  for (const f of FILES) {
    assert.match(r.stdout, new RegExp(`^created ${home}/${f.replace(".", "\\.")}$`, "m"));
    assert.equal(await modeOf(`${home}/${f}`), 0o600, f);
  }
  assert.equal(await modeOf(home), 0o700);
  assert.equal(await modeOf(`${home}/persona`), 0o700);
  assert.equal(
    await Deno.readTextFile(`${home}/persona/user.md`),
    await Deno.readTextFile(`${home}/persona/user.example.md`),
  );
  const envExample = await Deno.readTextFile(`${home}/.env.example`);
  for (
    const name of [
      "VENDOR_A_API_KEY",
      "VENDOR_D_BEARER_TOKEN",
      "MESSENGER_BOT_TOKEN",
      "AGENT_PROFILE",
    ]
  ) {
    assert.match(envExample, new RegExp(`^${name}=$`, "m"));
  }
  assert.match(r.stdout, /brain and fast use fake \(fake-brain, fake-fast\)\./);
  await cleanup();
});

Deno.test("initHome() writes what agent init --yes writes, files and modes", async () => {
  // The tests' in-process home (tests/cli/_run.ts) stands in for a spawned init only
  // while it makes the same home.
  for (
    const [args, options] of [[[], {}], [["--provider", "vendor-a", "--language", "tr"], {
      provider: "vendor-a",
      language: "tr",
    }]] as const
  ) {
    const spawned = tempHome();
    const r = await agent(["--home", spawned, "init", "--yes", ...args]);
    assert.equal(r.code, 0, r.stderr);
    const made = await initHome(tempHome(), options);
    assert.deepEqual(await snapshot(made), await snapshot(spawned), args.join(" "));
    for (const f of [...FILES, ".env"]) {
      const exists = async (home: string) =>
        await Deno.stat(`${home}/${f}`).then(() => true, () => false);
      assert.equal(await exists(made), await exists(spawned), f);
      if (await exists(made)) {
        assert.equal(await modeOf(`${made}/${f}`), await modeOf(`${spawned}/${f}`), f);
      }
    }
    assert.equal(await modeOf(made), await modeOf(spawned));
    assert.equal(await modeOf(`${made}/persona`), await modeOf(`${spawned}/persona`));
  }
  await cleanup();
});

Deno.test("agent init is idempotent: a second run keeps every file and exits 0", async () => {
  // The first run's files, written in this process by the same setupHome(): the point is
  // the second run.
  const home = await initHome(tempHome());
  const before = await snapshot(home);
  const r = await agent(["--home", home, "init", "--yes", "--provider", "vendor-b"]);
  assert.equal(r.code, 0);
  for (const f of FILES) {
    assert.match(r.stdout, new RegExp(`^kept ${home}/${f.replace(".", "\\.")}$`, "m"));
  }
  assert.deepEqual(await snapshot(home), before);
  assert.match(r.stdout, /agent\.toml was kept; run 'agent init --force' to rewrite it\./);
  await cleanup();
});

Deno.test("agent init --force overwrites agent.toml and persona.md only", async () => {
  const home = await initHome(tempHome()); // `agent init --yes`'s files, in this process
  for (const f of FILES) await Deno.writeTextFile(`${home}/${f}`, "# mine\n");
  const r = await agent(["--home", home, "init", "--yes", "--force", "--provider", "vendor-c"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^overwrote ${home}/agent\\.toml$`, "m"));
  assert.match(r.stdout, new RegExp(`^overwrote ${home}/persona/persona\\.md$`, "m"));
  const after = await snapshot(home);
  assert.notEqual(after["agent.toml"], "# mine\n");
  assert.notEqual(after["persona/persona.md"], "# mine\n");
  for (const f of ["persona/user.example.md", "persona/user.md", ".env.example"]) {
    assert.equal(after[f], "# mine\n", `${f} must never be overwritten`);
  }
  const c = parseConfig(after["agent.toml"]!, "agent.toml");
  assert.equal(c.models.roles.brain?.provider, "vendor-c");
  assert.equal(c.models.roles.brain?.model_id, SHIPPED_MODELS["vendor-c"].brain);
  assert.match(r.stdout, /Put VENDOR_C_API_KEY into .*\/\.env, then run 'agent doctor'\./);
  await cleanup();
});

Deno.test("agent init rewrites only provider and model_id of brain, fast and memory, comments stay", async () => {
  const home = await tempHome();
  const r = await agent(["--home", home, "init", "--yes", "--provider", "vendor-d"]);
  assert.equal(r.code, 0, r.stderr);
  const text = await Deno.readTextFile(`${home}/agent.toml`);
  const a = CONFIG_TEMPLATE.split("\n");
  const b = text.split("\n");
  assert.equal(a.length, b.length);
  const changed = a.map((line, i) => [line, b[i]]).filter(([x, y]) => x !== y);
  assert.deepEqual(changed.map(([, y]) => y), [
    'provider = "vendor-d"',
    `model_id = "${SHIPPED_MODELS["vendor-d"].brain}"`,
    'provider = "vendor-d"',
    `model_id = "${SHIPPED_MODELS["vendor-d"].fast}"`,
    // The memory role takes the provider's small model too.
    'provider = "vendor-d"',
    `model_id = "${SHIPPED_MODELS["vendor-d"].fast}"`,
  ]);
  const c = parseConfig(text, "agent.toml");
  assert.deepEqual(c.models.roles.brain?.budget, {
    usd: 15,
    period: "month",
    warn_at: 0.8,
    degrade_to: "fast",
  });
  assert.equal(c.models.roles.local?.provider, "local-runtime");
  await cleanup();
});

Deno.test("agent init for vendor-b sets reasoning effort none on brain and fast, for tools on Chat Completions", async () => {
  const home = await tempHome();
  const r = await agent(["--home", home, "init", "--yes", "--provider", "vendor-b"]);
  assert.equal(r.code, 0, r.stderr);
  const c = parseConfig(await Deno.readTextFile(`${home}/agent.toml`), "agent.toml");
  const shipped = SHIPPED_MODELS["vendor-b"];
  assert.equal(c.models.roles.brain?.model_id, shipped.brain);
  assert.equal(c.models.roles.fast?.model_id, shipped.fast);
  assert.equal(c.models.roles.brain?.params.reasoning_effort, "none");
  assert.equal(c.models.roles.fast?.params.reasoning_effort, "none");
  assert.match(
    r.stdout,
    new RegExp(`brain and fast use vendor-b \\(${shipped.brain}, ${shipped.fast}\\)\\.`),
  );
  await cleanup();
});

Deno.test("agent init picks the first provider with credentials in the environment or .env", async () => {
  const cases: [Record<string, string>, string, string][] = [
    [{}, "", "fake"],
    [{ VENDOR_B_API_KEY: "k", VENDOR_C_API_KEY: "k" }, "", "vendor-b"],
    [{ VENDOR_C_ALT_API_KEY: "k" }, "VENDOR_B_API_KEY=k\n", "vendor-b"],
    [{}, "VENDOR_A_API_KEY=k\n", "vendor-a"],
    [{ VENDOR_D_REGION: "eu-west-1", VENDOR_D_BEARER_TOKEN: "t" }, "", "vendor-d"],
    [{ VENDOR_D_REGION: "eu-west-1" }, "", "fake"],
  ];
  for (const [env, dotenv, want] of cases) {
    const home = await tempHome();
    if (dotenv !== "") await Deno.writeTextFile(`${home}/.env`, dotenv, { mode: 0o600 });
    const r = await agent(["init", "--yes", "--home", home], { env });
    assert.equal(r.code, 0, r.stderr);
    const c = parseConfig(await Deno.readTextFile(`${home}/agent.toml`), "agent.toml");
    assert.equal(c.models.roles.brain?.provider, want, JSON.stringify([env, dotenv]));
    assert.equal(c.models.roles.fast?.provider, want);
  }
  await cleanup();
});

Deno.test("agent init --language tr writes [ui] lang and Turkish persona files", async () => {
  const home = await tempHome();
  const r = await agent(["--home", home, "init", "--language", "tr"]);
  assert.equal(r.code, 0, r.stderr);
  const c = parseConfig(await Deno.readTextFile(`${home}/agent.toml`), "agent.toml");
  assert.equal(c.ui.lang, "tr");
  assert.match(await Deno.readTextFile(`${home}/persona/persona.md`), /^# Kişilik/);
  // The next run speaks Turkish from [ui] lang.
  const again = await agent(["--home", home, "init", "--yes"]);
  assert.match(again.stdout, /^korundu: /m);
  await cleanup();
});

Deno.test("agent init without a terminal and without --yes does not hang: English", async () => {
  const home = await tempHome();
  const r = await agent(["--home", home, "init"], { stdin: "" });
  assert.equal(r.code, 0, r.stderr);
  const c = parseConfig(await Deno.readTextFile(`${home}/agent.toml`), "agent.toml");
  assert.equal(c.ui.lang, "en");
  await cleanup();
});

Deno.test("agent init --profile appends AGENT_PROFILE to .env and keeps an existing value", async () => {
  const home = await tempHome();
  const r = await agent(["--home", home, "init", "--yes", "--profile", "work"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await Deno.readTextFile(`${home}/.env`), "AGENT_PROFILE=work\n");
  assert.equal(await modeOf(`${home}/.env`), 0o600);
  const again = await agent(["--home", home, "init", "--yes", "--profile", "play"]);
  assert.equal(again.code, 0);
  assert.equal(await Deno.readTextFile(`${home}/.env`), "AGENT_PROFILE=work\n");
  assert.match(again.stdout, /kept AGENT_PROFILE=work in /);
  // Other lines of .env stay as they are.
  const other = await tempHome();
  await Deno.writeTextFile(`${other}/.env`, "# my keys\nVENDOR_B_API_KEY=k\n", { mode: 0o644 });
  assert.equal((await agent(["--home", other, "init", "--yes", "--profile", "p"])).code, 0);
  assert.equal(
    await Deno.readTextFile(`${other}/.env`),
    "# my keys\nVENDOR_B_API_KEY=k\nAGENT_PROFILE=p\n",
  );
  assert.equal(await modeOf(`${other}/.env`), 0o600);
  const doctor = await agent(["--home", other, "doctor"]);
  assert.doesNotMatch(doctor.stdout, /does not list/, "AGENT_PROFILE is listed in .env.example");
  await cleanup();
});

Deno.test("agent init rejects a bad provider, language or profile with one sentence", async () => {
  const home = await tempHome();
  const p = await agent(["--home", home, "init", "--yes", "--provider", "local-runtime"]);
  assert.ok(isOneSentence(p), p.stderr);
  assert.equal(
    p.stderr,
    "Unknown provider 'local-runtime'; use one of vendor-a, vendor-b, vendor-c, vendor-d, fake.\n",
  );
  const l = await agent(["--home", home, "init", "--language", "de"]);
  assert.ok(isOneSentence(l), l.stderr);
  assert.equal(l.stderr, "Unknown language 'de'; use en or tr.\n");
  const f = await agent(["--home", home, "init", "--yes", "--profile", "a b"]);
  assert.ok(isOneSentence(f), f.stderr);
  const exists = await Deno.stat(`${home}/agent.toml`).then(() => true, () => false);
  assert.equal(exists, false, "nothing is written on a usage error");
  await cleanup();
});

Deno.test("agent init --home beats AGENT_HOME and the default ~/.agent", async () => {
  const user = await tempHome();
  const envHome = await tempHome();
  const optHome = await tempHome();
  assert.equal(
    (await agent(["init", "-y", "--home", optHome], {
      env: { HOME: user, AGENT_HOME: envHome },
    })).code,
    0,
  );
  assert.ok(await Deno.stat(`${optHome}/agent.toml`));
  assert.equal(await Deno.stat(`${envHome}/agent.toml`).then(() => true, () => false), false);
  assert.equal((await agent(["init", "--yes"], { env: { HOME: user } })).code, 0);
  assert.ok(await Deno.stat(`${user}/.agent/agent.toml`));
  await cleanup();
});

Deno.test("agent init into a home that cannot be made is one sentence and exit 1", async () => {
  const file = `${await tempHome()}/not-a-dir`;
  await Deno.writeTextFile(file, "");
  const r = await agent(["--home", file, "init", "--yes"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`^Cannot set up ${file}: [^\\n]+\\n$`));
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  await cleanup();
});

Deno.test("agent init --home X --force keeps X's language and speaks it", async () => {
  const home = await tempHome();
  const first = await agent(["init", "--home", home, "--yes", "--language", "tr"]);
  assert.equal(first.code, 0, first.stderr);
  const again = await agent(["init", "--home", home, "--yes", "--force"]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^üzerine yazıldı: /m);
  const c = parseConfig(await Deno.readTextFile(`${home}/agent.toml`), "agent.toml");
  assert.equal(c.ui.lang, "tr", "the language of that home stays");
  await cleanup();
});
