import { RUN_FLAGS } from "../_agent_flags.ts";
import { tmpdirEnv } from "../_temp_dir.ts";
/**
 * Runs the real `agent` command as a subprocess with piped stdin, for chat tests.
 *
 * @module
 */

const ROOT = new URL("../../", import.meta.url).pathname;

/** What a run printed and how it ended. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh agent home with `agent.toml` from `toml` and a persona. */
export function makeHome(toml: string): string {
  const home = Deno.makeTempDirSync({ prefix: "agent-chat-" });
  Deno.writeTextFileSync(`${home}/agent.toml`, toml);
  Deno.mkdirSync(`${home}/persona`);
  Deno.writeTextFileSync(`${home}/persona/persona.md`, "You are a test agent.\n");
  Deno.writeTextFileSync(`${home}/persona/user.md`, "The owner tests things.\n");
  return home;
}

/** Runs `agent <args>` with `stdin` piped in, in a clean environment plus `env`. */
export async function agent(
  args: string[],
  options: { home: string; stdin?: string; env?: Record<string, string> },
): Promise<RunResult> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    AGENT_HOME: options.home,
    NO_COLOR: "1",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    ...tmpdirEnv(),
    ...(options.env ?? {}),
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...RUN_FLAGS, `${ROOT}cli/main.ts`, ...args],
    cwd: ROOT,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** A config with one fake `brain` answering `replies` in turn (budgeted, so metered). */
export function fakeConfig(replies: string[] = []): string {
  return `[models.roles.brain]
provider = "fake"
model_id = "fake-brain"
max_tokens = 4096
[models.roles.brain.params]
replies = ${JSON.stringify(replies)}
[models.roles.brain.budget]
usd = 15
period = "month"

[models.roles.fast]
provider = "fake"
model_id = "fake-fast"
[models.roles.fast.params]
replies = ["Fast here."]
`;
}
