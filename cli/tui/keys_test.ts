import assert from "node:assert/strict";
import type { Key } from "ink";
import { splitKeys } from "./keys.ts";

const key = (flags: Partial<Key> = {}) => ({ ...flags }) as Key;

Deno.test("splitKeys() cuts a read into keys: text runs and control keys in order", () => {
  const keys = splitKeys("ab\rc\x15\x04\x7f\t", key());
  assert.deepEqual(
    keys.map((k) => [k.char, k.key.return, k.key.ctrl, k.key.backspace, k.key.tab]),
    [
      ["ab", false, false, false, false],
      ["", true, false, false, false],
      ["c", false, false, false, false],
      ["u", false, true, false, false],
      ["d", false, true, false, false],
      ["", false, false, true, false],
      ["", false, false, false, true],
    ],
  );
});

Deno.test("splitKeys() leaves a single key as Ink parsed it; Esc Esc is two escapes", () => {
  const down = key({ downArrow: true });
  assert.deepEqual(splitKeys("", down), [{ char: "", key: down }]);
  assert.deepEqual(splitKeys("x", key()), [{ char: "x", key: key() }]);
  const twice = splitKeys("", key({ escape: true, meta: true }));
  assert.equal(twice.length, 2);
  assert.ok(twice.every((k) => k.key.escape && !k.key.meta));
});
