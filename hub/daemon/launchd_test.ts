import assert from "node:assert/strict";
import {
  installLaunchd,
  LaunchdError,
  plistFile,
  type Runner,
  uninstallLaunchd,
} from "./launchd.ts";
import { tempDir } from "../../tests/_temp_dir.ts";

function recorder(codes: Record<string, number> = {}): { run: Runner; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    run: (program, args) => {
      const line = [program, ...args].join(" ");
      calls.push(line);
      return Promise.resolve({ code: codes[args[0] ?? ""] ?? 0, stdout: "", stderr: "nope" });
    },
  };
}

Deno.test("installLaunchd() writes the plist and reloads the job (idempotent)", async () => {
  using homeDir = tempDir();
  const home = homeDir.path;
  const { run, calls } = recorder();
  const file = await installLaunchd(home, 501, "<plist/>", run);
  assert.deepEqual(file, plistFile(home));
  assert.deepEqual(await Deno.readTextFile(file), "<plist/>");
  assert.deepEqual(calls, [
    "launchctl print gui/501",
    "launchctl bootout gui/501/agent.hub",
    `launchctl bootstrap gui/501 ${file}`,
  ]);
  await installLaunchd(home, 501, "<plist/>", run);
  assert.deepEqual(calls.length, 6);
});

Deno.test("installLaunchd() needs a graphical session", async () => {
  using homeDir = tempDir();
  const home = homeDir.path;
  const { run } = recorder({ print: 113 });
  await assert.rejects(
    installLaunchd(home, 501, "<plist/>", run),
    (e) => e instanceof LaunchdError && e.key === "no_gui",
  );
});

Deno.test("uninstallLaunchd() unloads and removes the plist", async () => {
  using homeDir = tempDir();
  const home = homeDir.path;
  const { run } = recorder();
  await installLaunchd(home, 501, "<plist/>", run);
  assert.ok(await uninstallLaunchd(home, 501, run));
  await assert.rejects(Deno.stat(plistFile(home)));
  assert.deepEqual(await uninstallLaunchd(home, 501, recorder({ bootout: 3 }).run), false);
});
