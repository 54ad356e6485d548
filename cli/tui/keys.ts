/**
 * Keys that arrive together, taken one at a time. Over SSH, on a loaded machine or with
 * key repeat, one read of the terminal holds several keys: Ink splits escape sequences
 * apart but hands a run such as Ctrl-U Ctrl-D (`\x15\x04`) or `abc\r` to `useInput` as
 * one string, and keys handled in one read all see the state of the last render.
 * {@linkcode splitKeys} cuts such a read into keys; {@linkcode useKeys} hands them over
 * one by one; {@linkcode useLive} is state a handler reads back at once, so each key
 * sees what the key before it left.
 *
 * @module
 */
import { type Key, useInput } from "ink";
import { useRef, useState } from "./react.ts";

/** One key: its text (a printable run, or the letter of a control key) and its flags. */
export interface KeyPress {
  char: string;
  key: Key;
}

const NONE: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * The keys in one of Ink's input events, in order. An event that is already one key
 * (an arrow, Enter, a letter) comes back as it is; a run of text and control bytes is
 * cut into printable runs and single control keys (Enter, Tab, Backspace, Ctrl-letter).
 *
 * @example
 * ```ts
 * import { splitKeys } from "./keys.ts";
 * const keys = splitKeys("\x15\x04", {} as never);
 * if (keys.map((k) => k.char).join() !== "u,d" || !keys[0]!.key.ctrl) throw new Error();
 * ```
 */
export function splitKeys(char: string, key: Key): KeyPress[] {
  const named = key.upArrow || key.downArrow || key.leftArrow || key.rightArrow ||
    key.pageDown || key.pageUp || key.home || key.end || key.escape || key.meta;
  // Esc Esc in one read reaches Ink as one escape with meta: two presses of Esc.
  if (key.escape && key.meta) {
    const esc = { ...NONE, escape: true };
    return [{ char: "", key: esc }, { char: "", key: esc }];
  }
  if (Array.from(char).length <= 1 || named) return [{ char, key }];
  const out: KeyPress[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") out.push({ char: text, key: { ...NONE, shift: /^[A-Z]$/.test(text) } });
    text = "";
  };
  for (const ch of char) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x20 && code !== 0x7f) {
      text += ch;
      continue;
    }
    flush();
    if (code === 0x0d || code === 0x0a) out.push({ char: "", key: { ...NONE, return: true } });
    else if (code === 0x09) out.push({ char: "", key: { ...NONE, tab: true } });
    else if (code === 0x7f || code === 0x08) {
      out.push({ char: "", key: { ...NONE, backspace: true } });
    } else if (code === 0x1b) out.push({ char: "", key: { ...NONE, escape: true } });
    else if (code >= 1 && code <= 0x1a) {
      out.push({ char: String.fromCharCode(code + 0x60), key: { ...NONE, ctrl: true } });
    }
  }
  flush();
  return out;
}

/** `useInput` that calls `handler` once for each key of a read, in order. */
export function useKeys(
  handler: (char: string, key: Key) => void,
  options: { isActive?: boolean } = {},
): void {
  useInput((char, key) => {
    for (const k of splitKeys(char, key)) handler(k.char, k.key);
  }, options);
}

/**
 * State a key handler can read back at once: `[value, set, get]`. `get()` returns what
 * the last `set` stored even before React renders again.
 */
export function useLive<T>(
  initial: T,
): [T, (next: T | ((previous: T) => T)) => void, () => T] {
  const ref = useRef(initial);
  const [value, setValue] = useState(initial);
  const set = (next: T | ((previous: T) => T)) => {
    ref.current = typeof next === "function" ? (next as (previous: T) => T)(ref.current) : next;
    setValue(ref.current);
  };
  return [value, set, () => ref.current];
}
