/**
 * `<AGENT_HOME>/.env`: `NAME=value` lines with comments, read at start (the process
 * environment wins) and written atomically with mode 0600.
 *
 * @module
 */
import { writeFileAtomic } from "./atomic_file.ts";
import type { AgentPaths } from "./paths.ts";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses `.env` text: `NAME=value`, `export NAME=value`, `#` comments, values in
 * double quotes (with `\n`, `\"`, `\\` escapes) or single quotes (literal). Lines that
 * are not assignments are ignored.
 *
 * @example
 * ```ts
 * import { parseEnv } from "./env_file.ts";
 * const env = parseEnv('# keys\nA=1\nexport B="two words" # note\n');
 * if (env.A !== "1" || env.B !== "two words") throw new Error();
 * ```
 */
export function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const parsed = parseLine(raw);
    if (parsed !== undefined) out[parsed[0]] = parsed[1];
  }
  return out;
}

function parseLine(raw: string): [string, string] | undefined {
  let line = raw.trim();
  if (line === "" || line.startsWith("#")) return undefined;
  if (line.startsWith("export ")) line = line.slice(7).trimStart();
  const eq = line.indexOf("=");
  if (eq <= 0) return undefined;
  const name = line.slice(0, eq).trim();
  if (!NAME.test(name)) return undefined;
  let value = line.slice(eq + 1).trim();
  if (value.startsWith('"')) {
    const end = closingQuote(value);
    value = value.slice(1, end).replace(/\\(.)/g, (_m, c: string) => (c === "n" ? "\n" : c));
  } else if (value.startsWith("'")) {
    const end = value.indexOf("'", 1);
    value = value.slice(1, end === -1 ? undefined : end);
  } else {
    const hash = value.search(/\s#/);
    if (hash !== -1) value = value.slice(0, hash).trimEnd();
  }
  return [name, value];
}

function closingQuote(value: string): number {
  for (let i = 1; i < value.length; i++) {
    if (value[i] === "\\") i++;
    else if (value[i] === '"') return i;
  }
  return value.length;
}

/**
 * The 1-based numbers of the lines {@linkcode parseEnv} ignores although they are neither
 * blank nor a comment (`KEY value`, `=x`, `MY-KEY=x`), so `doctor` can name them.
 *
 * @example
 * ```ts
 * import { malformedEnvLines } from "./env_file.ts";
 * const lines = malformedEnvLines("# keys\nA=1\nVENDOR_B_API_KEY sk-1\n\n=x\n");
 * if (lines.join() !== "3,5") throw new Error();
 * ```
 */
export function malformedEnvLines(text: string): number[] {
  const out: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line !== "" && !line.startsWith("#") && parseLine(raw) === undefined) out.push(i + 1);
  });
  return out;
}

/** The names assigned in `.env`-style text, in order (used for `.env.example`). */
export function envNames(text: string): string[] {
  const names: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    // `.env.example` may list a name commented out or with an empty value.
    const line = raw.trim().replace(/^#\s*/, "");
    const parsed = parseLine(line);
    if (parsed !== undefined && !names.includes(parsed[0])) names.push(parsed[0]);
  }
  return names;
}

/** Reads a `.env` file; a missing file is `{}`. */
export async function readEnvFile(path: string): Promise<Record<string, string>> {
  try {
    return parseEnv(await Deno.readTextFile(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw error;
  }
}

/** Synchronous {@linkcode readEnvFile}, for the start of a run. An unreadable file is `{}`. */
export function readEnvFileSync(path: string): Record<string, string> {
  try {
    return parseEnv(Deno.readTextFileSync(path));
  } catch {
    return {};
  }
}

/**
 * The merged view of `<home>/.env` and the process environment; the environment wins.
 */
export function loadEnv(
  paths: AgentPaths,
  processEnv: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const merged: Record<string, string> = readEnvFileSync(paths.envFile);
  for (const [name, value] of Object.entries(processEnv)) {
    if (value !== undefined) merged[name] = value;
  }
  return merged;
}

/** Quotes a value when it needs it, so {@linkcode parseEnv} reads it back unchanged. */
export function quoteEnvValue(value: string): string {
  if (/^[A-Za-z0-9_./:@+,=-]*$/.test(value)) return value;
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/**
 * Sets `name` in the `.env` file at `path`: replaces its line (the first; later
 * duplicates are removed) or appends one, keeping every other line and comment. The
 * file is written atomically (temp file, fsync, rename) with mode 0600.
 */
export async function setEnvKey(path: string, name: string, value: string): Promise<void> {
  if (!NAME.test(name)) throw new TypeError(`Cannot set ${name} in .env: not a variable name`);
  let text = "";
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  const assignment = `${name}=${quoteEnvValue(value)}`;
  let replaced = false;
  const kept: string[] = [];
  for (const line of lines) {
    const parsed = parseLine(line);
    if (parsed !== undefined && parsed[0] === name) {
      if (!replaced) kept.push(assignment);
      replaced = true;
    } else kept.push(line);
  }
  if (!replaced) kept.push(assignment);
  // A directory made here holds keys (the home): only its owner may look in.
  await writeFileAtomic(path, `${kept.join("\n")}\n`, { mode: 0o600, dirMode: 0o700 });
}
