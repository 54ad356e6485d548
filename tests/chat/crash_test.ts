import { RUN_FLAGS } from "../_agent_flags.ts";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { FileSessionStore } from "@agent/hub";
import { startVendorServer } from "../_vendor_server.ts";
import { agent, makeHome } from "./_run.ts";
import { tmpdirEnv } from "../_temp_dir.ts";
import { until } from "../_poll.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("agent chat killed with SIGKILL mid-turn keeps the session readable, every message typed and the ledger rows", async () => {
  const server = startVendorServer({ reply: "Answer." });
  const home = makeHome(`[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-test"
[models.roles.brain.params]
base_url = "${server.url}/v1"
[models.roles.brain.budget]
usd = 5
period = "month"
`);
  const env = { VENDOR_B_API_KEY: "k" };
  try {
    const first = await agent(["chat", "--session", "s1"], { home, env, stdin: "first\n" });
    assert.equal(first.stdout, "Answer.\n", first.stderr);

    // The second turn's provider answer never comes: kill the process while it waits.
    server.script.push({ delayMs: 3000 });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...RUN_FLAGS, `${ROOT}cli/main.ts`, "chat", "--session", "s1"],
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/tmp",
        AGENT_HOME: home,
        ...tmpdirEnv(),
        ...env,
      },
      clearEnv: true,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("second\n"));
    const posts = () => server.requests.filter((r) => r.method === "POST").length;
    await until("the second turn reaches the provider", () => posts() === 2);
    child.kill("SIGKILL");
    assert.equal((await child.status).signal, "SIGKILL");
    await writer.close().catch(() => {});

    const store = new FileSessionStore(`${home}/data/sessions`);
    const messages = await store.listMessages("s1", "main") as { message: { role: string } }[];
    // Earlier messages intact, and what was typed before the crash kept too.
    assert.deepEqual(messages.map((m) => m.message.role), ["user", "assistant", "user"]);
    const db = new DatabaseSync(`${home}/data/spend.sqlite3`, { readOnly: true });
    try {
      assert.equal((db.prepare("SELECT COUNT(*) AS n FROM calls").get() as { n: number }).n, 1);
    } finally {
      db.close();
    }

    const third = await agent(["chat", "--session", "s1"], { home, env, stdin: "third\n" });
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stdout, "Answer.\n");
    const after = await store.listMessages("s1", "main") as { message: { role: string } }[];
    assert.deepEqual(after.map((m) => m.message.role), [
      "user",
      "assistant",
      "user",
      "user",
      "assistant",
    ]);
    // The unanswered message reaches the model joined with the next one.
    const last = server.requests.filter((r) => r.method === "POST").at(-1)!;
    const sent = (last.body!.messages as { role: string; content: string }[])
      .filter((m) => m.role !== "system");
    assert.deepEqual(sent, [
      { role: "user", content: "first" },
      { role: "assistant", content: "Answer." },
      { role: "user", content: "second\n\nthird" },
    ]);
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
});
