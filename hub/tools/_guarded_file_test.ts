import assert from "node:assert/strict";
import { resolvePaths } from "../paths.ts";
import {
  checkPath,
  FileRefusedError,
  type FileScope,
  listGuarded,
  readChecked,
  readGuarded,
  writeGuarded,
} from "./_guarded_file.ts";

const KEY = "VENDOR_A_API_KEY=sk-the-real-key";
const SEED = '{"sign_seed":"the-private-seed"}';

/**
 * A temp root with the agent's home and a folder outside it:
 * `.env`, `.env.local`, `.env.example`, `persona/`, `data/` (ledger, identity), notes,
 * and every kind of link a note could be.
 */
function fixture() {
  const root = Deno.makeTempDirSync({ prefix: "agent-guard-" });
  const home = `${root}/home`;
  const w = (path: string, text: string) => Deno.writeTextFileSync(`${home}/${path}`, text);
  for (const dir of ["persona", "data/net", "notes/sub"]) {
    Deno.mkdirSync(`${home}/${dir}`, { recursive: true });
  }
  Deno.mkdirSync(`${root}/outside`);
  Deno.writeTextFileSync(`${root}/outside/secret.txt`, "outside secret");
  w(".env", `${KEY}\n`);
  w(".env.local", "LOCAL=secret\n");
  w(".env.example", "VENDOR_A_API_KEY=\n");
  w("persona/persona.md", "Hi.\n");
  w("data/spend.sqlite3", "ledger");
  w("data/spend.sqlite3-wal", "wal");
  w("data/net/identity.json", SEED);
  w("notes/plain.md", "plain note\n");
  w("notes/hard-a.md", "two names\n");
  w("notes/solo.md", "alone\n");
  const n = `${home}/notes`;
  Deno.symlinkSync("../.env", `${n}/to-env.md`);
  Deno.symlinkSync(`${root}/outside/secret.txt`, `${n}/to-outside.md`);
  Deno.symlinkSync("plain.md", `${n}/to-plain.md`);
  Deno.symlinkSync("to-env.md", `${n}/link2.md`);
  Deno.symlinkSync("/etc/passwd", `${n}/passwd.md`);
  Deno.symlinkSync("../data", `${n}/dirlink`);
  Deno.symlinkSync("persona", `${home}/persona-link`);
  Deno.linkSync(`${home}/.env`, `${n}/hard-env.md`);
  Deno.linkSync(`${home}/data/net/identity.json`, `${n}/hard-id.md`);
  Deno.linkSync(`${home}/data/spend.sqlite3`, `${n}/hard-ledger.md`);
  Deno.linkSync(`${n}/hard-a.md`, `${n}/hard-b.md`);
  const paths = resolvePaths({ home, env: {} });
  const homeScope: FileScope = { paths, folder: "", name: "home" };
  const notesScope: FileScope = { paths, folder: "notes", name: "notes" };
  return { root, home, homeScope, notesScope };
}

const SENTENCE = {
  outside: "it is outside the agent's home",
  secret: "it holds secrets",
  data: "it is in the agent's data directory",
  symlink: "it is or goes through a symbolic link",
  hardlink: "it has more than one hard link",
  directory: "it is a directory",
  missing: "there is no such file",
};

/** Every path form; `{root}` and `{home}` stand for the absolute folders. */
const READS: [path: string, label: string, expected: keyof typeof SENTENCE | { text: string }][] = [
  // Plain reads in every spelling.
  ["persona/persona.md", "persona/persona.md", { text: "Hi.\n" }],
  ["./persona/persona.md", "persona/persona.md", { text: "Hi.\n" }],
  ["{home}/persona/persona.md", "persona/persona.md", { text: "Hi.\n" }],
  ["persona//persona.md", "persona/persona.md", { text: "Hi.\n" }],
  ["notes/../persona/./persona.md", "persona/persona.md", { text: "Hi.\n" }],
  [".env.example", ".env.example", { text: "VENDOR_A_API_KEY=\n" }],
  // .env, whatever the spelling.
  [".env", ".env", "secret"],
  ["./.env", ".env", "secret"],
  ["{home}/.env", ".env", "secret"],
  [".env/", ".env", "secret"],
  ["notes/../.env", ".env", "secret"],
  ["data/../.env", ".env", "secret"],
  ["{home}/notes/../.env", ".env", "secret"],
  [".env.local", ".env.local", "secret"],
  // The data directory and the identity in it.
  ["data", "data", "data"],
  ["data/", "data", "data"],
  ["data/spend.sqlite3", "data/spend.sqlite3", "data"],
  ["{home}/data/net/../spend.sqlite3-wal", "data/spend.sqlite3-wal", "data"],
  ["data/net/identity.json", "data/net/identity.json", "data"],
  // Outside the home: relative, absolute, traversal.
  // A relative path is named as spelt: resolved, it would tell where the home is.
  ["../outside/secret.txt", "../outside/secret.txt", "outside"],
  ["{root}/outside/secret.txt", "{root}/outside/secret.txt", "outside"],
  ["notes/../../outside/secret.txt", "../outside/secret.txt", "outside"],
  ["/etc/passwd", "/etc/passwd", "outside"],
  ["../../../../../../../../etc/passwd", "../../../../../../../../etc/passwd", "outside"],
  // Symbolic links: to a file inside, outside, to a secret, to a link, to a folder.
  ["notes/to-env.md", "notes/to-env.md", "symlink"],
  ["notes/to-env.md/", "notes/to-env.md", "symlink"],
  ["./notes/./to-env.md", "notes/to-env.md", "symlink"],
  ["notes/link2.md", "notes/link2.md", "symlink"],
  ["notes/to-outside.md", "notes/to-outside.md", "symlink"],
  ["notes/to-plain.md", "notes/to-plain.md", "symlink"],
  ["notes/passwd.md", "notes/passwd.md", "symlink"],
  ["notes/dirlink", "notes/dirlink", "symlink"],
  ["notes/dirlink/net/identity.json", "notes/dirlink/net/identity.json", "symlink"],
  ["notes/dirlink/../.env", "notes/.env", "secret"],
  ["notes/dirlink/../spend.sqlite3", "notes/spend.sqlite3", "missing"],
  ["persona-link/persona.md", "persona-link/persona.md", "symlink"],
  // Hard links: to a protected file (its inode gives it away), between two notes.
  ["notes/hard-env.md", "notes/hard-env.md", "secret"],
  ["notes/hard-id.md", "notes/hard-id.md", "secret"],
  ["notes/hard-ledger.md", "notes/hard-ledger.md", "data"],
  ["notes/hard-a.md", "notes/hard-a.md", "hardlink"],
  ["{home}/notes/hard-b.md", "notes/hard-b.md", "hardlink"],
  // Folders and missing files.
  [".", ".", "directory"],
  ["{home}/", ".", "directory"],
  ["notes/sub/", "notes/sub", "directory"],
  ["notes/missing.md", "notes/missing.md", "missing"],
  ["persona/persona.md/x", "persona/persona.md/x", "missing"],
];

Deno.test("readGuarded() gives one refusal per reason whatever the path's spelling", async () => {
  const { root, home, homeScope } = fixture();
  const fill = (s: string) => s.replaceAll("{root}", root).replaceAll("{home}", home);
  try {
    for (const [spelt, label, expected] of READS) {
      const path = fill(spelt);
      const got = await readGuarded(path, homeScope, 64 * 1024).catch((e: unknown) => e);
      if (typeof expected === "object") {
        assert.deepEqual(got, { text: expected.text, truncated: false }, spelt);
        continue;
      }
      assert.ok(got instanceof FileRefusedError, `${spelt}: ${String(got)}`);
      assert.equal(got.message, `Cannot read ${fill(label)}: ${SENTENCE[expected]}`, spelt);
      assert.equal(got.reason, expected, spelt);
      for (const secret of ["sk-the-real-key", "the-private-seed", "outside secret", "root:"]) {
        assert.ok(!got.message.includes(secret), `${spelt} leaks ${secret}`);
      }
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("readGuarded() keeps a notes tool inside the notes folder", async () => {
  const { root, notesScope } = fixture();
  try {
    assert.deepEqual(await readGuarded("notes/plain.md", notesScope, 1024), {
      text: "plain note\n",
      truncated: false,
    });
    await assert.rejects(
      () => readGuarded("persona/persona.md", notesScope, 1024),
      { message: "Cannot read persona/persona.md: it is outside the notes folder" },
    );
    await assert.rejects(
      () => readGuarded("notes/../.env", notesScope, 1024),
      { message: "Cannot read .env: it is outside the notes folder" },
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("readGuarded() refuses a data directory kept outside the home", async () => {
  const root = Deno.makeTempDirSync({ prefix: "agent-guard-" });
  try {
    Deno.mkdirSync(`${root}/home`);
    Deno.mkdirSync(`${root}/data/net`, { recursive: true });
    Deno.writeTextFileSync(`${root}/data/net/identity.json`, SEED);
    Deno.symlinkSync(`${root}/data`, `${root}/home/data-link`);
    const paths = resolvePaths({ home: `${root}/home`, env: { AGENT_DATA_DIR: `${root}/data` } });
    const scope: FileScope = { paths, folder: "", name: "home" };
    for (const path of [`${root}/data/net/identity.json`, "../data/net/identity.json"]) {
      await assert.rejects(() => readGuarded(path, scope, 1024), { reason: "outside" });
    }
    await assert.rejects(() => readGuarded("data-link/net/identity.json", scope, 1024), {
      reason: "symlink",
    });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("readGuarded() accepts a home that is itself a link, by either name", async () => {
  const root = Deno.makeTempDirSync({ prefix: "agent-guard-" });
  try {
    Deno.mkdirSync(`${root}/real-home/persona`, { recursive: true });
    Deno.writeTextFileSync(`${root}/real-home/persona/persona.md`, "Hi.\n");
    Deno.writeTextFileSync(`${root}/real-home/.env`, `${KEY}\n`);
    Deno.symlinkSync("real-home", `${root}/home`);
    const paths = resolvePaths({ home: `${root}/home`, env: {} });
    const scope: FileScope = { paths, folder: "", name: "home" };
    for (const home of ["home", "real-home"]) {
      const read = await readGuarded(`${root}/${home}/persona/persona.md`, scope, 1024);
      assert.equal(read.text, "Hi.\n");
      await assert.rejects(() => readGuarded(`${root}/${home}/.env`, scope, 1024), {
        message: "Cannot read .env: it holds secrets",
      });
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("readChecked() refuses a file swapped or linked after the check", async () => {
  const { root, home, homeScope } = fixture();
  try {
    // Swapped for a symbolic link to .env between the check and the open.
    const swapped = await checkPath("notes/plain.md", homeScope);
    Deno.removeSync(`${home}/notes/plain.md`);
    Deno.symlinkSync("../.env", `${home}/notes/plain.md`);
    await assert.rejects(() => readChecked(swapped), {
      message: "Cannot read notes/plain.md: it changed while it was being opened",
    });
    // Given a second name: the opened file's own link count is checked.
    const linked = await checkPath("notes/solo.md", homeScope);
    Deno.linkSync(`${home}/notes/solo.md`, `${home}/notes/solo-2.md`);
    await assert.rejects(() => readChecked(linked), { reason: "hardlink" });
    // Replaced by another plain file.
    const replaced = await checkPath("persona/persona.md", homeScope);
    Deno.writeTextFileSync(`${home}/persona/new.md`, "other\n");
    Deno.renameSync(`${home}/persona/new.md`, `${home}/persona/persona.md`);
    await assert.rejects(() => readChecked(replaced), { reason: "changed" });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("readGuarded() reads at most the cap through the opened file", async () => {
  const { root, home, homeScope } = fixture();
  try {
    Deno.writeTextFileSync(`${home}/notes/big.md`, "x".repeat(70_000));
    const read = await readGuarded("notes/big.md", homeScope, 64 * 1024);
    assert.equal(read.text.length, 64 * 1024);
    assert.equal(read.truncated, true);
    const exact = await readGuarded("notes/big.md", homeScope, 70_000);
    assert.equal(exact.truncated, false);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("writeGuarded() writes plain notes and never writes through a link", async () => {
  const { root, home, notesScope } = fixture();
  const env = () => Deno.readTextFileSync(`${home}/.env`);
  try {
    await writeGuarded("notes/new.md", notesScope, "first");
    await writeGuarded("notes/new.md", notesScope, "second", { append: true });
    assert.equal(Deno.readTextFileSync(`${home}/notes/new.md`), "first\nsecond\n");
    assert.equal(Deno.statSync(`${home}/notes/new.md`).mode! & 0o777, 0o600);
    for (const append of [false, true]) {
      const verb = append ? "append to" : "write";
      await assert.rejects(() => writeGuarded("notes/to-env.md", notesScope, "x", { append }), {
        message: `Cannot ${verb} notes/to-env.md: it is or goes through a symbolic link`,
      });
      await assert.rejects(() => writeGuarded("notes/link2.md", notesScope, "x", { append }), {
        reason: "symlink",
      });
      await assert.rejects(() => writeGuarded("notes/hard-env.md", notesScope, "x", { append }), {
        reason: "secret",
      });
      await assert.rejects(() => writeGuarded("notes/hard-a.md", notesScope, "x", { append }), {
        reason: "hardlink",
      });
      await assert.rejects(() => writeGuarded("notes/dirlink/x.md", notesScope, "x", { append }), {
        reason: "symlink",
      });
    }
    assert.equal(env(), `${KEY}\n`);
    assert.equal(Deno.readTextFileSync(`${home}/notes/hard-a.md`), "two names\n");
    const left = [...Deno.readDirSync(`${home}/notes`)].map((e) => e.name);
    assert.ok(!left.some((name) => name.endsWith(".tmp")), left.join(", "));
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("writeGuarded() creates a missing notes folder but refuses one that is a link", async () => {
  const root = Deno.makeTempDirSync({ prefix: "agent-guard-" });
  try {
    Deno.mkdirSync(`${root}/home`);
    const paths = resolvePaths({ home: `${root}/home`, env: {} });
    const scope: FileScope = { paths, folder: "notes", name: "notes" };
    assert.deepEqual(await listGuarded(scope), []);
    await writeGuarded("notes/a.md", scope, "a");
    assert.equal(Deno.statSync(`${root}/home/notes`).mode! & 0o777, 0o700);
    assert.equal(Deno.readTextFileSync(`${root}/home/notes/a.md`), "a\n");
    Deno.removeSync(`${root}/home/notes`, { recursive: true });
    Deno.mkdirSync(`${root}/elsewhere`);
    Deno.writeTextFileSync(`${root}/elsewhere/b.md`, "b\n");
    Deno.symlinkSync(`${root}/elsewhere`, `${root}/home/notes`);
    await assert.rejects(() => writeGuarded("notes/a.md", scope, "a"), {
      message: "Cannot write notes: it is or goes through a symbolic link",
    });
    await assert.rejects(() => listGuarded(scope), {
      message: "Cannot list notes: it is or goes through a symbolic link",
    });
    await assert.rejects(() => readGuarded("notes/b.md", scope, 1024), { reason: "symlink" });
    assert.deepEqual([...Deno.readDirSync(`${root}/elsewhere`)].map((e) => e.name), ["b.md"]);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("listGuarded() lists only regular files with one link", async () => {
  const { root, notesScope } = fixture();
  try {
    const names = (await listGuarded(notesScope)).map((f) => f.name).sort();
    assert.deepEqual(names, ["plain.md", "solo.md"]);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
