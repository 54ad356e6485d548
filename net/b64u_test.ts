import assert from "node:assert/strict";
import { b64uDecode, b64uEncode, isB64u, portableDecode, portableEncode } from "./b64u.ts";

Deno.test("b64uEncode() uses the url alphabet without padding", () => {
  assert.deepEqual(b64uEncode(new Uint8Array([])), "");
  assert.deepEqual(b64uEncode(new Uint8Array([0xfb, 0xff])), "-_8");
  assert.deepEqual(b64uEncode(new TextEncoder().encode("foobar")), "Zm9vYmFy");
  assert.deepEqual(b64uEncode(new TextEncoder().encode("fooba")), "Zm9vYmE");
  assert.deepEqual(b64uEncode(new TextEncoder().encode("f")), "Zg");
});

Deno.test("b64uDecode() accepts input with or without padding", () => {
  for (const text of ["f", "fo", "foo", "foob", "fooba", "foobar"]) {
    const bytes = new TextEncoder().encode(text);
    const bare = b64uEncode(bytes);
    assert.deepEqual(b64uDecode(bare), bytes);
    const padded = bare + "=".repeat((4 - (bare.length % 4)) % 4);
    assert.deepEqual(b64uDecode(padded), bytes);
  }
});

Deno.test("b64uDecode() round-trips every byte value", () => {
  const bytes = new Uint8Array(256).map((_, i) => i);
  for (let n = 0; n <= 256; n += 17) {
    assert.deepEqual(b64uDecode(b64uEncode(bytes.subarray(0, n))), bytes.subarray(0, n));
  }
});

Deno.test("b64uDecode() rejects the standard alphabet, whitespace and bad lengths", () => {
  for (
    const bad of [
      "+_8",
      "/_8",
      "-_8 ",
      " -_8",
      "-_\n8",
      "A",
      "AAAAA",
      "Zg=",
      "Zg===",
      "Zm9=v",
      "=",
      "Zm9vY=",
      "Zg==Zg",
    ]
  ) {
    assert.throws(() => b64uDecode(bad), TypeError);
    assert.deepEqual(isB64u(bad), false);
  }
});

Deno.test("b64uDecode() rejects stray bits after the last byte", () => {
  assert.deepEqual(b64uDecode("Zg"), new Uint8Array([0x66]));
  assert.throws(() => b64uDecode("Zh"), TypeError);
  assert.throws(() => b64uDecode("Zm9"), TypeError);
  assert.deepEqual(b64uDecode("Zm8"), new TextEncoder().encode("fo"));
});

Deno.test("portableEncode() and portableDecode() match the native path", () => {
  const bytes = new Uint8Array(300).map((_, i) => (i * 7) % 256);
  for (let n = 0; n <= 300; n += 13) {
    const part = bytes.subarray(0, n);
    assert.deepEqual(portableEncode(part), b64uEncode(part));
    assert.deepEqual(portableDecode(b64uEncode(part)), part);
  }
  assert.deepEqual(portableDecode("-_8="), new Uint8Array([0xfb, 0xff]));
  for (const bad of ["+_8", "-_8 ", "A", "Zh", "Zg="]) {
    assert.throws(() => portableDecode(bad), TypeError);
  }
});
