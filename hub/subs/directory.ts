/**
 * The sub-agent directory built from `persona/subs/<name>.md` files (see
 * {@linkcode parseSubAgentFile} for the front matter). It answers the hub's two
 * questions: is `/<name>` a public sub-agent (a contact wrote to it), and which
 * public sub-agents exist (the universe report). Files are read on every question,
 * so an edited definition takes effect without restarting the hub.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { AgentPaths } from "../paths.ts";
import {
  type DefinitionProblem,
  parseSubAgentFile,
  SUB_FILE_PATTERN,
  SUB_NAME_PATTERN,
} from "./definition.ts";
import { isUserFile } from "./user_file.ts";
import { errorMessage } from "@agent/net/common";

/** A public sub-agent, as the spec's directory returns it. */
export interface SubAgent {
  /** Its name, matching `^[a-z][a-z0-9-]{1,30}$`. */
  name: string;
  /** What it does (one line, may be empty). */
  about: string;
  /** The model role that answers for it. */
  role: string;
  /** The file holding its persona text (after any front matter). */
  persona_file: string;
  /** Its public note: the `## User` section of its network turns. */
  public_note_file: string;
}

/**
 * A sub-agent directory: the object an `agent.subs` factory returns.
 * Methods may answer synchronously or with a promise; callers await both.
 */
export interface SubAgentDirectory {
  /** The public sub-agent `name`, or `undefined` when unknown, private or invalid. */
  public(name: string): SubAgent | undefined | Promise<SubAgent | undefined>;
  /** Every public sub-agent, ordered by name. */
  public_subs(): SubAgent[] | Promise<SubAgent[]>;
}

/** The `agent.subs` entry point: a factory taking the configuration. */
export type SubAgentFactory = (
  config: AgentConfig,
  paths: AgentPaths,
) => SubAgentDirectory | Promise<SubAgentDirectory>;

/** Why a definition is not a usable public sub-agent (besides being private). */
export type EntryProblem =
  | DefinitionProblem
  | { code: "bad_name" }
  | { code: "unknown_role"; role: string }
  | { code: "note_missing"; file: string }
  | { code: "user_md"; which: "persona" | "note" }
  | { code: "unreadable"; detail: string };

/** One definition file as `agent doctor` or `agent net status` would list it. */
export interface SubAgentEntry {
  /** The file name without `.md`. */
  name: string;
  /** The definition file. */
  file: string;
  /** Whether it is a valid public sub-agent. */
  public: boolean;
  /** The sub-agent, when valid (public or private). */
  sub?: SubAgent;
  /** What makes it invalid. */
  problem?: EntryProblem;
}

/** The role a sub-agent uses when its front matter names none. */
export const DEFAULT_SUB_ROLE = "brain";

/** A {@linkcode SubAgentDirectory} over `persona/subs/`. */
export class PersonaSubAgentDirectory implements SubAgentDirectory {
  #config: AgentConfig;
  #paths: AgentPaths;

  /** A directory over `<paths.personaDir>/subs`, with roles checked against `config`. */
  constructor(config: AgentConfig, paths: AgentPaths) {
    this.#config = config;
    this.#paths = paths;
  }

  /** `<personaDir>/subs` */
  get dir(): string {
    return `${this.#paths.personaDir}/subs`;
  }

  /** The public sub-agent `name`, or `undefined` when unknown, private or invalid. */
  async public(name: string): Promise<SubAgent | undefined> {
    if (typeof name !== "string" || !SUB_NAME_PATTERN.test(name)) return undefined;
    const entry = await this.#entry(name, `${this.dir}/${name}.md`);
    return entry?.public ? entry.sub : undefined;
  }

  /** Every public sub-agent, ordered by name. */
  async public_subs(): Promise<SubAgent[]> {
    const subs: SubAgent[] = [];
    for (const entry of await this.entries()) if (entry.public && entry.sub) subs.push(entry.sub);
    return subs;
  }

  /**
   * Every definition file (a `.md` file in `persona/subs/` starting with front matter),
   * public, private or invalid, ordered by name. Files without front matter are notes.
   */
  async entries(): Promise<SubAgentEntry[]> {
    const names: string[] = [];
    try {
      for await (const item of Deno.readDir(this.dir)) {
        if (!item.name.endsWith(".md") || item.isDirectory) continue;
        names.push(item.name.slice(0, -3));
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    names.sort();
    const entries: SubAgentEntry[] = [];
    for (const name of names) {
      const entry = await this.#entry(name, `${this.dir}/${name}.md`);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }

  async #entry(name: string, file: string): Promise<SubAgentEntry | undefined> {
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      if (error instanceof Deno.errors.IsADirectory) return undefined;
      const detail = errorMessage(error);
      return { name, file, public: false, problem: { code: "unreadable", detail } };
    }
    const parsed = parseSubAgentFile(text);
    if (!parsed.ok) {
      // Without front matter the file is a note (or anything else), not a definition.
      if (parsed.problem.code === "no_front_matter") return undefined;
      return { name, file, public: false, problem: parsed.problem };
    }
    const invalid = (problem: EntryProblem): SubAgentEntry => ({
      name,
      file,
      public: false,
      problem,
    });
    if (!SUB_NAME_PATTERN.test(name) || !SUB_FILE_PATTERN.test(`${name}.md`)) {
      return invalid({ code: "bad_name" });
    }
    const def = parsed.definition;
    const role = def.role ?? DEFAULT_SUB_ROLE;
    if (!Object.hasOwn(this.#config.models.roles, role)) {
      return invalid({ code: "unknown_role", role });
    }
    let note: string;
    if (def.public_note !== undefined) {
      note = `${this.dir}/${def.public_note}`;
      if (!await isFile(note)) return invalid({ code: "note_missing", file: note });
    } else note = `${this.#paths.personaDir}/${this.#config.net.public_note}`;
    if (await isUserFile(file, this.#paths)) return invalid({ code: "user_md", which: "persona" });
    if (await isUserFile(note, this.#paths)) return invalid({ code: "user_md", which: "note" });
    const sub: SubAgent = {
      name,
      about: def.about,
      role,
      persona_file: file,
      public_note_file: note,
    };
    return { name, file, public: def.public, sub };
  }
}

/**
 * The built-in `agent.subs` factory: a directory over `persona/subs/`.
 *
 * @example
 * ```ts
 * import { loadSubAgentDirectory } from "./directory.ts";
 * import { defaultConfig } from "../config/parse.ts";
 * import { resolvePaths } from "../paths.ts";
 * const home = await Deno.makeTempDir();
 * const paths = resolvePaths({ home, env: {} });
 * await Deno.mkdir(`${paths.personaDir}/subs`, { recursive: true });
 * await Deno.writeTextFile(
 *   `${paths.personaDir}/subs/chess.md`,
 *   "---\nabout: Chess openings\nrole: fast\npublic: true\n---\nYou know chess.\n",
 * );
 * const dir = loadSubAgentDirectory(defaultConfig(), paths);
 * const chess = await dir.public("chess");
 * await Deno.remove(home, { recursive: true });
 * if (chess?.role !== "fast" || !chess.public_note_file.endsWith("/persona/net.md")) {
 *   throw new Error("not found");
 * }
 * ```
 */
export function loadSubAgentDirectory(
  config: AgentConfig,
  paths: AgentPaths,
): PersonaSubAgentDirectory {
  return new PersonaSubAgentDirectory(config, paths);
}

/** The public sub-agents as a universe report lists them: at most 20, `about` cut to 200. */
export function reportSubs(subs: readonly SubAgent[]): { name: string; about: string }[] {
  return [...subs]
    .filter((s) => SUB_NAME_PATTERN.test(s.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, 20)
    .map((s) => ({ name: s.name, about: Array.from(s.about).slice(0, 200).join("") }));
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await Deno.stat(file)).isFile;
  } catch {
    return false;
  }
}
