/**
 * T1 and T2 of issue 34: copies of `.env` and files holding one of its keys never reach
 * the model through `read_file` or `read_note`, and no tool result carries an OS error
 * or the home's absolute path: each refusal is one sentence, in English or Turkish.
 */
import assert from "node:assert/strict";
import { tempDir } from "../../tests/_temp_dir.ts";
import { resolvePaths } from "../paths.ts";
import { readFile, readNote } from "./builtin.ts";
import { toToolSet } from "./tool.ts";

const KEY = "sk-vendor-a-0123456789abcdef";
const ENV = `VENDOR_A_API_KEY=${KEY}\nSHORT=abc123\nEMPTY=\n`;
const CALL = { toolCallId: "1", messages: [] } as never;

function tools(home: string, lang?: "tr") {
  const env = lang === undefined ? {} : { AGENT_LANG: lang };
  return toToolSet([readFile, readNote], {
    context: { paths: resolvePaths({ home, env: {} }), env },
  });
}

function home(path: string): void {
  Deno.mkdirSync(`${path}/notes`);
  Deno.mkdirSync(`${path}/persona`);
  Deno.writeTextFileSync(`${path}/.env`, ENV, { mode: 0o600 });
}

/** Copies of `.env` an editor, a person or another spelling leaves in the home. */
const COPIES = [
  ".env~",
  "env.backup",
  ".ENV",
  ".env ",
  ".env.",
  ".env. ",
  "#.env#",
  ".#.env",
  ".env.bak",
  ".env.orig",
  ".env.swp",
  "..env.swp",
  ".env.save",
  ".env.old",
  ".env.1",
  ".Env.Backup",
  "env",
  "ENV.BAK",
  ".env.local",
  ".env.production~",
  ".env\u200b",
  "\uff0eenv",
  ".envrc",
];

Deno.test("read_file refuses every copy of .env by its name, whatever it holds", async () => {
  using tmp = tempDir();
  home(tmp.path);
  const set = tools(tmp.path);
  for (const name of COPIES) {
    // Only the short value: the name alone must be enough.
    Deno.writeTextFileSync(`${tmp.path}/${name}`, "SHORT=abc123\n");
    const out = await set.read_file!.execute!({ path: name }, CALL);
    // The sentence is one line: a trailing space of the name is not shown.
    const label = name.trimEnd();
    assert.deepEqual(
      out,
      { error: `Cannot read ${label}: it holds secrets` },
      JSON.stringify(name),
    );
  }
  Deno.mkdirSync(`${tmp.path}/notes/old`);
  Deno.writeTextFileSync(`${tmp.path}/notes/old/.env.bak`, "SHORT=abc123\n");
  assert.deepEqual(await set.read_file!.execute!({ path: "notes/old/.env.bak" }, CALL), {
    error: "Cannot read notes/old/.env.bak: it holds secrets",
  });
});

Deno.test("read_file and read_note refuse any file holding a key of .env of 12 characters or more", async () => {
  using tmp = tempDir();
  home(tmp.path);
  const w = (path: string, text: string) => Deno.writeTextFileSync(`${tmp.path}/${path}`, text);
  w("persona/pasted.md", `I keep my key here: ${KEY} (do not share)\n`);
  w("notes/keys.md", `- vendor: ${KEY}\n`);
  w("notes/env.md", "SHORT=abc123\n");
  // Cut at the cap: the key straddles the 64 KiB the tool returns.
  w("notes/long.md", `${"x".repeat(64 * 1024 - 6)}${KEY}\n`);
  w("notes/short.md", "abc123 is too short to count as a key\n");
  w("notes/environment.md", "Notes about the environment.\n");
  w(".env.example", "VENDOR_A_API_KEY=\n");
  const set = tools(tmp.path);
  const secret = (label: string) => ({ error: `Cannot read ${label}: it holds secrets` });
  const cases: [tool: string, input: Record<string, string>, expected: unknown][] = [
    ["read_file", { path: "persona/pasted.md" }, secret("persona/pasted.md")],
    ["read_file", { path: "notes/keys.md" }, secret("notes/keys.md")],
    ["read_note", { name: "keys" }, secret("notes/keys.md")],
    ["read_note", { name: "env" }, secret("notes/env.md")],
    ["read_note", { name: "long" }, secret("notes/long.md")],
    ["read_file", { path: "notes/long.md" }, secret("notes/long.md")],
    ["read_note", { name: "short" }, {
      name: "short",
      text: "abc123 is too short to count as a key\n",
      truncated: false,
    }],
    ["read_note", { name: "environment" }, {
      name: "environment",
      text: "Notes about the environment.\n",
      truncated: false,
    }],
    ["read_file", { path: ".env.example" }, {
      path: ".env.example",
      text: "VENDOR_A_API_KEY=\n",
      truncated: false,
    }],
  ];
  for (const [tool, input, expected] of cases) {
    const out = await set[tool]!.execute!(input, CALL);
    assert.deepEqual(out, expected, `${tool} ${JSON.stringify(input)}`);
    assert.ok(!JSON.stringify(out).includes(KEY.slice(0, 12)), `${tool} leaks the key`);
  }
});

Deno.test("file tools answer in Turkish when the owner's language is Turkish", async () => {
  using tmp = tempDir();
  home(tmp.path);
  Deno.writeTextFileSync(`${tmp.path}/.env~`, ENV);
  const set = tools(tmp.path, "tr");
  assert.deepEqual(await set.read_file!.execute!({ path: ".env~" }, CALL), {
    error: ".env~ okunamıyor: gizli anahtarlar içeriyor",
  });
  assert.deepEqual(await set.read_note!.execute!({ name: "missing" }, CALL), {
    error: "notes/missing.md okunamıyor: böyle bir dosya yok",
  });
  assert.deepEqual(await set.read_file!.execute!({ path: "../x" }, CALL), {
    error: "../x okunamıyor: ajanın ana klasörünün dışında",
  });
  assert.deepEqual(await set.read_note!.execute!({ name: "../x" }, CALL), {
    error:
      "Geçersiz not adı: ../x (harf, rakam, boşluk, '.', '_' ya da '-' kullan, en çok 81 karakter)",
  });
});

Deno.test("T2: no tool result carries an OS error or the home's absolute path", async () => {
  using tmp = tempDir();
  home(tmp.path);
  const long = "a".repeat(300);
  {
    Deno.writeTextFileSync(`${tmp.path}/persona/persona.md`, "Hi.\n");
    const set = tools(tmp.path);
    const cut = `${long.slice(0, 159)}…`;
    const cases: [tool: string, input: Record<string, string>, error: string][] = [
      ["read_file", { path: long }, `Cannot read ${cut}: its name is too long`],
      [
        "read_file",
        { path: `notes/${long}` },
        `Cannot read notes/${long.slice(0, 153)}…: its name is too long`,
      ],
      ["read_file", { path: `${tmp.path}/${long}` }, `Cannot read ${cut}: its name is too long`],
      ["read_file", { path: `${long}/${long}/x` }, `Cannot read ${cut}: its name is too long`],
      [
        "read_file",
        { path: "persona/persona.md/x" },
        "Cannot read persona/persona.md/x: there is no such file",
      ],
      [
        "read_file",
        { path: "notes/nothing.md" },
        "Cannot read notes/nothing.md: there is no such file",
      ],
      ["read_file", { path: "persona" }, "Cannot read persona: it is a directory"],
      [
        "read_file",
        { path: "../../etc/hostname" },
        "Cannot read ../../etc/hostname: it is outside the agent's home",
      ],
      ["read_file", { path: "a\0b" }, "Cannot read a\\x00b: there is no such file"],
    ];
    for (const [tool, input, error] of cases) {
      const out = await set[tool]!.execute!(input, CALL);
      assert.deepEqual(out, { error }, `${tool} ${JSON.stringify(input).slice(0, 80)}`);
      const text = JSON.stringify(out);
      for (const leak of [tmp.path, "os error", "ENAMETOOLONG", "    at "]) {
        assert.ok(!text.includes(leak), `${tool} ${input.path?.slice(0, 40)} leaks ${leak}`);
      }
    }
  }
});
