import assert from "node:assert/strict";
import { render } from "ink-testing-library";
import { FileSessionStore } from "@agent/hub";
import { ChatScreen } from "./chat_screen.tsx";
import { controllerFor, tick } from "./_testing.ts";

const SAVE = '/tool write_note {"name":"x","text":"y"}';

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await tick();
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test("ChatScreen: while an approval waits, y, n, space and Enter are text; the line is queued; only Ctrl-Y after 500 ms decides", async () => {
  await using t = await controllerFor([SAVE, "Saved it.", "Answered the queued line."]);
  const app = render(<ChatScreen controller={t.controller} lang="en" columns={80} rows={24} />);
  try {
    app.stdin.write("save it\r");
    await until(() => t.controller.getState().approval !== undefined, "the approval");
    const asked = app.lastFrame()!;
    assert.match(asked, /The agent wants to save the note “x” \(1 character\)\./);
    assert.match(asked, /Allow once \(Ctrl-Y\) {4}Allow for this session {4}Deny \(Ctrl-N\)/);
    assert.match(asked, /Approval: Ctrl-Y allow once · Ctrl-N deny · Tab more choices/);
    // Keys one at a time, as a person typing ahead sends them: every one is text.
    for (const key of ["y", "e", "s", " ", "n", "o"]) {
      app.stdin.write(key);
      await tick();
    }
    assert.match(app.lastFrame()!, /› yes no\n/);
    // Ctrl-Y, Ctrl-N and Tab in the first 500 ms decide nothing.
    app.stdin.write("\x19");
    app.stdin.write("\x0e");
    app.stdin.write("\t");
    await tick();
    assert.equal(t.controller.getState().approval?.focus, undefined);
    assert.deepEqual(t.conversation.snapshot().approvals.length, 1);
    // Enter sends the line: it waits behind the approval, shown as queued.
    app.stdin.write("\r");
    await until(() => t.controller.getState().queued.length === 1, "the queued line");
    assert.match(app.lastFrame()!, /\(queued\) yes no/);
    assert.equal(t.conversation.snapshot().approvals.length, 1, "nothing decided");
    await assert.rejects(Deno.stat(`${t.home}/notes/x.md`));
    t.advance(500);
    app.stdin.write("\x19");
    await until(() => app.lastFrame()!.includes("Answered the queued line."), "the queued answer");
    const done = app.lastFrame()!;
    assert.match(done, /✓ Saved the note “x” \(1 byte\)\./);
    assert.ok(done.indexOf("Saved it.") < done.indexOf("› yes no"), done);
    assert.equal(await Deno.readTextFile(`${t.home}/notes/x.md`), "y\n");
  } finally {
    app.unmount();
  }
});

Deno.test("ChatScreen: Tab focuses the approval's buttons; → then Enter allows it for the session; Esc gives the keys back to the input", async () => {
  await using t = await controllerFor([SAVE, "Saved once.", SAVE, "Saved again."]);
  const app = render(<ChatScreen controller={t.controller} lang="en" columns={80} rows={24} />);
  try {
    app.stdin.write("save it\r");
    await until(() => t.controller.getState().approval !== undefined, "the approval");
    t.advance(600);
    app.stdin.write("\t");
    await tick();
    assert.match(app.lastFrame()!, /▸ Allow once \(Ctrl-Y\)/);
    assert.match(app.lastFrame()!, /Approval: ←\/→ choose · Enter decide · Tab or Esc back/);
    // Esc: back to typing; a letter typed at the buttons goes to the input.
    app.stdin.write("\x1b");
    await tick();
    assert.equal(t.controller.getState().approval?.focus, undefined);
    app.stdin.write("\t");
    await tick();
    app.stdin.write("k");
    await tick();
    assert.equal(t.controller.getState().approval?.focus, undefined);
    assert.match(app.lastFrame()!, /› k\n/);
    app.stdin.write("\x15");
    app.stdin.write("\t");
    await tick();
    app.stdin.write("\x1b[C");
    await tick();
    assert.match(app.lastFrame()!, /▸ Allow for this session/);
    app.stdin.write("\r");
    await until(() => app.lastFrame()!.includes("Saved once."), "the first answer");
    // Allowed for the session: the next call runs without asking.
    app.stdin.write("save again\r");
    await until(() => app.lastFrame()!.includes("Saved again."), "the second answer");
    assert.equal(app.lastFrame()!.match(/✓ Saved the note “x” \(1 byte\)\./g)?.length, 2);
  } finally {
    app.unmount();
  }
});

Deno.test("ChatScreen: the approval's buttons and hint speak Turkish", async () => {
  await using t = await controllerFor([SAVE, "Tamam."], { lang: "tr" });
  const app = render(<ChatScreen controller={t.controller} lang="tr" columns={100} rows={24} />);
  try {
    app.stdin.write("kaydet\r");
    await until(() => t.controller.getState().approval !== undefined, "the approval");
    const frame = app.lastFrame()!;
    assert.match(
      frame,
      /Bir kez izin ver \(Ctrl-Y\) {4}Bu oturum için izin ver {4}Reddet \(Ctrl-N\)/,
    );
    assert.match(frame, /Onay: Ctrl-Y bir kez izin ver · Ctrl-N reddet · Tab diğer seçenekler/);
    t.advance(600);
    app.stdin.write("\x0e");
    await until(() => app.lastFrame()!.includes("Tamam."), "the answer");
    assert.match(app.lastFrame()!, /✗ write_note çalışmadı: siz reddettiniz\./);
  } finally {
    app.unmount();
  }
});

Deno.test("TuiController: /resume's picker lists the desk's sessions, as many as /resume in chat", async () => {
  await using t = await controllerFor(["A."]);
  const store = new FileSessionStore(t.paths.sessionsDir);
  for (let i = 0; i < 25; i++) {
    await store.createSession(`chat-old-${String(i).padStart(2, "0")}`, {});
  }
  await t.controller.submit("/resume");
  const picker = t.controller.getState().picker;
  assert.equal(picker?.kind, "resume");
  const chat = await t.desk.open("chat");
  const listed = await chat.submit("/resume");
  assert.ok(listed.kind === "command");
  assert.equal(picker.items.length, 20);
  assert.deepEqual(
    picker.items.map((item) => item.label),
    listed.outcome.choices?.map((choice) => choice.label),
  );
  t.controller.move(3);
  const chosen = t.controller.getState().picker!.items[3]!.value;
  await t.controller.choose();
  assert.equal(t.conversation.sessionId, chosen);
  assert.equal(t.controller.getState().status.session, chosen);
});
