import assert from "node:assert/strict";
import { setTomlString } from "./toml_keys.ts";

Deno.test("setTomlString replaces a value and keeps its comment and every other line", () => {
  const text = [
    "# top comment",
    "[sessions]",
    "# where sessions live",
    'backend = "file"   # the default',
    "",
    "[net]",
    'store = "file"',
    "auto_reply = true",
    "",
  ].join("\n");
  const out = setTomlString(
    setTomlString(text, "sessions", "backend", "spine"),
    "net",
    "store",
    "spine",
  );
  assert.equal(
    out,
    [
      "# top comment",
      "[sessions]",
      "# where sessions live",
      'backend = "spine"   # the default',
      "",
      "[net]",
      'store = "spine"',
      "auto_reply = true",
      "",
    ].join("\n"),
  );
});

Deno.test("setTomlString adds a missing key under its table, or the table at the end", () => {
  assert.equal(
    setTomlString('[net]\nname = "x"\n\n[ui]\nlang = "en"\n', "net", "store", "spine"),
    '[net]\nname = "x"\nstore = "spine"\n\n[ui]\nlang = "en"\n',
  );
  assert.equal(
    setTomlString('[ui]\nlang = "en"', "sessions", "backend", "spine"),
    '[ui]\nlang = "en"\n\n[sessions]\nbackend = "spine"\n',
  );
  // A key of the same name in another table, or a sub-table, is not touched.
  assert.equal(
    setTomlString('[other]\nstore = "file"\n[net.deep]\nstore = "x"\n', "net", "store", "spine"),
    '[other]\nstore = "file"\n[net.deep]\nstore = "x"\n\n[net]\nstore = "spine"\n',
  );
  // Single-quoted and bare values are replaced too.
  assert.equal(
    setTomlString("[net]\nstore='file'\n", "net", "store", "spine"),
    '[net]\nstore="spine"\n',
  );
});
