import assert from "node:assert/strict";
import { prescan } from "./_prescan.ts";

Deno.test("prescan() finds global options and the command", () => {
  assert.deepEqual(prescan(["--home", "/h", "--lang=tr", "-v", "doctor", "--json"]), {
    verbose: true,
    help: false,
    home: "/h",
    lang: "tr",
    command: "doctor",
    rest: ["--json"],
  });
  assert.deepEqual(prescan(["--profile", "p", "version"]), {
    verbose: false,
    help: false,
    profile: "p",
    command: "version",
    rest: [],
    fast: "version",
  });
});

Deno.test("prescan() takes the fast path only for a bare 'version'", () => {
  assert.equal(prescan(["version"]).fast, "version");
  assert.equal(prescan(["version", "--help"]).fast, undefined);
  assert.equal(prescan(["-h", "version"]).fast, undefined);
  assert.equal(prescan(["--bogus", "version"]).fast, undefined);
  assert.equal(prescan(["--home"]).command, undefined);
  assert.equal(prescan(["--lang", "xx", "version"]).fast, undefined);
  assert.equal(prescan(["--home=", "version"]).fast, undefined);
  assert.equal(prescan(["--lang", "tr", "version"]).fast, "version");
});

Deno.test("prescan() keeps an empty --home= value for the setup to refuse", () => {
  assert.equal(prescan(["--home=", "doctor"]).home, "");
  assert.equal(prescan(["--home", "", "doctor"]).home, "");
});

Deno.test("prescan() takes the version-flag path for a last --version or -V only", () => {
  assert.equal(prescan(["--version"]).fast, "version_flag");
  assert.equal(prescan(["-V"]).fast, "version_flag");
  assert.equal(prescan(["--home", "/h", "-v", "--version"]).fast, "version_flag");
  assert.equal(prescan(["--version", "doctor"]).fast, undefined);
  assert.equal(prescan(["--lang", "xx", "--version"]).fast, undefined);
  assert.equal(prescan(["-h", "--version"]).fast, undefined);
});
