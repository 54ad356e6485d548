/**
 * Reads the JSON-with-comments of a wrangler configuration: `//` and `/* *\/` comments
 * and trailing commas are dropped (outside strings) before `JSON.parse`.
 *
 * @module
 */

/**
 * Parses JSONC text.
 *
 * @throws {SyntaxError} when what is left is not JSON.
 * @example
 * ```ts
 * import { parseJsonc } from "./_jsonc.ts";
 * const value = parseJsonc('{\n  // a note\n  "a": "x // y", /* z *\/ "b": [1, 2,],\n}');
 * if (value.a !== "x // y" || value.b.length !== 2) throw new Error();
 * ```
 */
// deno-lint-ignore no-explicit-any
export function parseJsonc(text: string): any {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(dropTrailingCommas(out));
}

function dropTrailingCommas(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === "}" || text[j] === "]") {
        i++;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}
