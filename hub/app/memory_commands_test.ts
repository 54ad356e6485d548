import assert from "node:assert/strict";
import { Logger } from "../log.ts";
import { Desk } from "../desk/mod.ts";
import { jobHome } from "../jobs/_testing.ts";
import { SqliteMemoryStore } from "../memory/mod.ts";
import { appCommands } from "./desk_commands.ts";

/** A desk with the app's commands and a memory store on a fresh home. */
async function memoryDesk(lang: "en" | "tr" = "en") {
  const home = await jobHome();
  const store = new SqliteMemoryStore(home.paths.memoryFile);
  const desk = new Desk({
    config: home.ctx.config,
    env: {},
    paths: home.paths,
    lang,
    logger: new Logger({ stderr: "off" }),
    ledger: home.ledger,
    tools: [],
    commands: appCommands(),
    memory: store,
  });
  return {
    store,
    desk,
    async close() {
      await desk.close();
      store.close();
      await home.close();
    },
  };
}

/** What `line` answered in `conversation`, as one text. */
async function said(conversation: Awaited<ReturnType<Desk["open"]>>, line: string) {
  const outcome = await conversation.submit(line);
  assert.equal(outcome.kind, "command", line);
  return outcome.kind === "command" ? outcome.outcome.lines.join("\n") : "";
}

Deno.test("/remember, /memory and /forget in the owner's conversation: in force at once, deleted for good", async () => {
  const m = await memoryDesk();
  try {
    const chat = await m.desk.open("chat");
    assert.match(
      await said(chat, "/remember Prefers green tea"),
      /^Remembered as memory \d+ \(owner\)\.$/,
    );
    const [kept] = await m.store.list(["owner"]);
    assert.equal(kept?.text, "Prefers green tea");
    assert.equal(kept?.source, "owner");
    assert.match(await said(chat, "/memory tea"), /Prefers green tea/);
    assert.equal(await said(chat, "/remember   "), "Usage: /remember TEXT");
    assert.equal(
      await said(chat, "/forget twelve"),
      "'twelve' is not a memory id (a whole number such as 12).",
    );
    assert.equal(await said(chat, `/forget ${kept!.id}`), `Forgot 1: #${kept!.id}.`);
    assert.equal((await m.store.list("every")).length, 0);
    assert.ok((await said(chat, "/memory")).startsWith("No memories."));
  } finally {
    await m.close();
  }
});

Deno.test("/remember in another person's conversation waits for the owner; the owner approves it with /memory", async () => {
  const m = await memoryDesk();
  try {
    await m.store.add({ scope: "owner", text: "zqowner secret plan", source: "owner" });
    const bob = await m.desk.open("email:<t@example.org>", { person: "person:bob@example.org" });
    assert.match(
      await said(bob, "/remember Bob likes jazz"),
      /^Memory \d+ waits for the owner's approval/,
    );
    // Another person never sees the owner's memories, forgets nothing, decides nothing.
    assert.ok(!(await said(bob, "/memory")).includes("zqowner"));
    assert.ok(!(await said(bob, "/memory plan")).includes("zqowner"));
    assert.equal(
      await said(bob, "/forget 1"),
      "Only the owner can do that, in the owner's own conversations.",
    );
    assert.equal(
      await said(bob, "/memory pending"),
      "Only the owner can do that, in the owner's own conversations.",
    );
    assert.equal((await m.store.list("every")).length, 2);
    const chat = await m.desk.open("chat");
    const [waiting] = await m.store.list("every", { status: "pending" });
    assert.equal(waiting?.scope, "person:bob@example.org");
    assert.match(await said(chat, "/memory pending"), /Bob likes jazz/);
    assert.equal(
      await said(chat, "/memory approve"),
      "Usage: /memory approve ID [TEXT] or /memory reject ID",
    );
    assert.match(await said(chat, `/memory approve ${waiting!.id} Bob loves jazz`), /\d+/);
    const [approved] = await m.store.list(["person:bob@example.org"]);
    assert.equal(approved?.text, "Bob loves jazz");
    assert.equal(approved?.status, "active");
  } finally {
    await m.close();
  }
});

Deno.test("the memory commands without memory, and in Turkish", async () => {
  const m = await memoryDesk("tr");
  try {
    const chat = await m.desk.open("chat");
    assert.equal(await said(chat, "/remember"), "Kullanım: /remember METİN");
    const help = await said(chat, "/help");
    assert.ok(help.includes("/remember") && help.includes("/forget") && help.includes("/memory"));
  } finally {
    await m.close();
  }
  const home = await jobHome();
  const desk = new Desk({
    config: home.ctx.config,
    env: {},
    paths: home.paths,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    ledger: home.ledger,
    tools: [],
    commands: appCommands(),
  });
  try {
    const chat = await desk.open("chat");
    assert.equal(await said(chat, "/memory"), "There is no memory in this conversation.");
  } finally {
    await desk.close();
    await home.close();
  }
});
