import assert from "node:assert/strict";
import { makeHome } from "./_run.ts";
import { startVendorServer } from "../_vendor_server.ts";
import { hasPython, playTerminal } from "../_pty.ts";

/** Plays `steps` against `agent chat` in a pseudo-terminal. */
const tty = (home: string, steps: string[]) => playTerminal(home, steps);

const CONFIG = `[models.roles.brain]
provider = "fake"
model_id = "fake-brain"
[models.roles.brain.params]
replies = ["Hi there.", '/tool write_note {"name":"x","text":"y"}', "Saved."]
`;

Deno.test({
  name: "agent chat in a terminal: Ctrl-C at an approval prompt exits 130",
  ignore: !hasPython,
  async fn() {
    const home = makeHome(CONFIG);
    try {
      const r = await tty(home, [
        "wait:› ",
        "send:hello\\r",
        "wait:Hi there.",
        "wait:› ",
        "send:save it\\r",
        "wait:[y/N]",
        "send:\\x03",
      ]);
      assert.equal(r.code, 130, r.screen);
      assert.match(
        r.screen,
        /The agent wants to save the note “x” \(1 character\)\. Allow\? \[y\/N\]/,
      );
      assert.throws(() => Deno.statSync(`${home}/notes/x.md`));
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "agent chat in a terminal: approval yes runs the tool, /settings set hides the key, Ctrl-D exits 0",
  ignore: !hasPython,
  async fn() {
    const home = makeHome(CONFIG);
    try {
      const r = await tty(home, [
        "wait:› ",
        "send:hello\\r",
        "wait:Hi there.",
        "wait:› ",
        "send:save it\\r",
        "wait:[y/N]",
        // An answer is a line typed for the question, after its first 500 ms.
        "sleep:0.6",
        "send:y\\r",
        "wait:Saved.",
        "wait:› ",
        "send:/settings set VENDOR_A_API_KEY\\r",
        "wait:hidden",
        "send:sk-typed-secret\\r",
        "wait:saved to",
        "wait:› ",
        "send:\\x04",
      ]);
      assert.equal(r.code, 0, r.screen);
      assert.equal(Deno.readTextFileSync(`${home}/notes/x.md`), "y\n");
      assert.match(
        r.screen,
        /\[write_note\]\r?\n[^\n]*The agent wants to save the note “x”/,
        "the tool shows before its approval",
      );
      // The tool's outcome is a sentence, not its JSON.
      assert.match(r.screen, / {2}✓ Saved the note “x” \(1 byte\)\.\r?\n/);
      assert.ok(!r.screen.includes('{"saved"'), r.screen);
      assert.ok(!r.screen.includes("sk-typed-secret"), "the key is never echoed");
      assert.ok(!/s.{0,12}k.{0,12}-.{0,12}t.{0,12}y.{0,12}p/.test(r.screen), "not even key by key");
      assert.match(Deno.readTextFileSync(`${home}/.env`), /^VENDOR_A_API_KEY=sk-typed-secret$/m);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "agent chat in a terminal: a line sent as the approval shows is queued, not its answer; y after 500 ms runs the tool, then the line is answered",
  ignore: !hasPython,
  async fn() {
    const home = makeHome(`[models.roles.brain]
provider = "fake"
model_id = "fake-brain"
[models.roles.brain.params]
replies = ['/tool write_note {"name":"x","text":"y"}', "Saved.", "Answered after."]
`);
    try {
      const r = await tty(home, [
        "wait:› ",
        "send:save it\\r",
        "wait:[y/N]",
        // Typed ahead, on its way as the question appeared: neither `y` nor the line count.
        "send:y\\r",
        "send:and then this\\r",
        "wait:(queued: answered after the current answer and 1 more)",
        "wait:[y/N]",
        "sleep:0.6",
        "send:y\\r",
        "wait:Saved.",
        "wait:Answered after.",
        "wait:› ",
        "send:\\x04",
      ]);
      assert.equal(r.code, 0, r.screen);
      assert.equal(Deno.readTextFileSync(`${home}/notes/x.md`), "y\n");
      const screen = r.screen;
      assert.ok(
        screen.indexOf("Saved.") < screen.indexOf("Answered after."),
        "the queued lines are answered after the approval's answer",
      );
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "agent chat in a terminal: Ctrl-C while an answer is awaited cancels it and chat goes on; /status ends with the Budget line; /quit exits 0",
  ignore: !hasPython,
  async fn() {
    const server = startVendorServer({ reply: "Late answer." });
    server.script.push({ delayMs: 2500 });
    const home = makeHome(`[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-test"
[models.roles.brain.params]
base_url = "${server.url}/v1"
[models.roles.brain.budget]
usd = 5
period = "month"
`);
    Deno.writeTextFileSync(`${home}/.env`, "VENDOR_B_API_KEY=k\n", { mode: 0o600 });
    try {
      const r = await tty(home, [
        "wait:› ",
        "send:slow one\\r",
        // The provider holds its answer for 2.5 s; Ctrl-C comes while it waits.
        "sleep:1",
        "send:\\x03",
        "wait:(answer cancelled)",
        "wait:› ",
        "send:quick one\\r",
        "wait:Late answer.",
        "wait:› ",
        "send:/status\\r",
        "wait:Budget: brain $",
        "wait:› ",
        "send:/quit\\r",
      ]);
      assert.equal(r.code, 0, r.screen);
      assert.match(
        r.screen,
        /\nBudget: brain \$0\.\d+ of \$5\.00 this month \(resets \d\d\.\d\d\.\d{4} 00:00\)/,
      );
    } finally {
      await server.close();
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "agent chat in a terminal: Ctrl-C twice at the prompt leaves with 130, like a shell",
  ignore: !hasPython,
  async fn() {
    const home = makeHome(CONFIG);
    try {
      const r = await tty(home, ["wait:› ", "send:\\x03", "wait:Ctrl-C again", "send:\\x03"]);
      assert.equal(r.code, 130, r.screen);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});
