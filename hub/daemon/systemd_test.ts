import assert from "node:assert/strict";
import { hubCommandLine, systemdUnit } from "./systemd.ts";
import { launchdPlist } from "./launchd.ts";
import { agentLaunch } from "./launch.ts";

Deno.test("systemdUnit() starts the hub with absolute paths and stops it with SIGTERM", () => {
  const unit = systemdUnit({
    executable: "/usr/local/bin/deno",
    launch: agentLaunch({ mainModule: "file:///opt/agent/cli/main.ts", standalone: false }),
    home: "/home/ada/.agent",
  });
  assert.ok(unit.includes(
    "ExecStart=/usr/local/bin/deno run --no-prompt --unstable-lazy-dynamic-imports " +
      "--v8-flags=--max-semi-space-size=2,--optimize-for-size --allow-read --allow-write --allow-env --allow-net --allow-run --allow-sys " +
      "--config /opt/agent/deno.json /opt/agent/cli/main.ts --home /home/ada/.agent hub run",
  ));
  assert.ok(unit.includes("Environment=AGENT_HOME=/home/ada/.agent"));
  assert.ok(unit.includes("KillSignal=SIGTERM"));
  assert.ok(unit.includes("WantedBy=default.target"));
});

Deno.test("systemdUnit() quotes spaces and escapes % and $", () => {
  const unit = systemdUnit({ executable: "/opt/my deno/deno", home: "/h/100%$x" });
  assert.ok(unit.includes('ExecStart="/opt/my deno/deno" --home /h/100%%$$x hub run'), unit);
});

Deno.test("hubCommandLine() runs a compiled binary without Deno flags", () => {
  assert.deepEqual(hubCommandLine("/usr/bin/agent", undefined, "/h"), [
    "/usr/bin/agent",
    "--home",
    "/h",
    "hub",
    "run",
  ]);
});

Deno.test("launchdPlist() keeps the hub alive and escapes XML", () => {
  const plist = launchdPlist({
    executable: "/opt/deno",
    launch: agentLaunch({ mainModule: "file:///a&b/cli/main.ts", standalone: false }),
    home: "/Users/ada/.agent",
    logFile: "/Users/ada/.agent/data/logs/hub.out",
  });
  assert.ok(plist.includes("<string>/a&amp;b/cli/main.ts</string>"));
  assert.ok(plist.includes("<key>KeepAlive</key>"));
  assert.ok(plist.includes("<string>agent.hub</string>"));
});
