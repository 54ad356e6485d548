import assert from "node:assert/strict";
import { resolvePaths } from "../paths.ts";
import { Logger } from "../log.ts";
import { runHub } from "./run.ts";
import { readLock } from "./lock.ts";
import { readCrash, readHeartbeat, recordCrash, writeHeartbeat } from "./state_files.ts";
import { hubStatus, statusLines } from "./status.ts";
import { tempDir } from "../../tests/_temp_dir.ts";
import { bearerHeaders, readHubToken } from "../control/token.ts";

Deno.test("runHub() holds the lock, serves the control API and stops cleanly", async () => {
  using homeDir = tempDir();
  const home = homeDir.path;
  const paths = resolvePaths({ env: { AGENT_HOME: home } });
  const stop = new AbortController();
  const out: string[] = [];
  const listening = Promise.withResolvers<number>();
  let stopped = false;
  const done = runHub({
    paths,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    port: 0,
    version: "0.1.0",
    out: (s) => out.push(s),
    err: (s) => out.push(s),
    spend: () => ({}),
    net: () => ({ configured: false }),
    listenSignals: false,
    signal: stop.signal,
    heartbeatMs: 50,
    onListen: (port) => listening.resolve(port),
    components: [{
      name: "probe",
      start: () => {},
      stop: () => {
        stopped = true;
      },
    }],
  });
  const port = await listening.promise;
  const status = await (await fetch(`http://127.0.0.1:${port}/status`, {
    headers: bearerHeaders(await readHubToken(paths.hubTokenFile)),
  })).json() as {
    pid: number;
    spend: unknown;
  };
  assert.deepEqual(status.pid, Deno.pid);
  assert.deepEqual(status.spend, { roles: {}, forecast: {} });
  assert.deepEqual(readLock(paths.hubLockFile)?.pid, Deno.pid);
  await new Promise((r) => setTimeout(r, 120));
  assert.ok((readHeartbeat(paths.hubLockFile)?.at ?? 0) > Date.now() - 1000);
  const report = await hubStatus(paths.hubLockFile, {
    port,
    tokenFile: paths.hubTokenFile,
    launchd: "not_applicable",
  });
  assert.ok(report.running && report.control.answers);

  stop.abort();
  assert.deepEqual(await done, 0);
  assert.ok(stopped);
  assert.deepEqual(readLock(paths.hubLockFile), undefined);
  assert.deepEqual(out.at(-1), "hub stopped.");
});

Deno.test("runHub() records an unclean end found as a stale lock", async () => {
  using homeDir = tempDir();
  const home = homeDir.path;
  const paths = resolvePaths({ env: { AGENT_HOME: home } });
  await Deno.mkdir(paths.dataDir, { recursive: true });
  await Deno.writeTextFile(paths.hubLockFile, JSON.stringify({ pid: 2 ** 30, started_at: 1 }));
  const stop = new AbortController();
  stop.abort();
  const code = await runHub({
    paths,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    port: 0,
    version: "0.1.0",
    out: () => {},
    err: () => {},
    spend: () => ({}),
    net: () => ({}),
    listenSignals: false,
    signal: stop.signal,
  });
  assert.deepEqual(code, 0);
  const crash = readCrash(paths.hubLockFile);
  assert.deepEqual(crash?.pid, 2 ** 30);
  assert.ok(crash?.reason.includes("without a clean shutdown"));
});

Deno.test("runHub() refuses to start while another live hub holds the lock", async () => {
  using homeDir = tempDir();
  const home = homeDir.path;
  const paths = resolvePaths({ env: { AGENT_HOME: home } });
  await Deno.mkdir(paths.dataDir, { recursive: true });
  // pid 1 always exists; its fresh heartbeat marks it as a hub even where pids cannot be probed.
  await Deno.writeTextFile(paths.hubLockFile, JSON.stringify({ pid: 1, started_at: Date.now() }));
  await writeHeartbeat(paths.hubLockFile, { pid: 1, at: Date.now() });
  const errs: string[] = [];
  const code = await runHub({
    paths,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    port: 0,
    version: "0.1.0",
    out: () => {},
    err: (s) => errs.push(s),
    spend: () => ({}),
    net: () => ({}),
    listenSignals: false,
  });
  assert.deepEqual(code, 1);
  assert.ok(errs[0]?.startsWith("hub is already running (pid 1)"));
  assert.deepEqual(readLock(paths.hubLockFile)?.pid, 1);
});

Deno.test("runHub() records an unhandled error as the last crash", async () => {
  using homeDir = tempDir();
  const home = homeDir.path;
  const paths = resolvePaths({ env: { AGENT_HOME: home } });
  const stop = new AbortController();
  // Registered after the hub's own listener: keeps the test runner alive after it.
  const keepAlive = (event: PromiseRejectionEvent) => event.preventDefault();
  const done = runHub({
    paths,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    port: 0,
    version: "0.1.0",
    out: () => {},
    err: () => {},
    spend: () => ({}),
    net: () => ({}),
    listenSignals: false,
    signal: stop.signal,
    components: [{
      name: "faulty",
      start: () => {
        globalThis.addEventListener("unhandledrejection", keepAlive);
        void Promise.reject(new Error("boom in a component"));
      },
      stop: () => {},
    }],
  });
  try {
    for (let i = 0; i < 50 && readCrash(paths.hubLockFile) === undefined; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const crash = readCrash(paths.hubLockFile);
    assert.deepEqual(crash?.pid, Deno.pid);
    assert.ok(crash?.reason.includes("boom in a component"));
  } finally {
    stop.abort();
    await done;
    globalThis.removeEventListener("unhandledrejection", keepAlive);
  }
});

Deno.test("hubStatus() shows a killed hub's lock as the last crash before the next start (issue 39 F23)", async () => {
  using homeDir = tempDir();
  const paths = resolvePaths({ env: { AGENT_HOME: homeDir.path } });
  await Deno.mkdir(paths.dataDir, { recursive: true });
  const options = { port: 1, launchd: "not_applicable" as const, now: () => 5_000_000 };
  // Nothing ran yet: no crash.
  assert.equal((await hubStatus(paths.hubLockFile, options)).last_crash, null);
  // A hub (gone: no such pid) left its lock and a heartbeat, as SIGKILL leaves them.
  const pid = 2 ** 30;
  await Deno.writeTextFile(paths.hubLockFile, JSON.stringify({ pid, started_at: 1_000_000 }));
  await writeHeartbeat(paths.hubLockFile, { pid, at: 4_000_000 });
  const report = await hubStatus(paths.hubLockFile, { ...options, lang: "tr" });
  assert.equal(report.running, false);
  // Was: null ("last crash: none") until the next start recorded it.
  assert.equal(report.last_crash?.pid, pid);
  assert.equal(report.last_crash?.at, new Date(4_000_000).toISOString());
  assert.match(report.last_crash!.reason, /^hub \(pid 1073741824\) temiz kapanmadan sona erdi/);
  assert.ok(!statusLines(report, "en").includes("last crash: none"));
  // An older crash on record does not hide the newer one.
  recordCrash(paths.hubLockFile, { at: 500_000, pid: 7, reason: "old" });
  assert.equal((await hubStatus(paths.hubLockFile, options)).last_crash?.pid, pid);
  // Once a start recorded it (after the lock was taken anew), the record is shown.
  recordCrash(paths.hubLockFile, { at: 2_000_000, pid: 8, reason: "recorded" });
  assert.equal((await hubStatus(paths.hubLockFile, options)).last_crash?.reason, "recorded");
});
