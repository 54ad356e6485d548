/**
 * A session written by an older hub (records without a `version`: the AI SDK's
 * `ModelMessage`, with the SDK's bookkeeping parts) still loads, on files and on a
 * cloud-mode spine on workerd: its history reads in this version's shape, and the next
 * turn sends it to a vendor without the bookkeeping and with the thinking's signature.
 * The old records stay as they were; the new ones carry `version: 2`.
 */
import assert from "node:assert/strict";
import {
  buildAgent,
  FileSessionStore,
  MAIN_AGENT_ID,
  MESSAGE_VERSION,
  type SessionMessage,
  type SessionStore,
  SpineSessionStore,
} from "@agent/hub";
import { resolvePaths } from "@agent/hub/base";
import { startSpine } from "../spine/_harness.ts";
import { startVendorServer } from "../_vendor_server.ts";
import { config, TEST_PRICE, workspace } from "../_models.ts";

const SID = "chat-20261120-100000-ab12";
const FIXTURE = new URL(`./testdata/session_v1/${SID}/`, import.meta.url).pathname;
const TOKEN = "old-sessions-token-0123456789";

const readJson = (path: string) => JSON.parse(Deno.readTextFileSync(`${FIXTURE}${path}`));
const messageFiles = () =>
  [...Deno.readDirSync(`${FIXTURE}agents/main/messages`)].map((e) => e.name).sort();

/** The fixture as this version reads it. */
const EXPECTED: SessionMessage[] = [
  { role: "user", content: "Note: buy milk" },
  {
    role: "assistant",
    content: [
      {
        type: "reasoning",
        text: "The owner wants a note.",
        providerOptions: { anthropic: { signature: "sig-old-1" } },
      },
      { type: "text", text: "Saving it." },
      {
        type: "tool-call",
        toolCallId: "toolu_01",
        toolName: "write_note",
        input: { name: "todo", text: "buy milk" },
      },
    ],
  },
  {
    role: "tool",
    content: [{
      type: "tool-result",
      toolCallId: "toolu_01",
      toolName: "write_note",
      output: { type: "json", value: { saved: "notes/todo.md" } },
    }],
  },
  { role: "assistant", content: [{ type: "text", text: "Saved your note." }] },
  { role: "user", content: "Send it to bob" },
  {
    role: "assistant",
    content: [{
      type: "tool-call",
      toolCallId: "toolu_02",
      toolName: "net_send",
      input: { to: "bob.example", text: "buy milk" },
    }],
  },
  {
    role: "tool",
    content: [{
      type: "tool-result",
      toolCallId: "toolu_02",
      toolName: "net_send",
      output: {
        type: "json",
        value: {
          declined: true,
          message:
            "The owner declined this action. Do not try it again; say what you would have done.",
        },
      },
    }],
  },
  { role: "assistant", content: [{ type: "text", text: "I did not send it." }] },
];

interface Backend {
  /** A store holding the fixture session, as the older hub left it. */
  make(dir: string): Promise<{ store: SessionStore; close(): Promise<void> }>;
}

const BACKENDS: Record<string, Backend> = {
  file: {
    make(dir) {
      const target = `${dir}/data/sessions/${SID}`;
      for (const file of ["session.json", "meta.json", "agents/main/agent.json"]) {
        Deno.mkdirSync(`${target}/${file}`.replace(/\/[^/]+$/, ""), { recursive: true });
        Deno.copyFileSync(`${FIXTURE}${file}`, `${target}/${file}`);
      }
      Deno.mkdirSync(`${target}/agents/main/messages`, { recursive: true });
      for (const name of messageFiles()) {
        Deno.copyFileSync(
          `${FIXTURE}agents/main/messages/${name}`,
          `${target}/agents/main/messages/${name}`,
        );
      }
      const store = new FileSessionStore(`${dir}/data/sessions`);
      return Promise.resolve({ store, close: () => Promise.resolve() });
    },
  },
  spine: {
    async make() {
      const spine = await startSpine({ hubToken: TOKEN, mode: "cloud" });
      const store = new SpineSessionStore(spine.url, TOKEN);
      await store.createSession(SID, readJson("session.json").data);
      await store.patchMeta(SID, readJson("meta.json"));
      await store.createAgent(SID, MAIN_AGENT_ID, readJson("agents/main/agent.json"));
      for (const name of messageFiles()) {
        const record = readJson(`agents/main/messages/${name}`);
        await store.createMessage(SID, MAIN_AGENT_ID, record.message_id, record);
      }
      return { store, close: () => spine.stop() };
    },
  },
};

for (const [name, backend] of Object.entries(BACKENDS)) {
  Deno.test({
    name:
      `an older hub's session (${name}) loads, and its next turn goes out without the SDK's bookkeeping`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const server = startVendorServer({ reply: "Not yet: shall I send it now?" });
      const ws = workspace();
      const { store, close } = await backend.make(ws.dir);
      try {
        const paths = resolvePaths({ home: ws.dir, env: {} });
        Deno.mkdirSync(paths.personaDir, { recursive: true });
        Deno.writeTextFileSync(`${paths.personaDir}/persona.md`, "Be brief.");
        const agent = buildAgent({
          config: config(`
[models.roles.brain]
provider = "vendor-a"
model_id = "claude-test-1"
[models.roles.brain.params]
base_url = "${server.url}/v1"
[models.prices.claude-test-1]
${TEST_PRICE}`),
          env: { VENDOR_A_API_KEY: "sk-a-test" },
          paths,
          channel: "chat",
          role: "brain",
          tools: [],
          persona: { personaFile: `${paths.personaDir}/persona.md` },
          sessions: store,
          logger: ws.logger,
        });
        assert.deepEqual(await agent.history(SID), EXPECTED);

        const result = await agent.turn(SID, "Did bob get it?");
        assert.equal(result.text, "Not yet: shall I send it now?");
        const body = server.requests[0]!.body as { messages: { role: string; content: unknown }[] };
        const sent = JSON.stringify(body.messages);
        assert.ok(!sent.includes("message_start"), "no custom bookkeeping part goes out");
        assert.ok(!sent.includes("srvtoolu_03"), "nor the provider's own tool call");
        assert.ok(!sent.includes("approval"), "nor the SDK's approval parts");
        assert.deepEqual(body.messages.map((m) => m.role), [
          "user",
          "assistant",
          "user",
          "assistant",
          "user",
          "assistant",
          "user",
          "assistant",
          "user",
        ]);
        assert.deepEqual((body.messages[1]!.content as unknown[])[0], {
          type: "thinking",
          thinking: "The owner wants a note.",
          signature: "sig-old-1",
        });
        assert.match(sent, /"type":"tool_result","tool_use_id":"toolu_02"/);

        // The old records are as they were; the turn's are of this version.
        const records = (await store.listMessages(SID, MAIN_AGENT_ID))!;
        assert.equal(records.length, 10);
        for (const [i, name] of messageFiles().entries()) {
          assert.deepEqual(records[i], readJson(`agents/main/messages/${name}`));
        }
        assert.deepEqual(
          records.slice(8).map((r) => (r as { version?: number }).version),
          [MESSAGE_VERSION, MESSAGE_VERSION],
        );
      } finally {
        await close();
        await server.close();
        ws.close();
      }
    },
  });
}
