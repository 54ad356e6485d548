/**
 * docs/chat.md's "Trying approvals without a key" works as written (issue 39 F6): its
 * `agent.toml` block, as the docs give it, makes the `fake` model call a tier-2 tool in
 * `agent chat` in a terminal; the approval is asked, allowed, and the note is saved.
 */
import assert from "node:assert/strict";
import { makeHome } from "../chat/_run.ts";
import { hasPython, playTerminal } from "../_pty.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The first ```toml block after `heading` in `markdown`. */
function tomlAfter(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `docs/chat.md has no '${heading}'`);
  const block = /```toml\n([\s\S]*?)```/.exec(markdown.slice(at));
  assert.ok(block, `no toml block after '${heading}'`);
  return block[1]!;
}

Deno.test({
  name:
    "docs/chat.md: the fake model's /tool recipe asks an approval, and allowing it saves the note",
  ignore: !hasPython,
  async fn() {
    const docs = Deno.readTextFileSync(`${ROOT}docs/chat.md`);
    const home = makeHome(tomlAfter(docs, "#### Trying approvals without a key"));
    try {
      const r = await playTerminal(home, [
        "wait:› ",
        "send:keep my shopping list\\r",
        "wait:[y/N]",
        "sleep:0.6",
        "send:y\\r",
        "wait:Saved your list.",
        "wait:› ",
        "send:\\x04",
      ]);
      assert.equal(r.code, 0, r.screen);
      assert.match(r.screen, /The agent wants to save the note “groceries”/);
      assert.equal(Deno.readTextFileSync(`${home}/notes/groceries.md`), "milk, eggs\n");
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
});
