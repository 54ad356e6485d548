/**
 * The built-in tools: the current time, reading a file under the agent's home,
 * notes (list, read, write) under `<AGENT_HOME>/notes`, and fetching a URL.
 * Writing a note and fetching a URL are tier 2 (asked every time). Every file goes
 * through `_guarded_file.ts`: no links, no secrets (by name or by content), nothing
 * outside the tool's folder. Every page goes through `_public_fetch.ts`: public
 * addresses only (unless `[tools] fetch_private`), redirects on the approved host.
 * A refusal is one sentence in the owner's language.
 *
 * @module
 */
import { z } from "zod";
import { currentLang, formatTime, TIME_ZONE } from "../i18n.ts";
import type { AgentTool, ToolContext } from "./tool.ts";
import { untrustedText } from "./untrusted.ts";
import { characters, inputRefusals, shown, t } from "./_messages.ts";
import { type FileScope, listGuarded, readGuarded, writeGuarded } from "./_guarded_file.ts";

const MAX_READ_BYTES = 64 * 1024;
const MAX_FETCH_CHARS = 20_000;
/** How much of a page's markup is read before its readable text is made. */
const MAX_PAGE_CHARS = 1_000_000;
const NOTES_FOLDER = "notes";
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
      throw new RangeError(
        inputRefusals(currentLang(context.env), "bad_time_zone", { zone: shown(zone, 60) }),
      );
    }
    return Promise.resolve({
      utc: new Date(now).toISOString(),
      time_zone: zone,
      local,
      ...(zone === TIME_ZONE ? { formatted: formatTime(now) } : {}),
    });
  },
};

/**
 * `read_file`: a text file under the agent's home; `.env` (and its copies, and any file
 * holding one of its keys) and `data/` stay closed.
 */
export const readFile: AgentTool = {
  name: "read_file",
  tier: 1,
  description:
    "Read a text file under the agent's home directory (path relative to it, e.g. persona/persona.md). Secrets (.env, its copies, files holding a key) and the data directory cannot be read.",
  inputSchema: z.object({ path: z.string().min(1) }),
  async execute(input: { path: string }, context: ToolContext) {
    return {
      path: input.path,
      ...(await readGuarded(input.path, homeScope(context), MAX_READ_BYTES)),
    };
  },
};

/** `list_notes`: the notes under `<home>/notes` (plain files only; links are left out). */
export const listNotes: AgentTool = {
  name: "list_notes",
  tier: 1,
  description: "List the owner's notes (names, sizes, last change).",
  inputSchema: z.object({}),
  async execute(_input: unknown, context: ToolContext) {
    const notes = (await listGuarded(notesScope(context)))
      .filter((f) => f.name.endsWith(".md") && NOTE_NAME.test(f.name.slice(0, -3)))
      .map((f) => ({
        name: f.name.slice(0, -3),
        bytes: f.bytes,
        modified: f.mtime ? formatTime(f.mtime.getTime()) : null,
      }));
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
    const file = noteFile(input.name, context);
    return { name: input.name, ...(await readGuarded(file, notesScope(context), MAX_READ_BYTES)) };
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
    const vars = { name: shown(input.name, 60), chars: characters(lang, [...input.text].length) };
    return t(lang, input.append ? "append_note" : "write_note", vars);
  },
  async execute(input: { name: string; text: string; append?: boolean }, context: ToolContext) {
    const file = noteFile(input.name, context);
    await writeGuarded(file, notesScope(context), input.text, { append: input.append === true });
    return { saved: input.name, bytes: new TextEncoder().encode(input.text).length };
  },
};

/**
 * `fetch_url`: GET an http(s) URL and return its text (tier 2): a page as readable Markdown
 * (Readability over linkedom, then turndown), marked untrusted. The owner approves the
 * host the sentence names; redirects stay on it, and private addresses are refused
 * unless `[tools] fetch_private` is on.
 */
export const fetchUrl: AgentTool = {
  name: "fetch_url",
  tier: 2,
  description:
    "Fetch a public web page or API over http(s) with GET. A page comes back as readable Markdown (the article, without menus and scripts); other text as it is; both cut to 20,000 characters and marked as untrusted. Redirects are followed on the same host only.",
  inputSchema: z.object({ url: z.string().url() }),
  describe(input: { url: string }, lang) {
    // The host as the URL parser reads it: `https://good.example@evil.example/` is evil's.
    const host = new URL(input.url).hostname;
    return t(lang, "fetch_url", { host: shown(host, 80), url: shown(input.url, 120) });
  },
  untrusted: true,
  // Allowing a site for the session allows that host only: the sentence named it.
  sessionScope(input: { url: string }) {
    return `fetch_url ${new URL(input.url).hostname}`;
  },
  async execute(input: { url: string }, context: ToolContext) {
    // Loaded on the first fetch: Node's http, https, dns and zlib cost a hub ~8 MiB and
    // ~100 ms at start, which a session that never fetches should not pay.
    const { fetchPublic } = await import("./_public_fetch.ts");
    const page = await fetchPublic(input.url, {
      allowPrivate: context.settings?.fetch_private === true,
      lang: currentLang(context.env),
      // A page's markup is many times its text: read enough of it to find the article.
      maxChars: MAX_PAGE_CHARS,
    });
    const html = /^\s*(text\/html|application\/xhtml\+xml)/i.test(page.contentType ?? "");
    let text = page.text;
    let title: string | undefined;
    if (html) {
      // The DOM, Readability and the Markdown writer load with the first page too.
      const { readablePage } = await import("./readable.ts");
      const readable = readablePage(page.text, page.url);
      text = readable.markdown;
      if (readable.title !== "") title = readable.title;
    }
    const out = untrustedText(page.url, text, MAX_FETCH_CHARS);
    return {
      url: page.url,
      status: page.status,
      content_type: page.contentType,
      ...(html ? { format: "markdown" } : {}),
      ...(title === undefined ? {} : { title: shown(title, 200) }),
      untrusted: out.untrusted,
      text: out.text,
      truncated: out.truncated || page.truncated,
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

function homeScope(context: ToolContext): FileScope {
  return { paths: context.paths, folder: "", name: "home", lang: currentLang(context.env) };
}

function notesScope(context: ToolContext): FileScope {
  return {
    paths: context.paths,
    folder: NOTES_FOLDER,
    name: "notes",
    lang: currentLang(context.env),
  };
}

/** The note's path relative to the home; the name alone can never leave the folder. */
function noteFile(name: string, context: ToolContext): string {
  const clean = name.replace(/\.md$/, "");
  if (!NOTE_NAME.test(clean) || clean.includes("..")) {
    throw new TypeError(
      inputRefusals(currentLang(context.env), "bad_note_name", { name: shown(name, 100) }),
    );
  }
  return `${NOTES_FOLDER}/${clean}.md`;
}
