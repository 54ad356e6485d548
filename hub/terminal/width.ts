/**
 * How many columns text takes in a terminal, for wrapping chat's answers and the TUI.
 *
 * @module
 */

/**
 * The width a string takes in a terminal (wide East Asian characters and emoji count
 * 2, control characters and combining marks 0).
 *
 * @example
 * ```ts
 * import { displayWidth } from "./width.ts";
 * if (displayWidth("a語") !== 3) throw new Error();
 * ```
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0x300 && code < 0x370)) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (code >= 0x1100 && code <= 0x115f) || (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd);
}
