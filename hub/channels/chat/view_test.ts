import assert from "node:assert/strict";
import type { DeskEvent } from "../../desk/mod.ts";
import type { RefusalReason } from "../../sessions/mod.ts";
import { ChatView } from "./view.ts";

function refused(reason: RefusalReason): DeskEvent {
  return {
    type: "CUSTOM",
    name: "tool.refused",
    value: { toolCallId: "c1", tool: "write_note", reason },
    timestamp: 0,
  };
}

function view(lang: "en" | "tr", person: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const v = new ChatView({
    lang,
    person,
    write: (text) => out.push(text),
    writeError: (text) => err.push(text),
    busy: () => false,
    prompt: () => {},
  });
  return { v, out, err };
}

Deno.test("ChatView: in a pipe, a tier-2 call that did not run is one line on stderr, with its reason, in en and tr", () => {
  const reasons: RefusalReason[] = ["no_one_to_ask", "denied", "expired", "cancelled"];
  const en = view("en", false);
  for (const reason of reasons) en.v.render(refused(reason));
  assert.deepEqual(en.err, [
    "✗ write_note did not run: no one could approve it\n",
    "✗ write_note did not run: it was denied\n",
    "✗ write_note did not run: no one answered in time\n",
    "✗ write_note did not run: the answer was cancelled\n",
  ]);
  assert.deepEqual(en.out, []);
  const tr = view("tr", false);
  for (const reason of reasons) tr.v.render(refused(reason));
  assert.deepEqual(tr.err, [
    "✗ write_note çalışmadı: onaylayabilecek kimse yoktu\n",
    "✗ write_note çalışmadı: reddedildi\n",
    "✗ write_note çalışmadı: zamanında yanıt gelmedi\n",
    "✗ write_note çalışmadı: yanıt iptal edildi\n",
  ]);
  // A person at a terminal reads the tool's outcome line instead.
  const person = view("en", true);
  person.v.render(refused("denied"));
  assert.deepEqual([person.out, person.err], [[], []]);
});
