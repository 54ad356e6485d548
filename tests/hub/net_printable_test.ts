/**
 * Text from another agent reaches the owner's terminal with control and bidi characters
 * shown, never run: `agent net contacts` and `agent net log`.
 */
import assert from "node:assert/strict";
import { NetState } from "@agent/hub";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { initHomeAt } from "../_init_home.ts";

// deno-lint-ignore no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

Deno.test("agent net contacts and log show escapes and bidi controls as text", async () => {
  try {
    const home = await tempHome();
    await initHomeAt(home);
    const state = NetState.file(`${home}/data/net`);
    await state.saveContact({
      address: "stranger.example",
      name: "Ev\u202eil\u001b]0;pwned\u0007",
      state: "pending_in",
      sign_key: "A".repeat(43),
      box_key: "B".repeat(43),
      note: "hello\u001b[2J",
      created_at: 1,
      updated_at: 1,
      accepted_at: null,
    });
    await state.appendLog({
      ts: 1_700_000_000,
      direction: "in",
      address: "stranger.example",
      kind: "contact_request",
      id: "x",
      thread: "x",
      text: "clear\u001b[2J\u009b31m",
    });
    for (const command of ["contacts", "log"]) {
      const r = await agent(["--home", home, "net", command]);
      assert.equal(r.code, 0, r.stderr);
      // No raw control or bidi character reaches the terminal.
      assert.doesNotMatch(
        r.stdout,
        UNSAFE,
      );
      if (command === "contacts") {
        assert.match(r.stdout, /Ev\\u202eil\\x1b\]0;pwned\\x07 · hello\\x1b\[2J/);
      } else {
        assert.match(r.stdout, /contact_request: clear\\x1b\[2J\\x9b31m/);
      }
    }
  } finally {
    await cleanup();
  }
});
