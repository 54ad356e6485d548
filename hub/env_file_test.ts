import assert from "node:assert/strict";
import { envNames, loadEnv, parseEnv, readEnvFile, setEnvKey } from "./env_file.ts";
import { resolvePaths } from "./paths.ts";

Deno.test("parseEnv() reads assignments, exports, quotes and comments", () => {
  const env = parseEnv(
    [
      "# comment",
      "A=1",
      "export B=two",
      'C="a \\"quoted\\" value\\nnext"',
      "D='single # kept'",
      "E=plain # trailing comment",
      "not an assignment",
      "1BAD=x",
      "F=",
    ].join("\n"),
  );
  assert.deepEqual(env, {
    A: "1",
    B: "two",
    C: 'a "quoted" value\nnext',
    D: "single # kept",
    E: "plain",
    F: "",
  });
});

Deno.test("envNames() lists names, also commented or empty ones", () => {
  assert.deepEqual(envNames("# head\nA=\n# B=\nC=3\nA=again\n"), ["A", "B", "C"]);
});

Deno.test("readEnvFile() treats a missing file as empty", async () => {
  assert.deepEqual(await readEnvFile("/nonexistent/dir/.env"), {});
});

Deno.test("setEnvKey() replaces or appends, keeps comments, writes mode 0600", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/.env`;
  try {
    await setEnvKey(path, "A", "1");
    assert.equal(await Deno.readTextFile(path), "A=1\n");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    await Deno.writeTextFile(path, "# keys\nA=1\nB=2\nA=dup\n");
    await Deno.chmod(path, 0o644);
    await setEnvKey(path, "A", "new value");
    await setEnvKey(path, "C", "x#y");
    assert.equal(await Deno.readTextFile(path), '# keys\nA="new value"\nB=2\nC="x#y"\n');
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.deepEqual(await readEnvFile(path), { A: "new value", B: "2", C: "x#y" });
    await assert.rejects(() => setEnvKey(path, "BAD NAME", "x"), TypeError);
    const leftovers = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.deepEqual(leftovers, [".env"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("setEnvKey() makes a missing home private (0700)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await setEnvKey(`${dir}/home/.env`, "A", "1");
    assert.equal((await Deno.stat(`${dir}/home`)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(`${dir}/home/.env`)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadEnv() lets the environment win over .env", async () => {
  const home = await Deno.makeTempDir();
  try {
    const paths = resolvePaths({ home, env: {} });
    await Deno.writeTextFile(paths.envFile, "A=file\nB=file\n");
    assert.deepEqual(loadEnv(paths, { A: "env", C: "env" }), { A: "env", B: "file", C: "env" });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
