import assert from "node:assert/strict";
import { render } from "ink-testing-library";
import { settingChoices } from "@agent/hub";
import { setEnvKey } from "@agent/hub/base";
import { ChatScreen, statusBar } from "./chat_screen.tsx";
import { SettingsScreen, SetupScreen } from "./setup_screens.tsx";
import { controllerFor, fakeHome, tick } from "./_testing.ts";

Deno.test("SetupScreen: language, provider with the keys found, confirm; Esc quits", async () => {
  let done: unknown;
  let quit = false;
  const app = render(
    <SetupScreen
      lang="en"
      home="/h"
      providers={["vendor-a", "vendor-b", "fake"]}
      env={{ VENDOR_B_API_KEY: "k" }}
      preferred="vendor-b"
      onDone={(c) => done = c}
      onQuit={() => quit = true}
    />,
  );
  assert.match(app.lastFrame()!, /▸ English \(en\)/);
  app.stdin.write("\x1b[B");
  await tick();
  assert.match(app.lastFrame()!, /▸ Türkçe \(tr\)/);
  app.stdin.write("\r");
  await tick();
  const providers = app.lastFrame()!;
  assert.match(providers, /▸ vendor-b {2}\(anahtar bulundu\)/);
  assert.match(providers, / {2}vendor-a {2}\(henüz anahtar yok\)/);
  app.stdin.write("\r");
  await tick();
  assert.match(app.lastFrame()!, /agent\.toml vendor-b ile tr dilinde yazılsın mı\?/);
  app.stdin.write("\r");
  await tick();
  assert.deepEqual(done, { language: "tr", provider: "vendor-b" });
  app.stdin.write("\x1b");
  await tick();
  assert.equal(quit, true);
  app.unmount();
});

Deno.test("SettingsScreen: what each role needs; a key typed hidden is written to .env 0600", async () => {
  using home = await fakeHome([]);
  const { paths, config } = home;
  config.models.roles.brain = {
    ...config.models.roles.brain!,
    provider: "vendor-b",
    model_id: "gpt-test",
  };
  assert.deepEqual(settingChoices(config.models.roles, {}).map((l) => [l.value, l.state]), [
    ["VENDOR_B_API_KEY", "needed"],
    ["AGENT_LOCAL_RUNTIME_URL", "optional"],
  ]);
  const env: Record<string, string> = {};
  const saved: string[] = [];
  const app = render(
    <SettingsScreen
      lang="en"
      envFile={paths.envFile}
      load={() => Promise.resolve(settingChoices(config.models.roles, env))}
      save={async (name, value) => {
        await setEnvKey(paths.envFile, name, value);
        env[name] = value;
      }}
      back="quit"
      onSaved={(name) => saved.push(name)}
      onBack={() => {}}
    />,
  );
  await tick();
  assert.match(app.lastFrame()!, /▸ VENDOR_B_API_KEY: needed · brain \(vendor-b gpt-test\)/);
  app.stdin.write("\r");
  await tick();
  app.stdin.write("sk-1234");
  await tick();
  const frame = app.lastFrame()!;
  assert.match(frame, /VENDOR_B_API_KEY \(hidden\): •••••••/);
  assert.ok(!frame.includes("sk-1234"));
  app.stdin.write("\r");
  for (let i = 0; i < 50 && saved.length === 0; i++) await tick();
  assert.deepEqual(saved, ["VENDOR_B_API_KEY"]);
  assert.equal(env.VENDOR_B_API_KEY, "sk-1234");
  assert.match(await Deno.readTextFile(paths.envFile), /^VENDOR_B_API_KEY=sk-1234$/m);
  assert.equal((await Deno.stat(paths.envFile)).mode! & 0o777, 0o600);
  assert.match(app.lastFrame()!, /VENDOR_B_API_KEY: set/);
  app.unmount();
});

Deno.test("ChatScreen: a message streams its answer in place; /model opens a picker", async () => {
  using setup = await controllerFor(["Hello from the fake model."]);
  const { controller, chat } = setup;
  try {
    const app = render(<ChatScreen controller={controller} lang="en" columns={70} rows={14} />);
    app.stdin.write("Hi");
    await tick();
    assert.match(app.lastFrame()!, /› Hi\n/);
    app.stdin.write("\r");
    for (
      let i = 0;
      i < 50 && (controller.getState().busy || !app.lastFrame()!.includes("Hello from"));
      i++
    ) {
      await tick();
    }
    const frame = app.lastFrame()!;
    assert.match(frame, /› Hi\n\nHello from the fake model\./);
    assert.match(frame, /brain · \$0\.00\/\$15\.00 month · fake fake-brain/);
    app.stdin.write("/model\r");
    for (let i = 0; i < 50 && !app.lastFrame()!.includes("Choose the role"); i++) await tick();
    assert.match(
      app.lastFrame()!,
      /Choose the role \(Enter\), Esc closes:\n▸ brain {2}fake fake-brain/,
    );
    app.stdin.write("\x1b");
    await tick();
    assert.ok(!app.lastFrame()!.includes("Choose the role"));
    app.unmount();
  } finally {
    controller.stop();
    await chat.desk.close();
    chat.ledger.close();
  }
});

Deno.test("SettingsScreen: ↓ then Enter in one read opens the row ↓ moved to", async () => {
  using home = await fakeHome([]);
  const { paths, config } = home;
  config.models.roles.brain = {
    ...config.models.roles.brain!,
    provider: "vendor-b",
    model_id: "gpt-test",
  };
  const app = render(
    <SettingsScreen
      lang="en"
      envFile={paths.envFile}
      load={() => Promise.resolve(settingChoices(config.models.roles, {}))}
      save={() => Promise.resolve()}
      back="quit"
      onSaved={() => {}}
      onBack={() => {}}
    />,
  );
  await tick();
  app.stdin.write("\x1b[B\r");
  await tick();
  assert.match(app.lastFrame()!, /AGENT_LOCAL_RUNTIME_URL \(hidden\):/);
  assert.ok(!app.lastFrame()!.includes("VENDOR_B_API_KEY (hidden)"));
  app.unmount();
});

Deno.test("ChatScreen: the first screen says the model, the budget left and /help", async () => {
  using setup = await controllerFor([]);
  const { controller, chat } = setup;
  try {
    const app = render(<ChatScreen controller={controller} lang="en" columns={100} rows={14} />);
    const frame = app.lastFrame()!;
    assert.match(frame, /Write a message below and press Enter/);
    assert.match(frame, /Model: brain \(fake fake-brain\)\./);
    assert.match(frame, /Budget left: \$15\.00 of \$15\.00 this month\./);
    assert.match(frame, /\/help lists the commands/);
    app.unmount();
  } finally {
    controller.stop();
    await chat.desk.close();
    chat.ledger.close();
  }
});

Deno.test("ChatScreen: keys of one read act in order (Ctrl-U then Ctrl-D; text then Enter)", async () => {
  using setup = await controllerFor(["One.", "Two."]);
  const { controller, chat } = setup;
  try {
    const app = render(<ChatScreen controller={controller} lang="en" columns={70} rows={14} />);
    app.stdin.write("first\rsecond\r");
    for (let i = 0; i < 100 && !app.lastFrame()!.includes("Two."); i++) await tick();
    assert.match(app.lastFrame()!, /› first\n\nOne\.\n\n› second\n\nTwo\./);
    app.stdin.write("half typed");
    await tick();
    app.stdin.write("\x15\x04");
    await tick();
    assert.equal(controller.getState().exit, 0);
    assert.ok(!app.lastFrame()!.includes("half typed"), app.lastFrame());
    app.unmount();
  } finally {
    controller.stop();
    await chat.desk.close();
    chat.ledger.close();
  }
});

Deno.test("ChatScreen: an answer is drawn as Markdown; a tool call leaves its outcome line", async () => {
  using setup = await controllerFor([
    "/tool current_time {}",
    "Use **bold** and `code`:\n```\nx = 1\n```\n- an item",
  ]);
  const { controller, chat } = setup;
  try {
    const app = render(<ChatScreen controller={controller} lang="en" columns={70} rows={20} />);
    app.stdin.write("go\r");
    for (let i = 0; i < 100 && !app.lastFrame()!.includes("an item"); i++) await tick();
    const frame = app.lastFrame()!;
    assert.match(
      frame,
      /\[current_time\]\n {2}✓ Looked at the clock: \d\d\.\d\d\.\d{4} \d\d:\d\d \(Europe\/Istanbul\)\./,
    );
    assert.match(frame, /Use bold and code:\n {2}x = 1\n• an item/);
    assert.ok(!frame.includes("**") && !frame.includes("```"), frame);
    app.unmount();
  } finally {
    controller.stop();
    await chat.desk.close();
    chat.ledger.close();
  }
});

Deno.test("TuiController: the status bar counts only this home's hub (its /health data_dir)", async () => {
  let dataDir = "/another/home/data";
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/health") return Response.json({ ok: true, data_dir: dataDir });
    return Response.json({ ok: true, net: { state: "polling" } });
  });
  using setup = await controllerFor([], { hubPort: server.addr.port });
  const { controller, chat, paths } = setup;
  try {
    await controller.refresh();
    assert.deepEqual(controller.getState().status.hub, { running: false });
    assert.match(statusBar(controller.getState().status, "en", 200, false), /hub: off/);
    dataDir = paths.dataDir;
    await controller.refresh();
    assert.deepEqual(controller.getState().status.hub, { running: true, net: "polling" });
  } finally {
    controller.stop();
    await chat.desk.close();
    chat.ledger.close();
    await server.shutdown();
  }
});

Deno.test("statusBar() speaks Turkish: the period is gün, not day", () => {
  const facts = {
    role: "fast",
    provider: "fake",
    model: "fake-fast",
    spentUsd: 0,
    capUsd: 1,
    period: "day",
    exhausted: false,
    standIn: undefined,
    hub: { running: false },
    requests: 0,
    session: "s",
  };
  assert.equal(
    statusBar(facts, "tr", 200, false),
    "fast · $0,00/$1,00 gün · fake fake-fast · hub: kapalı · s",
  );
});

Deno.test("statusBar() drops the least important segments on a narrow terminal, never wraps", () => {
  const facts = {
    role: "brain",
    provider: "vendor-a",
    model: "claude-sonnet-5",
    spentUsd: 15.5,
    capUsd: 15,
    period: "month",
    exhausted: true,
    standIn: "fast",
    hub: { running: true, net: "polling" },
    requests: 2,
    session: "chat-20261124-070000-abcd",
  };
  assert.equal(
    statusBar(facts, "en", 200, false),
    "brain · $15.50/$15.00 month SPENT → fast · vendor-a claude-sonnet-5 · hub: on · net: polling · 2 request(s) · chat-20261124-070000-abcd",
  );
  assert.equal(statusBar(facts, "en", 40, false), "brain · $15.50/$15.00 month SPENT → fast");
  // The network's state in Turkish too (it was 'ağ: idle').
  assert.match(
    statusBar({ ...facts, hub: { running: true, net: "idle" } }, "tr", 200, false),
    / · hub: açık · ağ: boşta · /,
  );
  assert.equal(statusBar(facts, "en", 12, false), "brain");
  for (const width of [8, 20, 60, 90]) {
    assert.ok(statusBar(facts, "en", width, true).length <= width);
  }
});
