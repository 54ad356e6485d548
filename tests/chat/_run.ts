/**
 * Runs the real `agent` command with piped stdin, for chat tests: `agent()` of
 * `tests/cli/_run.ts` (in this process unless the run needs its own), with the home in
 * `AGENT_HOME` and this process's HOME.
 *
 * @module
 */
import { agent as run, type RunResult } from "../cli/_run.ts";

export type { RunResult };

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
export function agent(
  args: string[],
  options: { home: string; stdin?: string; env?: Record<string, string> },
): Promise<RunResult> {
  return run(args, {
    env: { HOME: Deno.env.get("HOME") ?? "/tmp", AGENT_HOME: options.home, ...options.env },
    stdin: options.stdin ?? "",
  });
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
