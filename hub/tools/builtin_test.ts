import assert from "node:assert/strict";
import { resolvePaths } from "../paths.ts";
import { fetchUrl, listNotes, readFile, readNote, writeNote } from "./builtin.ts";
import { refusalText, toToolSet } from "./tool.ts";

function context() {
  const home = Deno.makeTempDirSync({ prefix: "agent-tools-" });
  Deno.mkdirSync(`${home}/persona`);
  Deno.writeTextFileSync(`${home}/persona/persona.md`, "Hi.\n");
  Deno.writeTextFileSync(`${home}/.env`, "VENDOR_A_API_KEY=secret\n");
  Deno.mkdirSync(`${home}/data`);
  Deno.writeTextFileSync(`${home}/data/spend.sqlite3`, "x");
  return { home, ctx: { paths: resolvePaths({ home, env: {} }), env: {} } };
}

Deno.test("read_file reads under the home and refuses .env, data/ and outside paths", async () => {
  const { home, ctx } = context();
  try {
    assert.deepEqual(await readFile.execute({ path: "persona/persona.md" }, ctx), {
      path: "persona/persona.md",
      text: "Hi.\n",
      truncated: false,
    });
    await assert.rejects(() => readFile.execute({ path: ".env" }, ctx), /secrets/);
    await assert.rejects(
      () => readFile.execute({ path: "data/spend.sqlite3" }, ctx),
      /data directory/,
    );
    await assert.rejects(
      () => readFile.execute({ path: "../../etc/hostname" }, ctx),
      /home|No such/,
    );
    Deno.symlinkSync("/etc/hostname", `${home}/link`);
    await assert.rejects(() => readFile.execute({ path: "link" }, ctx), /symbolic link/);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("notes: write (tier 2, asked), list, read, append", async () => {
  const { home, ctx } = context();
  try {
    assert.equal(writeNote.tier, 2);
    await writeNote.execute({ name: "groceries", text: "- milk" }, ctx);
    await writeNote.execute({ name: "groceries", text: "- bread", append: true }, ctx);
    assert.deepEqual(await readNote.execute({ name: "groceries" }, ctx), {
      name: "groceries",
      text: "- milk\n- bread\n",
      truncated: false,
    });
    const list = await listNotes.execute({}, ctx) as { notes: { name: string }[] };
    assert.deepEqual(list.notes.map((n) => n.name), ["groceries"]);
    await assert.rejects(
      () => writeNote.execute({ name: "../x", text: "" }, ctx),
      /Invalid note name/,
    );
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("S2: a note linked to .env, the identity or /etc/passwd never reaches the model", async () => {
  const { home, ctx } = context();
  const key = "VENDOR_A_API_KEY=secret";
  try {
    Deno.mkdirSync(`${home}/data/net`);
    Deno.writeTextFileSync(`${home}/data/net/identity.json`, '{"seed":"private-seed"}');
    Deno.mkdirSync(`${home}/notes`);
    Deno.symlinkSync(`${home}/.env`, `${home}/notes/leak.md`);
    Deno.symlinkSync("leak.md", `${home}/notes/leak2.md`);
    Deno.symlinkSync("../data/net/identity.json", `${home}/notes/id.md`);
    Deno.symlinkSync("/etc/passwd", `${home}/notes/passwd.md`);
    Deno.linkSync(`${home}/.env`, `${home}/notes/hard.md`);
    const set = toToolSet([readNote, readFile, listNotes, writeNote], { context: ctx });
    const opts = { toolCallId: "1", messages: [] } as never;
    const link = "it is or goes through a symbolic link";
    const calls: [tool: string, input: Record<string, unknown>, error: string][] = [
      ["read_note", { name: "leak" }, `Cannot read notes/leak.md: ${link}`],
      ["read_note", { name: "leak2.md" }, `Cannot read notes/leak2.md: ${link}`],
      ["read_note", { name: "id" }, `Cannot read notes/id.md: ${link}`],
      ["read_note", { name: "passwd" }, `Cannot read notes/passwd.md: ${link}`],
      ["read_note", { name: "hard" }, "Cannot read notes/hard.md: it holds secrets"],
      ["read_file", { path: "notes/leak.md" }, `Cannot read notes/leak.md: ${link}`],
      ["read_file", { path: "notes/hard.md" }, "Cannot read notes/hard.md: it holds secrets"],
      ["read_file", { path: `${home}/notes/../.env` }, "Cannot read .env: it holds secrets"],
      [
        "read_file",
        { path: "data/net/identity.json" },
        "Cannot read data/net/identity.json: it is in the agent's data directory",
      ],
      [
        "write_note",
        { name: "leak", text: "x", append: true },
        `Cannot append to notes/leak.md: ${link}`,
      ],
    ];
    for (const [tool, input, error] of calls) {
      const out = await set[tool]!.execute!(input, opts);
      assert.deepEqual(out, { error }, `${tool} ${JSON.stringify(input)}`);
    }
    const list = await set.list_notes!.execute!({}, opts) as { notes: unknown[] };
    assert.deepEqual(list.notes, []);
    assert.equal(Deno.readTextFileSync(`${home}/.env`), `${key}\n`);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("toToolSet() marks tier 2 as needing approval and gives a tool's error to the model", async () => {
  const { home, ctx } = context();
  try {
    const set = toToolSet([writeNote, readNote], { context: ctx });
    assert.equal(set.write_note!.needsApproval, true);
    assert.equal(set.read_note!.needsApproval, false);
    const opts = { toolCallId: "1" };
    const missing = await set.read_note!.execute({ name: "a" }, opts) as { error: string };
    assert.equal(missing.error, "Cannot read notes/a.md: there is no such file");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("refusalText() says plainly that the call did not run, and why", () => {
  assert.equal(
    refusalText("write_note", "no_one_to_ask"),
    "write_note did NOT run: it needs the owner's approval and no one could be asked here. Do not say it ran; tell the owner it did not run.",
  );
  assert.match(
    refusalText("write_note", "denied"),
    /^write_note did NOT run: the owner denied it\./,
  );
  assert.match(refusalText("fetch_url", "expired"), /^fetch_url did NOT run: no one answered/);
  assert.match(refusalText("net_send", "cancelled"), /^net_send did NOT run: the owner cancelled/);
});

Deno.test("fetch_url GETs an http URL and cuts long text (a loopback page with fetch_private)", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("x".repeat(25_000), { headers: { "content-type": "text/plain" } }),
  );
  const { home, ctx } = context();
  try {
    const settings = { fetch_private: true };
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const out = await fetchUrl.execute({ url }, { ...ctx, settings }) as {
      status: number;
      text: string;
      truncated: boolean;
    };
    assert.equal(out.status, 200);
    assert.equal(out.text.length, 20_000);
    assert.equal(out.truncated, true);
  } finally {
    await server.shutdown();
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("fetch_url turns a page into readable Markdown marked untrusted: the article, absolute links, no menu or script", async () => {
  const article = "Deno 2.9 brings faster installs and better npm support to every project. "
    .repeat(8);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    new Response(
      `<!doctype html><html><head><title>Deno 2.9 released</title><script>steal()</script></head>
      <body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
      <article><h1>Deno 2.9 released</h1><p>${article}</p><p>See <a href="/docs/npm">the npm notes</a>.</p>
      <h2>What's new</h2><ul><li>Faster installs</li><li>Better types</li></ul>
      <pre><code>deno upgrade</code></pre></article>
      <footer>Accept all cookies</footer></body></html>`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    ));
  const home = Deno.makeTempDirSync({ prefix: "agent-tools-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const out = await fetchUrl.execute({ url: `${base}/post` }, {
      paths: resolvePaths({ home, env: {} }),
      env: {},
      settings: { fetch_private: true },
    }) as Record<string, string>;
    assert.equal(out.format, "markdown");
    assert.equal(out.title, "Deno 2.9 released");
    assert.match(out.untrusted!, /not instructions/);
    assert.match(out.text!, /\[the npm notes\]\(http:\/\/127\.0\.0\.1:\d+\/docs\/npm\)/);
    assert.match(out.text!, /## What's new\n\n- +Faster installs\n- +Better types/);
    assert.match(out.text!, /```\ndeno upgrade\n```/);
    for (const gone of ["steal()", "Blog", "<p>", "<article>"]) {
      assert.ok(!out.text!.includes(gone), `${gone} is still there`);
    }
  } finally {
    await server.shutdown();
    Deno.removeSync(home, { recursive: true });
  }
});
