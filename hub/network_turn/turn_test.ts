import assert from "node:assert/strict";
import { parseConfig } from "../config/parse.ts";
import type { AgentConfig } from "../config/types.ts";
import { Logger } from "../log.ts";
import { type AgentPaths, resolvePaths } from "../paths.ts";
import { loadSubAgentDirectory } from "../subs/mod.ts";
import { type AgentRequest, networkTurn, type TurnDeps } from "./turn.ts";
import { tempDir } from "../../tests/_temp_dir.ts";
import type { NetLogEntry, TurnInput, TurnOutcome } from "../network/turn_types.ts";

function reason(outcome: TurnOutcome): string | undefined {
  return outcome.kind === "skip" ? outcome.reason : undefined;
}

const SECRET = "OWNER-SECRET-7c1f: the owner's bank PIN is 4921";
const ME = "me.example";
const BOB = "bob.example";
const IN_ID = "incomingEnvelope01";

/** A home for one test; the test's `using` block removes it. */
interface Home extends Disposable {
  paths: AgentPaths;
  cfg: AgentConfig;
}

async function home(toml = "", net = ""): Promise<Home> {
  const dir = tempDir("agent-turn-");
  const paths = resolvePaths({ home: dir.path, env: {} });
  await Deno.mkdir(`${paths.personaDir}/subs`, { recursive: true });
  await Deno.writeTextFile(`${paths.personaDir}/persona.md`, "You are Ada's agent.");
  await Deno.writeTextFile(`${paths.personaDir}/user.md`, SECRET);
  await Deno.writeTextFile(`${paths.personaDir}/net.md`, "Ada likes chess and lives in Izmir.");
  await Deno.writeTextFile(
    `${paths.personaDir}/subs/chess.md`,
    "---\nabout: Chess openings\nrole: fast\npublic: true\npublic_note: chess-note.md\n---\n" +
      "You explain chess openings.\n",
  );
  await Deno.writeTextFile(`${paths.personaDir}/subs/chess-note.md`, "Ada plays the Sicilian.");
  await Deno.writeTextFile(
    `${paths.personaDir}/subs/diary.md`,
    "---\nabout: Diary\npublic: false\n---\nYou keep the diary.\n",
  );
  const roles = toml || `
[models.roles.brain]
provider = "fake"
model_id = "fake-brain"
[models.roles.fast]
provider = "fake"
model_id = "fake-fast"
`;
  return {
    paths,
    cfg: parseConfig(`${roles}\n[net]\n${net}\n`, "agent.toml"),
    [Symbol.dispose]: () => dir[Symbol.dispose](),
  };
}

/** A model seam that counts calls and answers `answer`. */
function counting(answer = "Hello Bob.") {
  const calls: AgentRequest[] = [];
  return {
    calls,
    run(request: AgentRequest) {
      calls.push(request);
      return Promise.resolve(answer);
    },
  };
}

function deps(h: Home, extra: Partial<TurnDeps> = {}): TurnDeps {
  return {
    config: h.cfg,
    env: {},
    paths: h.paths,
    subs: loadSubAgentDirectory(h.cfg, h.paths),
    autoRepliesLastHour: () => 0,
    logger: new Logger({ file: `${h.paths.dataDir}/logs/agent.log`, stderr: "off" }),
    ...extra,
  };
}

function input(extra: Partial<TurnInput> & { hops?: number } = {}): TurnInput {
  const { hops, ...rest } = extra;
  return {
    ownAddress: ME,
    contact: { address: BOB, name: "Bob" },
    envelope: { id: IN_ID, thread: "threadRoot000001", hops: hops ?? 0, from: BOB },
    text: "Hi Ada's agent, do you play chess?",
    history: [],
    sessionId: "s-bob",
    ...rest,
  };
}

Deno.test("networkTurn() replies in the same thread with hops + 1 and a deterministic id", async () => {
  using h = await home();
  const model = counting("  Hello Bob, yes.  ");
  const d = deps(h, { runAgent: model.run });
  const first = await networkTurn(d, input({ hops: 2 }));
  const again = await networkTurn(d, input({ hops: 2 }));
  assert.equal(first.kind, "reply");
  assert.deepEqual(first, again, "re-handling gives the same reply id");
  if (first.kind !== "reply") return;
  assert.equal(first.text, "Hello Bob, yes.");
  assert.equal(first.thread, "threadRoot000001");
  assert.equal(first.reply_to, IN_ID);
  assert.equal(first.hops, 3);
  assert.equal(first.sub, undefined);
  assert.match(first.replyId, /^[A-Za-z0-9_-]{16,64}$/);
  const call = model.calls[0]!;
  assert.equal(call.role, "brain");
  assert.equal(call.sessionId, "s-bob");
  assert.equal(call.peer, BOB);
  assert.deepEqual(call.persona, {
    personaFile: `${h.paths.personaDir}/persona.md`,
    publicNoteFile: `${h.paths.personaDir}/net.md`,
  });
  assert.deepEqual(call.meta, { title: "agent network · Bob", peer: BOB });
  // The session keeps the exchange once per envelope (issue 27 S3).
  assert.equal(call.turnKey, IN_ID);
});

Deno.test("networkTurn() sends nothing for [no reply] or an empty answer", async () => {
  using h = await home();
  for (const [answer, reason] of [["'[No Reply]'", "no_reply"], [" \n ", "empty"]] as const) {
    const model = counting(answer);
    assert.deepEqual(await networkTurn(deps(h, { runAgent: model.run }), input()), {
      kind: "skip",
      reason,
    });
    assert.equal(model.calls.length, 1);
  }
});

Deno.test("networkTurn() cuts a reply to the 8 000-character message limit", async () => {
  using h = await home();
  const model = counting("é".repeat(9000));
  const out = await networkTurn(deps(h, { runAgent: model.run }), input());
  assert.equal(out.kind === "reply" && Array.from(out.text).length, 8000);
});

Deno.test("networkTurn() checks auto_reply, max_hops and the hourly limit without the model", async () => {
  using off = await home("", "auto_reply = false");
  let model = counting();
  assert.deepEqual(await networkTurn(deps(off, { runAgent: model.run }), input()), {
    kind: "skip",
    reason: "auto_reply_off",
  });
  assert.equal(model.calls.length, 0);

  using h = await home(
    "",
    'max_hops = 4\nmax_auto_replies_per_hour = 3\nanswer_replies = "always"',
  );
  model = counting();
  // hops 3: the reply has hops 4, not above max_hops.
  assert.equal(
    (await networkTurn(deps(h, { runAgent: model.run }), input({ hops: 3 }))).kind,
    "reply",
  );
  assert.equal(model.calls.length, 1);
  model = counting();
  assert.deepEqual(await networkTurn(deps(h, { runAgent: model.run }), input({ hops: 4 })), {
    kind: "skip",
    reason: "max_hops",
  });
  assert.equal(model.calls.length, 0);

  const asked: string[] = [];
  const limited = deps(h, {
    runAgent: model.run,
    autoRepliesLastHour(address) {
      asked.push(address);
      return 3;
    },
  });
  assert.deepEqual(await networkTurn(limited, input()), { kind: "skip", reason: "rate_limited" });
  assert.deepEqual(asked, [BOB]);
  // The limit counts per contact, sub-agents included.
  assert.deepEqual(await networkTurn(limited, input({ sub: "chess" })), {
    kind: "skip",
    reason: "rate_limited",
  });
  assert.equal(model.calls.length, 0);
  const below = deps(h, { runAgent: model.run, autoRepliesLastHour: () => Promise.resolve(2) });
  assert.equal((await networkTurn(below, input())).kind, "reply");
  assert.equal(model.calls.length, 1);

  using zero = await home("", "max_auto_replies_per_hour = 0");
  model = counting();
  assert.equal(
    reason(await networkTurn(deps(zero, { runAgent: model.run }), input())),
    "rate_limited",
  );
  assert.equal(model.calls.length, 0);
});

Deno.test("networkTurn() answers as a public sub-agent with its persona, note, role and session", async () => {
  using h = await home();
  const model = counting("Try the Sicilian.");
  const keys: string[] = [];
  const log: NetLogEntry[] = [
    { ts: 1, direction: "in", address: BOB, kind: "message", id: "m1", thread: "t", text: "hello" },
    {
      ts: 2,
      direction: "in",
      address: BOB,
      kind: "message",
      id: "m2",
      thread: "t",
      text: "e4 or d4?",
      own_sub: "chess",
    },
    {
      ts: 3,
      direction: "out",
      address: BOB,
      kind: "message",
      id: "m3",
      thread: "t",
      text: "e4.",
      own_sub: "chess",
    },
  ];
  const out = await networkTurn(
    deps(h, { runAgent: model.run }),
    input({
      sub: "chess",
      hops: 2,
      history: log,
      sessionId(key) {
        keys.push(key);
        return `session-for-${key.replace("/", "_")}`;
      },
    }),
  );
  assert.equal(out.kind, "reply");
  if (out.kind !== "reply") return;
  assert.equal(out.sub, "chess");
  assert.equal(out.own_sub, "chess");
  assert.equal(out.hops, 3);
  assert.deepEqual(keys, [`${BOB}/chess`]);
  const call = model.calls[0]!;
  assert.equal(call.role, "fast");
  assert.equal(call.sessionId, `session-for-${BOB}_chess`);
  assert.deepEqual(call.meta, { title: "agent network · Bob · /chess", peer: BOB, sub: "chess" });
  assert.equal(call.persona.publicNoteFile, `${h.paths.personaDir}/subs/chess-note.md`);
  assert.equal(
    await Deno.readTextFile(call.persona.personaFile),
    "You are /chess, a specialist of your owner's agent: Chess openings.\n\nYou explain chess openings.\n",
  );
  assert.equal(
    call.prompt.split("\n")[0],
    `A message for you, /chess, a specialist of your owner's agent, from another agent: Bob at ${BOB}, a contact of your owner.`,
  );
  // Only the sub-agent's own messages are its history.
  assert.match(call.prompt, /<<<BEGIN HISTORY>>>\nin: e4 or d4\?\nout: e4\.\n<<<END HISTORY>>>/);
});

Deno.test("networkTurn() skips an unknown, private or invalid sub-agent without the model", async () => {
  using h = await home();
  const model = counting();
  let sessions = 0;
  const sessionId = () => {
    sessions++;
    return "x";
  };
  for (const sub of ["nobody", "diary", "chess-note", "Bad", "../user"]) {
    assert.deepEqual(
      await networkTurn(deps(h, { runAgent: model.run }), input({ sub, sessionId })),
      { kind: "skip", reason: "no_public_sub", sub },
      sub,
    );
  }
  // No directory at all (a hub without the entry point).
  assert.deepEqual(
    await networkTurn(deps(h, { runAgent: model.run, subs: undefined }), input({ sub: "chess" })),
    { kind: "skip", reason: "no_public_sub", sub: "chess" },
  );
  // A directory that does not guard user.md is checked again.
  const leaky = {
    public: (name: string) => ({
      name,
      about: "x",
      role: "brain",
      persona_file: `${h.paths.personaDir}/user.md`,
      public_note_file: `${h.paths.personaDir}/net.md`,
    }),
    public_subs: () => [],
  };
  assert.equal(
    reason(await networkTurn(deps(h, { runAgent: model.run, subs: leaky }), input({ sub: "spy" }))),
    "no_public_sub",
  );
  // A sub-agent whose persona file is gone, or whose role is not defined, answers no one.
  for (const broken of [{ persona_file: `${h.paths.personaDir}/subs/gone.md` }, { role: "nope" }]) {
    const dir = {
      public: (name: string) => ({
        name,
        about: "x",
        role: "brain",
        persona_file: `${h.paths.personaDir}/subs/chess.md`,
        public_note_file: `${h.paths.personaDir}/net.md`,
        ...broken,
      }),
      public_subs: () => [],
    };
    assert.equal(
      reason(await networkTurn(deps(h, { runAgent: model.run, subs: dir }), input({ sub: "x1" }))),
      "no_public_sub",
    );
  }
  // The sub-agent check comes before auto_reply: the message is dropped, not logged.
  using off = await home("", "auto_reply = false");
  assert.equal(
    reason(await networkTurn(deps(off, { runAgent: model.run }), input({ sub: "nobody" }))),
    "no_public_sub",
  );
  assert.equal(model.calls.length, 0);
  assert.equal(sessions, 0);
});

Deno.test("networkTurn() hands an answer from the peer's sub-agent (odd hops) to the main agent", async () => {
  using h = await home();
  const model = counting("Thanks, noted.");
  const out = await networkTurn(
    deps(h, { runAgent: model.run }),
    input({ sub: "openings", hops: 1, text: "Play e4. Shall I say why?" }),
  );
  assert.equal(out.kind, "reply");
  if (out.kind !== "reply") return;
  assert.equal(out.sub, "openings");
  assert.equal(out.peer_sub, "openings");
  assert.equal(out.own_sub, undefined);
  assert.equal(out.hops, 2);
  const call = model.calls[0]!;
  assert.equal(call.role, "brain");
  assert.equal(call.sessionId, "s-bob");
  assert.equal(
    call.prompt.split("\n")[0],
    `A message from another agent: Bob at ${BOB}/openings, a contact of your owner.`,
  );
});

Deno.test("networkTurn() answers a reply only when it asks something, and never past hop 3", async () => {
  using h = await home();
  const model = counting("Sure. And you?");
  const d = deps(h, { runAgent: model.run });
  // A first message is answered, question or not.
  assert.equal((await networkTurn(d, input({ hops: 0, text: "Hello." }))).kind, "reply");
  // A reply that asks nothing ends the conversation, without the model.
  for (const text of ["Okay.", "Thanks, noted.", "Tamam, teşekkürler."]) {
    assert.equal(reason(await networkTurn(d, input({ hops: 1, text }))), "settled");
  }
  assert.equal(model.calls.length, 1);
  for (const text of ["And you?", "Sen de oynuyor musun?", "你呢\uFF1F"]) {
    assert.equal((await networkTurn(d, input({ hops: 2, text }))).kind, "reply", text);
  }
  // The fourth envelope (hops 3) is the last one: asked or not, it gets no answer.
  assert.equal(reason(await networkTurn(d, input({ hops: 3, text: "And you?" }))), "settled");
  assert.equal(model.calls.length, 4);

  using always = await home("", 'answer_replies = "always"');
  const chatty = counting("Okay.");
  const out = await networkTurn(
    deps(always, { runAgent: chatty.run }),
    input({ hops: 3, text: "Okay." }),
  );
  assert.equal(out.kind, "reply");
});

Deno.test("networkTurn() shares no note when [net] public_note names user.md", async () => {
  using h = await home("", 'public_note = "user.md"');
  const model = counting();
  await networkTurn(deps(h, { runAgent: model.run }), input());
  assert.deepEqual(model.calls[0]!.persona, {
    personaFile: `${h.paths.personaDir}/persona.md`,
    publicNoteFile: undefined,
  });
});
