/**
 * Setting one key of one table in an `agent.toml` text without touching anything else:
 * comments, order, spacing and every other value stay as they were. `agent cloud run`
 * uses it for `[sessions] backend` and `[net] store`.
 *
 * @module
 */

const HEADER = /^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?$/;
const ANY_HEADER = /^\s*\[/;

/**
 * Sets `key = "<value>"` in `[table]`: the existing line's value is replaced (its
 * trailing comment kept), or the line is added under the header, or the table is
 * appended.
 *
 * @example
 * ```ts
 * import { setTomlString } from "./toml_keys.ts";
 * const text = '# mine\n[sessions]\nbackend = "file" # local\n';
 * const out = setTomlString(text, "sessions", "backend", "spine");
 * if (out !== '# mine\n[sessions]\nbackend = "spine" # local\n') throw new Error(out);
 * ```
 */
export function setTomlString(text: string, table: string, key: string, value: string): string {
  return setTomlRaw(text, table, key, JSON.stringify(value));
}

/**
 * Sets `key = <raw>` in `[table]` the way {@linkcode setTomlString} does, with `raw`
 * already TOML (a number, a quoted string).
 *
 * @example
 * ```ts
 * import { setTomlRaw } from "./toml_keys.ts";
 * const out = setTomlRaw("[b]\nusd = 1 # cap\n", "b", "usd", "2.5");
 * if (out !== "[b]\nusd = 2.5 # cap\n") throw new Error(out);
 * ```
 */
export function setTomlRaw(text: string, table: string, key: string, raw: string): string {
  const lines = text.split("\n");
  const quoted = raw;
  const keyLine = new RegExp(
    `^(\\s*${escape(key)}\\s*=\\s*)("(?:[^"\\\\]|\\\\.)*"|'[^']*'|[^#\\s]+)(.*)$`,
  );
  let inTable = false;
  let headerAt = -1;
  let lastInTable = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = HEADER.exec(line);
    if (header) {
      inTable = header[1] === table;
      if (inTable) headerAt = i;
      continue;
    }
    if (ANY_HEADER.test(line)) {
      inTable = false; // an array of tables or another form: not ours
      continue;
    }
    if (!inTable) continue;
    if (line.trim() !== "" && !line.trim().startsWith("#")) lastInTable = i;
    const match = keyLine.exec(line);
    if (match) {
      lines[i] = `${match[1]}${quoted}${match[3]}`;
      return lines.join("\n");
    }
  }
  if (headerAt >= 0) {
    lines.splice(Math.max(headerAt, lastInTable) + 1, 0, `${key} = ${quoted}`);
    return lines.join("\n");
  }
  const base = text.length === 0 || text.endsWith("\n") ? text : `${text}\n`;
  return `${base}\n[${table}]\n${key} = ${quoted}\n`;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Removes `[table]`: its header and every key line under it up to the next header.
 * Comment and blank lines inside it stay (they may describe what follows); the text
 * is answered unchanged when the table is not there.
 *
 * @example
 * ```ts
 * import { removeTomlTable } from "./toml_keys.ts";
 * const out = removeTomlTable("[a]\nx = 1\n\n[a.b]\nusd = 15\n\n[c]\ny = 2\n", "a.b");
 * if (out !== "[a]\nx = 1\n\n\n[c]\ny = 2\n") throw new Error(JSON.stringify(out));
 * ```
 */
export function removeTomlTable(text: string, table: string): string {
  let inTable = false;
  const kept = text.split("\n").filter((line) => {
    const header = HEADER.exec(line);
    if (header || ANY_HEADER.test(line)) {
      inTable = header?.[1] === table;
      return !inTable;
    }
    if (!inTable) return true;
    return line.trim() === "" || line.trim().startsWith("#");
  });
  return kept.join("\n");
}
