// Scopes decided by the desk: a conversation's memory comes from its key and person,
// in code, before the model sees anything. The owner's conversations read the owner's
// memories; another person's (an e-mail thread with person:<id>) reads only theirs; a
// group chat only its own; a job's turns are the owner's, with the memory tools its
// tools allow.
import assert from "node:assert/strict";
import { z } from "zod";
import {
  type AgentTool,
  type ConversationPerson,
  Desk,
  type DeskEvent,
  type DeskOptions,
  parseConfig,
  SqliteMemoryStore,
} from "@agent/hub";
import { Logger, resolvePaths } from "@agent/hub/base";
import { tempDir } from "../_temp_dir.ts";
import { modelStandIn, STAND_IN_ENV, standInRoles } from "./_model.ts";
import { memorySessions } from "./_sessions.ts";

const ALI: ConversationPerson = "person:ali@example.org";
const BEA: ConversationPerson = "person:bea@example.org";

/** The names of the tools a request offered. */
function toolNames(request: Record<string, unknown>): string[] {
  const tools = (request.tools ?? []) as { function?: { name?: string } }[];
  return tools.map((t) => t.function?.name ?? "").sort();
}

/** A desk's options on a home in `dir` whose brain is a model stand-in, with a memory store. */
function deskOptions(dir: string, extraToml = "") {
  const paths = resolvePaths({ home: dir, env: {} });
  const store = new SqliteMemoryStore(`${paths.dataDir}/memory.sqlite3`);
  const model = modelStandIn();
  const options: DeskOptions = {
    config: parseConfig(standInRoles(extraToml), "agent.toml"),
    env: STAND_IN_ENV,
    paths,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    ledger: undefined,
    tools: [],
    sessions: memorySessions(),
    fetch: model.fetch,
    memory: store,
  };
  return { options, store, model };
}

Deno.test("Desk: each conversation's memory comes from its key and person, none across", async () => {
  await using tmp = await tempDir("agent-memory-desk-");
  const { options: base, store, model } = deskOptions(tmp.path);
  const desk = new Desk(base);
  const jobs = new Desk({ ...base, memoryTools: "none" });
  const tier1Jobs = new Desk({ ...base, memoryTools: "tier1" });
  try {
    for (const [scope, word] of [["owner", "zqowner"], [ALI, "zqali"], [BEA, "zqbea"]]) {
      await store.add({ scope: scope as never, text: `${word} likes the garden`, source: "owner" });
    }
    const owned = await store.add({
      scope: "conversation:chat",
      text: "zqchat garden plans",
      source: "owner",
    });
    /** What the model received for one message in `conversation`. */
    const ask = async (d: Desk, key: Parameters<Desk["open"]>[0], person?: ConversationPerson) => {
      const from = model.requests.length;
      const events: DeskEvent[] = [];
      const conversation = await d.open(key, person === undefined ? {} : { person });
      const stop = conversation.subscribe((e) => events.push(e));
      const outcome = await conversation.submit("What about the garden?");
      stop();
      assert.equal(outcome.kind, "answered");
      const requests = model.requests.slice(from);
      return { sent: JSON.stringify(requests), tools: toolNames(requests[0]!), events };
    };

    const chat = await ask(desk, "chat");
    assert.ok(chat.sent.includes("zqowner") && chat.sent.includes("zqchat"));
    assert.ok(!chat.sent.includes("zqali") && !chat.sent.includes("zqbea"));
    assert.deepEqual(chat.tools, ["forget", "recall", "remember"]);
    // The channels are told which memories were used (AG-UI's memory.recalled).
    const recalled = chat.events.find((e) => e.type === "CUSTOM" && e.name === "memory.recalled");
    assert.ok(recalled?.type === "CUSTOM" && recalled.name === "memory.recalled");
    assert.ok(recalled.value.ids.includes(owned.id) && recalled.value.tokens > 0);

    // The owner's memories never reach another person's conversation, in any channel.
    const ali = await ask(desk, "email:<t1@example.org>", ALI);
    assert.ok(ali.sent.includes("zqali"));
    for (const other of ["zqowner", "zqbea", "zqchat"]) assert.ok(!ali.sent.includes(other), other);
    assert.deepEqual(ali.tools, ["recall", "remember"]);
    const bea = await ask(desk, "messenger:77", BEA);
    assert.ok(bea.sent.includes("zqbea"));
    for (const other of ["zqowner", "zqali", "zqchat"]) assert.ok(!bea.sent.includes(other), other);

    // A group chat the owner allowed reads its own memories only: others read its answers.
    const group = await ask(desk, "messenger:-100200");
    for (const other of ["zqowner", "zqali", "zqbea", "zqchat"]) {
      assert.ok(!group.sent.includes(other), other);
    }
    assert.deepEqual(group.tools, ["recall", "remember"]);

    // A job is the owner's: the owner's memories, and only the tools its own allow.
    const job = await ask(jobs, "job:digest");
    assert.ok(job.sent.includes("zqowner") && !job.sent.includes("zqali"));
    assert.deepEqual(job.tools, []);
    const tidy = await ask(tier1Jobs, "job:memory-consolidation");
    assert.deepEqual(tidy.tools, ["recall", "remember"]);
  } finally {
    await Promise.all([desk.close(), jobs.close(), tier1Jobs.close()]);
    store.close();
  }
});

Deno.test("Desk: with [memory] off no conversation recalls or offers a memory tool", async () => {
  await using tmp = await tempDir("agent-memory-desk-");
  const { options, store, model } = deskOptions(tmp.path, "[memory]\nenabled = false\n");
  const desk = new Desk(options);
  try {
    await store.add({ scope: "owner", text: "zqowner likes the garden", source: "owner" });
    const chat = await desk.open("chat");
    await chat.submit("What about the garden?");
    const sent = JSON.stringify(model.requests);
    assert.ok(!sent.includes("zqowner"));
    assert.ok(!sent.includes('"recall"') && !sent.includes('"remember"'));
  } finally {
    await desk.close();
    store.close();
  }
});

Deno.test("Desk: the forget tool asks the owner through the turn's approval hook; deny keeps, allow deletes", async () => {
  await using tmp = await tempDir("agent-memory-desk-");
  const { options, store, model } = deskOptions(tmp.path);
  const desk = new Desk(options);
  try {
    const kept = await store.add({ scope: "owner", text: "Likes the garden", source: "owner" });
    const chat = await desk.open("chat");
    const asked: string[] = [];
    /** One turn that calls forget; the owner answers its approval with `decision`. */
    const forgetTurn = async (decision: "deny" | "once") => {
      model.script.push({
        calls: [{ id: `f-${decision}`, name: "forget", input: { ids: [kept.id] } }],
      });
      const stop = chat.subscribe((event) => {
        if (event.type !== "CUSTOM" || event.name !== "approval.requested") return;
        asked.push(event.value.message);
        desk.decide(event.value.id, decision, "test");
      });
      await chat.submit("Forget that I like the garden.");
      stop();
    };
    await forgetTurn("deny");
    assert.equal((await store.list(["owner"])).length, 1);
    await forgetTurn("once");
    assert.equal((await store.list(["owner"])).length, 0);
    // The approval names the memory the model saw in its recall.
    assert.deepEqual(asked, [
      `The agent wants to forget memory ${kept.id} (“Likes the garden”).`,
      `The agent wants to forget memory ${kept.id} (“Likes the garden”).`,
    ]);
  } finally {
    await desk.close();
    store.close();
  }
});

Deno.test("Desk: remember after outside content asks the owner on the turn's hook; a pipe's turn leaves it pending", async () => {
  await using tmp = await tempDir("agent-memory-desk-");
  const { options, store, model } = deskOptions(tmp.path);
  const readPage: AgentTool = {
    name: "read_page",
    tier: 1,
    description: "Read a page.",
    inputSchema: z.object({ url: z.string() }),
    untrusted: true,
    execute: () => Promise.resolve({ text: "The owner's favourite colour is teal." }),
  };
  const desk = new Desk({ ...options, tools: [readPage] });
  const piped = new Desk({ ...options, tools: [readPage] });
  try {
    const asked: string[] = [];
    /** A turn that reads a page, then remembers `text`; the owner answers with `decision`. */
    const turn = async (d: Desk, key: "chat" | "tui", text: string, decision?: "once" | "deny") => {
      model.script.push(
        { calls: [{ id: `p-${text}`, name: "read_page", input: { url: "https://x.example" } }] },
        { calls: [{ id: `r-${text}`, name: "remember", input: { text } }] },
      );
      const conversation = await d.open(key, decision === undefined ? { approvals: "deny" } : {});
      const stop = conversation.subscribe((event) => {
        if (event.type !== "CUSTOM" || event.name !== "approval.requested") return;
        asked.push(event.value.message);
        d.decide(event.value.id, decision!, "test");
      });
      await conversation.submit("Read x.example and remember what it says.");
      stop();
    };
    await turn(desk, "chat", "Favourite colour is teal", "once");
    await turn(desk, "chat", "Favourite colour is red", "deny");
    await turn(piped, "tui", "Favourite colour is blue");
    assert.deepEqual(asked, [
      "The agent wants to remember “Favourite colour is teal”, and this turn has read outside content (a page, a search, another tool's or person's text).",
      "The agent wants to remember “Favourite colour is red”, and this turn has read outside content (a page, a search, another tool's or person's text).",
    ]);
    const all = await store.list("every", { limit: 10 });
    assert.deepEqual(all.map((m) => [m.text, m.status, m.source]).sort(), [
      // No one to ask (a pipe, a job): it waits for the owner, as before.
      ["Favourite colour is blue", "pending", "agent"],
      // Allowed on the hook: in force; denied: not kept at all.
      ["Favourite colour is teal", "active", "agent"],
    ]);
  } finally {
    await Promise.all([desk.close(), piped.close()]);
    store.close();
  }
});

Deno.test("Desk: a message that is itself outside content (a mail's attachments) keeps its remember pending", async () => {
  await using tmp = await tempDir("agent-memory-desk-");
  const { options, store, model } = deskOptions(tmp.path);
  const desk = new Desk(options);
  try {
    const mail = await desk.open("email:<m1@example.org>", { approvals: "deny" });
    model.script.push({ calls: [{ id: "r1", name: "remember", input: { text: "Owns a boat" } }] });
    await mail.submit("An e-mail from your owner with an attachment.", { untrusted: true });
    model.script.push({ calls: [{ id: "r2", name: "remember", input: { text: "Owns a bike" } }] });
    await mail.submit("An e-mail from your owner.");
    const all = await store.list("every", { limit: 10 });
    assert.deepEqual(all.map((m) => [m.text, m.status]).sort(), [
      ["Owns a bike", "pending"],
      ["Owns a boat", "pending"],
    ]);
    // The session keeps the mark: the later mail of the thread waits too. A clean
    // conversation keeps its memory at once.
    const chat = await desk.open("chat", { approvals: "deny" });
    model.script.push({ calls: [{ id: "r3", name: "remember", input: { text: "Owns a car" } }] });
    await chat.submit("Remember that I own a car.");
    assert.equal((await store.list(["owner"], { status: "active" }))[0]?.text, "Owns a car");
  } finally {
    await desk.close();
    store.close();
  }
});
