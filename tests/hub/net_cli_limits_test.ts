/**
 * `agent net` limits and formats that need no spine: the card name (1 to 80, the
 * profile beats `[net] name`), the 8 000-character message, ADDRESS/NAME targets, and
 * the log's `<address> (/<name>)` / `<address>/<name>` lines with --address and -n.
 */
import assert from "node:assert/strict";
import { agent } from "../cli/_run.ts";
import { loadConfig } from "@agent/hub";
import { Logger } from "@agent/hub/base";
import { resolvePaths } from "@agent/hub/base";
import { openNetwork } from "@agent/hub";
import { freePort } from "../_port.ts";
import { initHomeAt } from "../_init_home.ts";

Deno.test("agent net: name and message limits, targets, log lines, profile name beats [net] name", async () => {
  const home = await Deno.makeTempDir({ prefix: "agent-net-limits-" });
  const env = {
    AGENT_SPINE_URL: `http://127.0.0.1:${freePort()}`,
    AGENT_SPINE_TOKEN: "t",
    AGENT_NET_ALLOW_INSECURE: "1",
  };
  const net = (...args: string[]) => agent(["--home", home, "net", ...args], { env });
  try {
    await initHomeAt(home);
    const toml = await Deno.readTextFile(`${home}/agent.toml`);
    await Deno.writeTextFile(
      `${home}/agent.toml`,
      toml.replace('# name = "My agent"', 'name = "Toml Name"'),
    );
    // init --name never overwrites the identity, and sets the profile name.
    assert.deepEqual((await net("init")).code, 0);
    const identity = await Deno.readTextFile(`${home}/data/net/identity.json`);
    const again = await net("init", "--name", "Profile Name");
    assert.deepEqual(again.code, 0);
    assert.deepEqual(await Deno.readTextFile(`${home}/data/net/identity.json`), identity);
    assert.ok(again.stdout.includes("Card name set to 'Profile Name'."), again.stdout);

    const long = await net("name", "x".repeat(81));
    assert.deepEqual([long.code, long.stderr], [2, "The card name needs 1 to 80 characters.\n"]);
    assert.deepEqual((await net("name", "   ")).code, 2);
    assert.deepEqual((await net("name", "ü".repeat(80))).code, 0);
    assert.deepEqual((await net("name", "Profile", "Name")).code, 0);
    const paths = resolvePaths({ env: { AGENT_HOME: home } });
    const config = await loadConfig(paths);
    assert.deepEqual(config.net.name, "Toml Name");
    const opened = await openNetwork({
      config,
      env,
      paths,
      logger: new Logger({ file: paths.logFile, stderr: "off" }),
    });
    assert.ok(opened.ok);
    assert.deepEqual(await opened.node.cardName(), "Profile Name");

    const tooLong = await net("send", "b.example", "y".repeat(8001));
    assert.deepEqual([tooLong.code, tooLong.stderr], [
      2,
      "The message is longer than 8,000 characters.\n",
    ]);
    // Turkish groups thousands with a dot.
    const tooLongTr = await agent(
      ["--home", home, "--lang", "tr", "net", "send", "b.example", "y".repeat(8001)],
      { env },
    );
    assert.deepEqual([tooLongTr.code, tooLongTr.stderr], [2, "Mesaj 8.000 karakterden uzun.\n"]);
    // 8 000 passes the limit and stops at the contact check (no spine needed).
    const max = await net("send", "b.example/chef", "y".repeat(8000));
    assert.deepEqual([max.code, max.stderr], [1, "b.example is not an accepted contact.\n"]);
    const target = await net("send", "b.example/Chef!", "hi");
    assert.deepEqual([target.code, target.stderr], [
      2,
      "'b.example/Chef!' is not ADDRESS or ADDRESS/NAME.\n",
    ]);

    const entry = (ts: number, direction: string, address: string, text: string, subs = {}) =>
      JSON.stringify({
        ts,
        direction,
        address,
        kind: "message",
        id: `id-${ts}`,
        thread: "t",
        text,
        ...subs,
      });
    await Deno.writeTextFile(
      `${home}/data/net/log.jsonl`,
      [
        entry(1_700_000_000, "in", "b.example", "For your chef", { own_sub: "chef" }),
        entry(1_700_000_060, "out", "b.example", "From my chef", { own_sub: "chef" }),
        entry(1_700_000_120, "out", "c.example", "To their chef", { peer_sub: "chef" }),
        entry(1_700_000_180, "in", "c.example", "Their chef answers", { peer_sub: "chef" }),
      ].join("\n") + "\n",
    );
    const lines = (await net("log")).stdout.trimEnd().split("\n");
    assert.deepEqual(lines, [
      "15.11.2023 01:13 in  b.example (/chef) message: For your chef",
      "15.11.2023 01:14 out b.example (/chef) message: From my chef",
      "15.11.2023 01:15 out c.example/chef message: To their chef",
      "15.11.2023 01:16 in  c.example/chef message: Their chef answers",
    ]);
    assert.deepEqual(
      (await net("log", "--address", "c.example", "-n", "1")).stdout.trimEnd(),
      lines[3],
    );
    assert.deepEqual(
      (await net("log", "--address", "b.example")).stdout.trimEnd().split("\n"),
      lines.slice(0, 2),
    );
    assert.deepEqual((await net("log", "-n", "x")).code, 2);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
