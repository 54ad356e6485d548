/**
 * `deno task release:check`: the release path, end to end, on this machine.
 *
 * 1. Starts a loopback JSR registry ({@linkcode startJsrRegistry}) and runs one `deno
 *    publish` from the repository root with `JSR_URL` pointing at it: every workspace
 *    member is published, each after the members it imports, and no test file is.
 * 2. Installs the CLI with the install line of `docs/install.md`, in a folder with no
 *    checkout, with a fresh `HOME` and `DENO_DIR`. The versions are minutes old, so the
 *    line is first refused (Deno's minimum dependency age of 24 hours: `createdAt` in
 *    the registry's metadata is the real publishing time), then installed with
 *    `--minimum-dependency-age=0`, as on the day of a release.
 * 3. Runs the new user's command list ({@linkcode checkCommandList}) with the installed
 *    command.
 *
 * Prints one line per step; exits 1 with the failing step's sentence. Leaves nothing
 * behind.
 *
 * @module
 */
import { type JsrRegistry, startJsrRegistry } from "./jsr_registry.ts";
import { checkCommandList } from "./_command_list.ts";
import { tmpdirEnv } from "../../tests/_temp_dir.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The install line of `docs/install.md`: the first `deno install -g` command, as words. */
export async function installLine(root = ROOT): Promise<string[]> {
  const text = await Deno.readTextFile(`${root}docs/install.md`);
  const joined = text.replace(/\\\n\s*/g, "");
  const line = joined.split("\n").find((l) => /^deno install (-g|--global) /.test(l));
  if (line === undefined) throw new Error("docs/install.md has no `deno install -g` line");
  const words = line.trim().split(/\s+/);
  if (words.some((w) => w === "-A" || w === "--allow-all")) {
    throw new Error("The install line of docs/install.md grants -A");
  }
  return words;
}

/** The members in the order `deno publish` must publish them: each after its imports. */
const DEPENDS: Record<string, string[]> = {
  "@agent/hub": ["@agent/net"],
  "@agent/spine": ["@agent/net"],
  "@agent/universe": ["@agent/net"],
  "@agent/kit": ["@agent/net"],
  "@agent/cli": ["@agent/hub", "@agent/kit", "@agent/net"],
};

const TEST_FILE = /(_test\.tsx?|\/_testing\.ts)$|\/testdata\//;

/** Variables of this machine that reaching npm may need (certificates, proxies). */
const NETWORK_VARS = [
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "NPM_CONFIG_REGISTRY",
];

async function command(
  program: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; clearEnv?: boolean },
): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(program, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv ?? false,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, output: decoder.decode(out.stdout) + decoder.decode(out.stderr) };
}

/** The published CLI installed as a new user would: its shim and the environment to run it. */
export interface InstalledCli {
  /** `<HOME>/.deno/bin/agent`. */
  shim: string;
  /** The `--config` the install wrote into the shim. */
  config: string;
  /** PATH, HOME, DENO_DIR, JSR_URL and the machine's network variables. */
  env: Record<string, string>;
  /** An empty folder with no checkout. */
  cwd: string;
}

/**
 * One `deno publish` of the workspace to `registry`; checks every member went, each
 * after its imports, and no test file. Returns a summary line.
 */
export async function publishAll(registry: JsrRegistry, token: string): Promise<string> {
  const publish = await command(Deno.execPath(), [
    "publish",
    "--token",
    token,
    "--no-provenance",
    "--allow-dirty",
  ], { cwd: ROOT, env: { JSR_URL: registry.url, NO_COLOR: "1" } });
  if (publish.code !== 0) {
    throw new Error(`deno publish failed (exit ${publish.code}): ${publish.output.trim()}`);
  }
  const order = registry.published.map((p) => p.name);
  const members = await workspaceMembers();
  if ([...order].sort().join() !== [...members].sort().join()) {
    throw new Error(`deno publish published ${order.join(", ")}; the members are ${members}`);
  }
  for (const [name, deps] of Object.entries(DEPENDS)) {
    for (const dep of deps) {
      if (order.indexOf(dep) > order.indexOf(name)) {
        throw new Error(`${name} was published before ${dep}: ${order.join(", ")}`);
      }
    }
  }
  for (const version of registry.published) {
    const tests = [...version.files.keys()].filter((f) => TEST_FILE.test(f));
    if (tests.length > 0) throw new Error(`${version.name} publishes ${tests.join(", ")}`);
  }
  const files = registry.published.reduce((n, p) => n + p.files.size, 0);
  return `published ${order.join(", ")} (${files} files, no test file)`;
}

/**
 * Installs the CLI from `registry` with the install line of `docs/install.md` into
 * `work` (a fresh HOME and DENO_DIR, an empty working folder). With `checkAge`, first
 * checks that the line refuses a version younger than Deno's minimum dependency age.
 */
export async function installCli(
  registry: JsrRegistry,
  work: string,
  options: { checkAge?: boolean } = {},
): Promise<InstalledCli> {
  const home = `${work}/home`;
  const cwd = `${work}/empty`;
  for (const dir of [home, cwd, `${work}/deno`]) await Deno.mkdir(dir, { recursive: true });
  const denoDir = Deno.execPath().replace(/\/[^/]*$/, "");
  const env: Record<string, string> = {
    PATH: `${home}/.deno/bin:${denoDir}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    DENO_DIR: `${work}/deno`,
    JSR_URL: registry.url,
    NO_COLOR: "1",
    ...tmpdirEnv(),
  };
  for (const name of NETWORK_VARS) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const [deno, ...line] = await installLine();
  if (options.checkAge) {
    const refused = await command(deno!, line, { cwd, env, clearEnv: true });
    if (refused.code === 0 || !refused.output.includes("minimum dependency")) {
      throw new Error(
        `the install line took a version minutes old (exit ${refused.code}): ${refused.output}`,
      );
    }
  }
  const installed = await command(
    deno!,
    [...line.slice(0, -1), "--minimum-dependency-age=0", line.at(-1)!],
    { cwd, env, clearEnv: true },
  );
  if (installed.code !== 0) {
    throw new Error(`the install failed (exit ${installed.code}): ${installed.output.trim()}`);
  }
  const shim = `${home}/.deno/bin/agent`;
  const shimText = await Deno.readTextFile(shim);
  const config = shimText.match(/--config '?([^' ]+)'?/)?.[1];
  if (config === undefined) throw new Error(`the install's shim names no config:\n${shimText}`);
  return { shim, config, env, cwd };
}

/** Runs the check; returns the exit code. */
export async function releaseCheck(log: (line: string) => void = console.log): Promise<number> {
  const token = crypto.randomUUID();
  const registry = startJsrRegistry({ token });
  const work = await Deno.makeTempDir({ prefix: "agent-release-check-" });
  try {
    let start = performance.now();
    log(`ok ${await publishAll(registry, token)} (${Math.round(performance.now() - start)} ms)`);
    start = performance.now();
    const cli = await installCli(registry, work, { checkAge: true });
    log("ok the install line refuses a version younger than 24 hours");
    log(
      `ok installed ${(await installLine()).at(-1)} (${Math.round(performance.now() - start)} ms)`,
    );
    await checkCommandList({
      command: [cli.shim],
      env: cli.env,
      cwd: cli.cwd,
      unitHolds: [
        "--unstable-lazy-dynamic-imports",
        `--config ${cli.config}`,
        `Environment=JSR_URL=${registry.url}`,
      ],
    }, { log });
    log("release check: every step passed");
    return 0;
  } catch (error) {
    console.error(`release check failed: ${error instanceof Error ? error.message : error}`);
    return 1;
  } finally {
    await registry.close();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

async function workspaceMembers(): Promise<string[]> {
  const root = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const names: string[] = [];
  for (const dir of root.workspace as string[]) {
    names.push(JSON.parse(await Deno.readTextFile(`${ROOT}${dir}/deno.json`)).name);
  }
  return names;
}

if (import.meta.main) Deno.exit(await releaseCheck());
