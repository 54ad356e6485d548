/**
 * `agent chat` at a terminal (a pseudo-terminal, 40 columns): answers drawn as Markdown
 * and wrapped at words, a tool call's outcome line, and Ctrl-C at the idle prompt
 * (the first clears the line, a second leaves).
 */
import assert from "node:assert/strict";
import { makeHome } from "./_run.ts";
import { hasPython, playTerminal } from "../_pty.ts";

const REPLY = "Here is **bold** and `code` with a [link](https://example.org) and " +
  "enough words to wrap this paragraph twice over in a narrow terminal.\\n\\n" +
  "```\\nlet x = 1;\\n```\\n- first item\\n- second item";

const CONFIG = `[models.roles.brain]
provider = "fake"
model_id = "fake-brain"
[models.roles.brain.params]
replies = ["${REPLY}", '/tool read_note {"name":"missing"}', "Done."]
`;

Deno.test({
  name: "agent chat in a terminal: Markdown answers wrapped at words; a tool's outcome line",
  ignore: !hasPython,
  async fn() {
    const home = makeHome(CONFIG);
    try {
      const r = await playTerminal(home, [
        "wait:› ",
        "send:show me\\r",
        "wait:second item",
        "wait:› ",
        "send:read it\\r",
        "wait:Done.",
        "wait:› ",
        "send:\\x04",
      ], "chat");
      assert.equal(r.code, 0, r.screen);
      const screen = r.screen.replace(/\r/g, "");
      assert.ok(!screen.includes("**") && !screen.includes("```"), screen);
      assert.match(screen, /Here is bold and code with a link\s+\(https:\/\/example\.org\) and/);
      assert.match(screen, /\n {2}let x = 1;\n/);
      assert.match(screen, /\n• first item\n• second item\n/);
      // Every line of the answer fits 40 columns, broken between words.
      const answer = screen.slice(screen.indexOf("Here is"), screen.indexOf("second item"));
      for (const line of answer.split("\n")) assert.ok(line.length < 40, JSON.stringify(line));
      // ... and no word is broken across two lines.
      assert.deepEqual(
        answer.split(/\s+/).filter(Boolean),
        ("Here is bold and code with a link (https://example.org) and enough words to wrap " +
          "this paragraph twice over in a narrow terminal. let x = 1; • first item •").split(" "),
      );
      assert.match(screen, /\[read_note\]\n {2}✗ read_note failed: /);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "agent chat in a terminal: the first Ctrl-C at the prompt clears the line, a second exits 130",
  ignore: !hasPython,
  async fn() {
    const home = makeHome(CONFIG);
    try {
      const r = await playTerminal(home, [
        "wait:› ",
        "send:half typed",
        "sleep:0.3",
        "send:\\x03",
        "wait:press Ctrl-C again to quit",
        "wait:› ",
        "send:hello\\r",
        "wait:second item",
        "wait:› ",
        "send:\\x03",
        "wait:press Ctrl-C again",
        "send:\\x03",
      ], "chat");
      assert.equal(r.code, 130, r.screen);
      // The half-typed line was never sent: the first message the model saw was "hello".
      let text = "";
      const read = (dir: string) => {
        for (const entry of Deno.readDirSync(dir)) {
          const path = `${dir}/${entry.name}`;
          if (entry.isDirectory) read(path);
          else text += Deno.readTextFileSync(path);
        }
      };
      read(`${home}/data/sessions`);
      assert.ok(!text.includes("half typed"), text);
      assert.ok(text.includes("hello"), text);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});
