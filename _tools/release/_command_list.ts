/**
 * The command list a new user runs first, checked against any way of running the
 * agent (an installed package, the bundle, a binary) from a folder with no checkout and
 * a fresh HOME: `--version`, `version`, `init --yes`, `doctor`, `doctor` with
 * `AGENT_SPINE_URL` (a spine on workerd), one piped `chat` line, `hub run` with `GET
 * /health` and `hub stop`, `net spine init DIR` and `--cloud`, and `hub systemd-unit`,
 * whose command line is then run too.
 *
 * @module
 */
import assert from "node:assert/strict";
import { kitSpineVersion, spineKitFiles } from "@agent/kit/spine";
import {
  type MiniflareOptions,
  spineMiniflareOptions,
  startMiniflare,
  stopMiniflare,
} from "@agent/kit";
import { freePort } from "../../tests/_port.ts";
import { tmpdirEnv } from "../../tests/_temp_dir.ts";

const SPINE_KIT_FILES = await spineKitFiles();
const SPINE_KIT_VERSION = await kitSpineVersion();
const VERSION: string =
  JSON.parse(await Deno.readTextFile(new URL("../../cli/deno.json", import.meta.url))).version;

/**
 * The kit's own spine (`worker.js` of the spine kit, as `net spine init` writes it) on
 * workerd, in local mode with the hub token `token`.
 */
async function startKitSpine(token: string): Promise<{ url: string; stop(): Promise<void> }> {
  Deno.env.set("CLOUDFLARE_CF_FETCH_ENABLED", "false");
  const port = freePort();
  const mf = startMiniflare(
    spineMiniflareOptions({
      port,
      script: SPINE_KIT_FILES["worker.js"]!,
      vars: {
        ADDRESS: `127.0.0.1:${port}`,
        ALLOW_INSECURE_PEERS: "1",
        AGENT_MODE: "local",
        HUB_TOKEN: token,
      },
    }) as MiniflareOptions,
  );
  await mf.ready;
  return { url: `http://127.0.0.1:${port}`, stop: () => stopMiniflare(mf) };
}

/** One way of running the agent. */
export interface AgentCommand {
  /** The program and its leading arguments, e.g. the install's shim, or deno with a bundle. */
  command: string[];
  /** The whole environment of every run (clean: PATH, HOME, DENO_DIR, ...). */
  env: Record<string, string>;
  /** The working directory: a folder with no checkout. */
  cwd: string;
  /** Words `hub systemd-unit`'s unit must hold (its flags, config, variables). */
  unitHolds: string[];
}

/** What a run printed and returned. */
export interface RunOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `agent <args>` (killed after `timeoutMs`). */
export async function run(
  agent: AgentCommand,
  args: string[],
  options: { stdin?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunOutput> {
  const [program, ...lead] = agent.command as [string, ...string[]];
  const child = new Deno.Command(program, {
    args: [...lead, ...args],
    cwd: agent.cwd,
    env: { ...tmpdirEnv(), ...agent.env, ...options.env },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  try {
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(options.stdin));
      await writer.close();
    }
    const out = await child.output();
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

function ok(r: RunOutput, what: string): void {
  assert.equal(r.code, 0, `${what} exited ${r.code}: ${r.stderr || r.stdout}`);
}

/** Splits a systemd command line (as `hub systemd-unit` quotes it) into words. */
export function execStartWords(unit: string): string[] {
  const line = unit.split("\n").find((l) => l.startsWith("ExecStart="));
  assert.ok(line !== undefined, unit);
  const words: string[] = [];
  for (const m of line.slice("ExecStart=".length).matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    const word = m[1]?.replace(/\\(.)/g, "$1") ?? m[2]!;
    words.push(word.replaceAll("%%", "%").replaceAll("$$", "$"));
  }
  return words;
}

/** Options for {@linkcode checkCommandList}. */
export interface CommandListOptions {
  /** Receives one line per passed step (`ok <step> (<ms> ms)`). */
  log?: (line: string) => void;
}

/**
 * Runs the command list with a fresh agent home under `agent.env.HOME`; throws an
 * assertion error naming the first step that fails.
 */
export async function checkCommandList(
  agent: AgentCommand,
  options: CommandListOptions = {},
): Promise<void> {
  const log = options.log ?? (() => {});
  const userHome = agent.env.HOME;
  assert.ok(userHome !== undefined, "the agent needs a HOME");
  const home = `${userHome}/.agent`;
  const step = async (name: string, fn: () => Promise<void>) => {
    const start = performance.now();
    try {
      await fn();
    } catch (error) {
      if (error instanceof Error) error.message = `${name}: ${error.message}`;
      throw error;
    }
    log(`ok ${name} (${Math.round(performance.now() - start)} ms)`);
  };

  await step("--version", async () => {
    for (const flag of ["--version", "-V"]) {
      const r = await run(agent, [flag]);
      ok(r, flag);
      assert.equal(r.stdout, `agent ${VERSION}\n`);
    }
  });
  await step("version", async () => {
    const r = await run(agent, ["version"]);
    ok(r, "version");
    assert.match(r.stdout, new RegExp(`^agent-core ${VERSION.replaceAll(".", "\\.")}$`, "m"));
  });
  await step("init --yes", async () => {
    const r = await run(agent, ["init", "--yes"]);
    ok(r, "init --yes");
    await Deno.stat(`${home}/agent.toml`);
  });
  await step("doctor", async () => {
    const r = await run(agent, ["doctor"]);
    ok(r, "doctor");
    assert.match(r.stdout, /^ok config: .*agent\.toml is valid/m);
  });
  await step("doctor with AGENT_SPINE_URL", async () => {
    const token = "release-check-token-0123456789";
    const spine = await startKitSpine(token);
    try {
      const r = await run(agent, ["doctor"], {
        env: {
          AGENT_SPINE_URL: spine.url,
          AGENT_SPINE_TOKEN: token,
          AGENT_NET_ALLOW_INSECURE: "1",
        },
      });
      assert.match(r.stdout, new RegExp(`^ok spine: ${spine.url} answers`, "m"), r.stdout);
      assert.match(
        r.stdout,
        new RegExp(`^ok spine version: spine ${SPINE_KIT_VERSION}, as this agent's kit$`, "m"),
        r.stdout + r.stderr,
      );
      ok(r, "doctor");
    } finally {
      await spine.stop();
    }
  });
  await step("chat (one piped line)", async () => {
    const r = await run(agent, ["chat"], { stdin: "hello\n" });
    ok(r, "chat");
    assert.match(r.stdout, /Okay\./);
  });
  await step("hub run, GET /health, hub stop", async () => {
    const port = freePort();
    const toml = await Deno.readTextFile(`${home}/agent.toml`);
    await Deno.writeTextFile(`${home}/agent.toml`, toml.replace(/^port = \d+$/m, `port = ${port}`));
    const [program, ...lead] = agent.command as [string, ...string[]];
    const hub = new Deno.Command(program, {
      args: [...lead, "hub", "run"],
      cwd: agent.cwd,
      env: { ...tmpdirEnv(), ...agent.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = hub.output();
    try {
      let health: Response | undefined;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        if (health?.ok) break;
        await health?.body?.cancel();
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(health?.ok, `no /health on port ${port}`);
      const body: { version?: string } = await health.json();
      assert.equal(body.version, VERSION, JSON.stringify(body));
      const stop = await run(agent, ["hub", "stop"]);
      ok(stop, "hub stop");
      assert.match(stop.stdout, /hub stopped\./);
      const out = await output;
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    } finally {
      try {
        hub.kill("SIGKILL");
      } catch { /* stopped */ }
      await output;
    }
  });
  await step("net spine init DIR", async () => {
    const dir = `${userHome}/spine`;
    const r = await run(agent, ["net", "spine", "init", dir]);
    ok(r, "net spine init");
    assert.equal(await Deno.readTextFile(`${dir}/worker.js`), SPINE_KIT_FILES["worker.js"]);
    assert.equal(
      await Deno.readTextFile(`${dir}/package.json`),
      SPINE_KIT_FILES["package.template.json"],
    );
  });
  await step("net spine init DIR --cloud", async () => {
    const dir = `${userHome}/spine-cloud`;
    const r = await run(agent, ["net", "spine", "init", dir, "--cloud"]);
    ok(r, "net spine init --cloud");
    assert.match(await Deno.readTextFile(`${dir}/wrangler.jsonc`), /"AGENT_MODE": "cloud"/);
    assert.match(await Deno.readTextFile(`${dir}/Dockerfile`), /^FROM /m);
    // The brain's bundle, made from this very install: one file that runs on its own.
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--allow-all", `${dir}/agent.js`, "--version"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(bundled.code, 0, new TextDecoder().decode(bundled.stderr));
    assert.match(new TextDecoder().decode(bundled.stdout), /^agent \d+\.\d+\.\d+/);
    for (const name of Object.keys(SPINE_KIT_FILES)) {
      if (!name.startsWith("cloud/migrations/")) continue;
      const file = `${dir}/migrations/${name.slice("cloud/migrations/".length)}`;
      assert.equal(await Deno.readTextFile(file), SPINE_KIT_FILES[name], file);
    }
  });
  await step("hub systemd-unit (and its command line runs)", async () => {
    const r = await run(agent, ["hub", "systemd-unit"]);
    ok(r, "hub systemd-unit");
    for (const word of agent.unitHolds) assert.ok(r.stdout.includes(word), `${word}\n${r.stdout}`);
    const words = execStartWords(r.stdout);
    assert.deepEqual(words.slice(-4), ["--home", home, "hub", "run"]);
    const env: Record<string, string> = {};
    for (const line of r.stdout.split("\n")) {
      const m = line.match(/^Environment=(?:"(.*)"|(.*))$/);
      const pair = m?.[1] ?? m?.[2];
      if (pair !== undefined) {
        env[pair.slice(0, pair.indexOf("="))] = pair.slice(pair.indexOf("=") + 1);
      }
    }
    // The unit's own command line, with `version` for `hub run`, from another folder.
    // JSR_URL only as the unit says: a unit that forgets it cannot resolve the package.
    const { JSR_URL: _, ...base } = agent.env;
    const unitRun = await run(
      { ...agent, command: words.slice(0, -2), cwd: userHome, env: base },
      ["version"],
      { env },
    );
    ok(unitRun, "the unit's command line");
    assert.match(unitRun.stdout, /^agent-core /m);
  });
}
