/**
 * The commands the suite (and a person) run most start on what they use (issue 35's
 * benchmark: the suite's processor time is mostly `deno` children starting). Each test
 * follows the static imports of a command's path, from one `deno info` of the CLI, and
 * fails when a heavy package or the whole desk comes back into it.
 */
import assert from "node:assert/strict";
import { moduleGraph, packageOf, staticImports } from "../_static_graph.ts";

const graph = await moduleGraph("cli/main.ts");

/**
 * What of `files`' static graphs `heavy` matches: our modules by their path, npm
 * packages by their name (`zod`).
 */
function reached(files: string[], heavy: RegExp): string[] {
  const found = new Set<string>();
  for (const file of files) {
    for (const specifier of staticImports(graph, file)) {
      const name = packageOf(specifier);
      if (name === undefined ? heavy.test(specifier) : heavy.test(name)) {
        found.add(`${file} -> ${name ?? specifier}`);
      }
    }
  }
  return [...found];
}

const ZOD = /^zod$/;
const DESK = /\/hub\/desk\/desk\.ts$/;
const CHANNEL_PACKAGES =
  /^(grammy|imapflow|nodemailer|mailparser|@modelcontextprotocol\/sdk|@ai-sdk\/(anthropic|openai|google|amazon-bedrock|openai-compatible))$/;

Deno.test("agent doctor reads the component registry without zod (only a listed module's manifest needs it)", () => {
  assert.deepEqual(reached(["cli/commands/doctor.ts", "hub/app/doctor.ts"], ZOD), []);
});

Deno.test("agent jobs list, add and log start on a jobs door without the desk or zod", () => {
  assert.deepEqual(reached(["cli/commands/jobs.ts", "hub/jobs/mod.ts"], ZOD), []);
  assert.deepEqual(reached(["hub/jobs/mod.ts"], DESK), []);
});

Deno.test("agent chat refuses a role, a session or a missing key before the desk, the call chain or zod load", () => {
  const path = ["cli/commands/chat.ts", "hub/chat.ts", "hub/app/terminal_chat.ts"];
  assert.deepEqual(reached(path, ZOD), []);
  assert.deepEqual(reached(path, DESK), []);
  assert.deepEqual(reached(path, /\/hub\/router\/call\.ts$/), []);
});

Deno.test("agent hub run and cloud run load neither the TOML parser nor a channel's or provider's package", () => {
  const path = ["cli/commands/hub.ts", "cli/commands/cloud.ts", "hub/run.ts"];
  assert.deepEqual(reached(path, /^smol-toml$/), []);
  assert.deepEqual(reached(path, CHANNEL_PACKAGES), []);
  // The light door is the hub that runs, not the whole hub.
  assert.deepEqual(reached(path, /\/hub\/mod\.ts$/), []);
});

Deno.test("agent tui opens its conversation without the dashboard, the hub's start or the channels", () => {
  const path = ["cli/tui/controller.ts", "cli/tui/hub_watch.ts", "hub/desk.ts"];
  assert.deepEqual(reached(path, /\/hub\/(dashboard|channels)\/|\/hub\/app\/start\.ts$/), []);
  assert.deepEqual(reached(path, /\/hub\/mod\.ts$|^smol-toml$/), []);
});
