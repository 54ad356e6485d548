/**
 * The `shell` tool's escape suite, in a real bubblewrap sandbox: the home's `.env`, the
 * identity and the data folder cannot be read, nothing outside the scratch folder can
 * be written, no socket opens without the approval's network flag, no variable of the
 * agent's leaks in, a long command is stopped and long output cut. CI installs
 * bubblewrap; elsewhere the suite is skipped with one line.
 */
import assert from "node:assert/strict";
import { resolvePaths } from "@agent/hub/base";
import { scratchFolder, shell } from "@agent/hub";
import { findBwrap } from "@agent/hub/mcp";
import { tempDir } from "../_temp_dir.ts";

const bwrap = await findBwrap();
const skip = bwrap === undefined;
if (skip && Deno.env.get("CI")) throw new Error("bubblewrap (bwrap) is missing on CI");
if (skip) console.log("skipped: bubblewrap (bwrap) is not installed");

const SESSION = "chat-20261201-100000-abcd";

async function home(dir: string) {
  const paths = resolvePaths({ env: { AGENT_HOME: `${dir}/.agent` } });
  await Deno.mkdir(`${paths.dataDir}/net`, { recursive: true });
  await Deno.writeTextFile(paths.envFile, "VENDOR_A_API_KEY=sk-ant-secret\n", { mode: 0o600 });
  await Deno.writeTextFile(`${paths.netDir}/identity.json`, '{"secret":"id-secret"}');
  return paths;
}

function run(
  paths: ReturnType<typeof resolvePaths>,
  command: string,
  more: { network?: boolean; timeout?: number; kb?: number; session?: string } = {},
) {
  return shell.execute({ command, ...(more.network ? { network: true } : {}) }, {
    paths,
    env: { VENDOR_A_API_KEY: "sk-ant-secret", AGENT_SPINE_TOKEN: "spine-secret" },
    settings: {
      shell: { enabled: true, timeout_seconds: more.timeout ?? 60, max_output_kb: more.kb ?? 64 },
    },
    sessionId: more.session ?? SESSION,
  }) as Promise<{ exit_code: number | null; text: string; timed_out?: string; truncated: boolean }>;
}

Deno.test({
  name: "shell: the home's .env, the identity and the data folder cannot be read",
  ignore: skip,
  async fn() {
    await using dir = await tempDir();
    const paths = await home(dir.path);
    for (const file of [paths.envFile, `${paths.netDir}/identity.json`, paths.ledgerFile]) {
      const r = await run(paths, `cat ${file}; ls -a ${paths.home}`);
      assert.notEqual(r.exit_code, 0);
      assert.ok(!r.text.includes("sk-ant-secret") && !r.text.includes("id-secret"), r.text);
      assert.match(r.text, /No such file or directory/);
    }
    const env = await run(paths, "env; cat /etc/shadow");
    assert.ok(!env.text.includes("sk-ant-secret") && !env.text.includes("spine-secret"), env.text);
    assert.match(env.text, /HOME=\/work/);
    assert.match(env.text, /\/etc\/shadow: No such file or directory/);
  },
});

Deno.test({
  name: "shell: nothing outside the scratch folder can be written; the scratch folder is kept",
  ignore: skip,
  async fn() {
    await using dir = await tempDir();
    const paths = await home(dir.path);
    const targets = ["/usr/escape", "/etc/escape", `${paths.home}/escape`, `${dir.path}/escape`];
    for (const target of targets) {
      const r = await run(paths, `echo pwned > ${target}`);
      assert.notEqual(r.exit_code, 0, target);
    }
    for (const target of targets) {
      await assert.rejects(Deno.stat(target), Deno.errors.NotFound, target);
    }
    assert.equal((await run(paths, "echo kept > note.txt && pwd")).text, "/work\n");
    assert.equal((await run(paths, "cat /work/note.txt")).text, "kept\n");
    assert.equal(
      await Deno.readTextFile(`${scratchFolder(paths.dataDir, SESSION)}/note.txt`),
      "kept\n",
    );
    // Another conversation has its own scratch folder.
    const other = await run(paths, "cat note.txt", { session: "chat-20261201-100000-ffff" });
    assert.notEqual(other.exit_code, 0);
  },
});

Deno.test({
  name: "shell: no socket opens unless the approved call asked for the network",
  ignore: skip,
  async fn() {
    await using dir = await tempDir();
    const paths = await home(dir.path);
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    const accepted = (async () => {
      for await (const conn of listener) conn.close();
    })();
    try {
      const connect =
        `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 3); print('connected')"`;
      const closed = await run(paths, connect);
      assert.notEqual(closed.exit_code, 0);
      assert.doesNotMatch(closed.text, /connected/);
      const open = await run(paths, connect, { network: true });
      assert.equal(open.text, "connected\n", open.text);
    } finally {
      listener.close();
      await accepted.catch(() => {});
    }
  },
});

Deno.test({
  name:
    "shell: a long command is stopped and long output cut; the approval shows the whole command",
  ignore: skip,
  async fn() {
    await using dir = await tempDir();
    const paths = await home(dir.path);
    const started = Date.now();
    const slow = await run(paths, "sleep 30", { timeout: 1 });
    assert.ok(Date.now() - started < 10_000);
    assert.equal(slow.exit_code, null);
    assert.equal(slow.timed_out, "The command was stopped after 1 s.");
    const long = await run(paths, "head -c 5000 /dev/zero | tr '\\0' a", { kb: 1 });
    assert.equal(long.text.length, 1024);
    assert.equal(long.truncated, true);
    const command =
      "cd /work &&\nfind . -name '*.log' -delete # and more text that a one-line cut would hide";
    assert.equal(
      shell.describe!({ command }, "en"),
      `The agent wants to run this command in its sandbox (no network):\n${command}`,
    );
    assert.match(shell.describe!({ command, network: true }, "tr"), /AĞ ERİŞİMİYLE/);
    assert.equal(shell.tier, 2);
  },
});
