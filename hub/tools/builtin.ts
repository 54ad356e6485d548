/**
 * The built-in tools: the current time, reading a file under the agent's home,
 * notes (list, read, write) under `<AGENT_HOME>/notes`, and fetching a URL.
 * Writing a note and fetching a URL are tier 2 (asked every time).
 *
 * @module
 */
import { z } from "zod";
import { formatTime, TIME_ZONE } from "../i18n.ts";
import type { AgentTool, ToolContext } from "./tool.ts";
import { shown, t } from "./_messages.ts";

const MAX_READ_BYTES = 64 * 1024;
const MAX_FETCH_CHARS = 20_000;
const NOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,80}$/;

/** `current_time`: now, in the agent's time zone or another one. */
export const currentTime: AgentTool = {
  name: "current_time",
  tier: 1,
  description: "The current date and time. Optionally in another IANA time zone.",
  inputSchema: z.object({
    time_zone: z.string().optional().describe("IANA zone such as Europe/Berlin"),
  }),
  execute(input: { time_zone?: string }, context: ToolContext) {
    const now = (context.now ?? Date.now)();
    const zone = input.time_zone ?? TIME_ZONE;
    let local: string;
    try {
      local = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone).toString({
        smallestUnit: "second",
        timeZoneName: "never",
      });
    } catch {
      throw new RangeError(`Unknown time zone: ${zone}`);
    }
    return Promise.resolve({
      utc: new Date(now).toISOString(),
      time_zone: zone,
      local,
      ...(zone === TIME_ZONE ? { formatted: formatTime(now) } : {}),
    });
  },
};

/** `read_file`: a text file under the agent's home; `.env` and `data/` stay closed. */
export const readFile: AgentTool = {
  name: "read_file",
  tier: 1,
  description:
    "Read a text file under the agent's home directory (path relative to it, e.g. persona/persona.md). Secrets (.env) and the data directory cannot be read.",
  inputSchema: z.object({ path: z.string().min(1) }),
  async execute(input: { path: string }, context: ToolContext) {
    const file = await insideHome(context, input.path);
    return { path: input.path, ...(await readText(file)) };
  },
};

/** `list_notes`: the notes under `<home>/notes`. */
export const listNotes: AgentTool = {
  name: "list_notes",
  tier: 1,
  description: "List the owner's notes (names, sizes, last change).",
  inputSchema: z.object({}),
  async execute(_input: unknown, context: ToolContext) {
    const dir = notesDir(context);
    const notes: { name: string; bytes: number; modified: string | null }[] = [];
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (!entry.isFile || !entry.name.endsWith(".md")) continue;
        const stat = await Deno.stat(`${dir}/${entry.name}`);
        notes.push({
          name: entry.name.slice(0, -3),
          bytes: stat.size,
          modified: stat.mtime ? formatTime(stat.mtime.getTime()) : null,
        });
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    notes.sort((a, b) => a.name.localeCompare(b.name));
    return { notes };
  },
};

/** `read_note`: one note by name. */
export const readNote: AgentTool = {
  name: "read_note",
  tier: 1,
  description: "Read one of the owner's notes by name (as list_notes shows it).",
  inputSchema: z.object({ name: z.string() }),
  async execute(input: { name: string }, context: ToolContext) {
    return { name: input.name, ...(await readText(noteFile(context, input.name))) };
  },
};

/** `write_note`: creates or replaces a note (tier 2). */
export const writeNote: AgentTool = {
  name: "write_note",
  tier: 2,
  description:
    "Create or replace one of the owner's notes (Markdown). With append=true, add to the end instead.",
  inputSchema: z.object({
    name: z.string().describe("letters, digits, spaces, '.', '_' or '-'"),
    text: z.string(),
    append: z.boolean().optional(),
  }),
  describe(input: { name: string; text: string; append?: boolean }, lang) {
    const vars = { name: shown(input.name, 60), chars: [...input.text].length };
    return t(lang, input.append ? "append_note" : "write_note", vars);
  },
  async execute(input: { name: string; text: string; append?: boolean }, context: ToolContext) {
    const file = noteFile(context, input.name);
    await Deno.mkdir(notesDir(context), { recursive: true, mode: 0o700 });
    let text = input.text;
    if (input.append) {
      const before = await Deno.readTextFile(file).catch(() => "");
      text = before === "" ? text : `${before.replace(/\n*$/, "\n")}${text}`;
    }
    const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    await Deno.writeTextFile(temp, text.endsWith("\n") ? text : `${text}\n`, { mode: 0o600 });
    await Deno.rename(temp, file);
    return { saved: input.name, bytes: new TextEncoder().encode(text).length };
  },
};

/** `fetch_url`: GET an http(s) URL and return its text (tier 2). */
export const fetchUrl: AgentTool = {
  name: "fetch_url",
  tier: 2,
  description:
    "Fetch a web page or API over http(s) with GET and return its text (cut to 20,000 characters).",
  inputSchema: z.object({ url: z.string().url() }),
  describe(input: { url: string }, lang) {
    return t(lang, "fetch_url", { url: shown(input.url, 120) });
  },
  async execute(input: { url: string }, context: ToolContext) {
    const url = new URL(input.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`Cannot fetch ${url.protocol} URLs; only http and https`);
    }
    const response = await (context.fetch ?? fetch)(url, {
      redirect: "follow",
      signal: AbortSignal.timeout(15_000),
      headers: { "user-agent": "agent/0.1 (+fetch_url tool)" },
    });
    const text = await response.text();
    return {
      url: response.url || url.href,
      status: response.status,
      content_type: response.headers.get("content-type"),
      text: text.slice(0, MAX_FETCH_CHARS),
      truncated: text.length > MAX_FETCH_CHARS,
    };
  },
};

/** Every built-in tool. */
export const BUILTIN_TOOLS: readonly AgentTool[] = [
  currentTime,
  readFile,
  listNotes,
  readNote,
  writeNote,
  fetchUrl,
];

function notesDir(context: ToolContext): string {
  return `${context.paths.home}/notes`;
}

function noteFile(context: ToolContext, name: string): string {
  const clean = name.replace(/\.md$/, "");
  if (!NOTE_NAME.test(clean) || clean.includes("..")) {
    throw new TypeError(`Invalid note name: ${JSON.stringify(name)}`);
  }
  return `${notesDir(context)}/${clean}.md`;
}

async function insideHome(context: ToolContext, path: string): Promise<string> {
  const home = await Deno.realPath(context.paths.home);
  const wanted = path.startsWith("/") ? path : `${context.paths.home}/${path}`;
  let real: string;
  try {
    real = await Deno.realPath(wanted);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new Error(`No such file: ${path}`);
    throw error;
  }
  const dataDir = await Deno.realPath(context.paths.dataDir).catch(() => context.paths.dataDir);
  const rel = real.startsWith(`${home}/`) ? real.slice(home.length + 1) : undefined;
  if (rel === undefined) throw new Error(`Cannot read ${path}: only files under the agent's home`);
  if (/(^|\/)\.env($|\.)/.test(rel) && !rel.endsWith(".env.example")) {
    throw new Error(`Cannot read ${path}: it holds secrets`);
  }
  if (real === dataDir || real.startsWith(`${dataDir}/`)) {
    throw new Error(`Cannot read ${path}: the data directory is not readable by tools`);
  }
  return real;
}

async function readText(file: string): Promise<{ text: string; truncated: boolean }> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new Error("No such file");
    if (error instanceof Deno.errors.IsADirectory) throw new Error("That is a directory");
    throw error;
  }
  const truncated = bytes.length > MAX_READ_BYTES;
  const text = new TextDecoder().decode(bytes.subarray(0, MAX_READ_BYTES));
  return { text, truncated };
}
