/**
 * The system prompt: the persona (`persona/persona.md`), the user section
 * (`persona/user.md`, or the public note `persona/net.md` in network turns) and the
 * `## Now` block (time, profile, host role, budgets).
 *
 * @module
 */
import { formatTime, TIME_ZONE } from "../i18n.ts";

/** What the `## Now` block says. */
export interface NowContext {
  /** Epoch ms of the turn. */
  nowMs: number;
  /** `AGENT_PROFILE`, else `home`. */
  profile: string;
  /**
   * Where this agent runs, e.g. `local machine (host.lan)`; network turns pass
   * `not shared with other agents`.
   */
  hostRole: string;
  /**
   * The `Budget: ...` text from the ledger (one local query per role), `Budget: unknown.`
   * without budgets, or `undefined` to leave budgets out (network turns).
   */
  budgetLine?: string | undefined;
}

/** The files the prompt is made of. */
export interface PersonaFiles {
  /** `persona/persona.md` */
  personaFile: string;
  /** `persona/user.md`, for the owner's own channels. */
  userFile?: string | undefined;
  /** The public note (`persona/net.md`) in place of `user.md`, for network turns. */
  publicNoteFile?: string | undefined;
}

/** The persona used when `persona.md` is missing. */
export const DEFAULT_PERSONA =
  "You are the owner's personal agent. Answer briefly and plainly, in the language the owner writes in.";

/**
 * Builds the system prompt. A missing persona file falls back to a one-line persona;
 * a missing user file or note leaves the `## User` section out. With a public note,
 * `user.md` is never read.
 */
export async function buildSystemPrompt(files: PersonaFiles, now: NowContext): Promise<string> {
  const parts = await buildSystemParts(files, now);
  return `${parts.stable}\n\n${parts.now}`;
}

/**
 * The system prompt in two parts: what stays the same from turn to turn (persona and
 * user section) and the `## Now` block, which changes every minute and after every
 * priced call. Joined they are {@linkcode buildSystemPrompt}'s text; apart, the stable
 * part can be a prompt-cache prefix that later turns hit.
 */
export async function buildSystemParts(
  files: PersonaFiles,
  now: NowContext,
): Promise<SystemPromptParts> {
  const persona = (await readOptional(files.personaFile))?.trim() || DEFAULT_PERSONA;
  const userSource = files.publicNoteFile ?? files.userFile;
  const user = userSource === undefined ? undefined : (await readOptional(userSource))?.trim();
  return { stable: user ? `${persona}\n\n## User\n\n${user}` : persona, now: `${nowBlock(now)}\n` };
}

/** The system prompt split where prompt caching needs it. */
export interface SystemPromptParts {
  /** Persona and user section (or public note). */
  stable: string;
  /** The `## Now` block, ending with a newline. */
  now: string;
}

/**
 * The `## Now` block.
 *
 * @example
 * ```ts
 * import { nowBlock } from "./prompt.ts";
 * const text = nowBlock({ nowMs: Date.UTC(2026, 0, 1, 9), profile: "home", hostRole: "x", budgetLine: "Budget: unknown." });
 * if (!text.includes("- Time: 01.01.2026 12:00 (Europe/Istanbul)") || !text.endsWith("- Budget: unknown.")) throw new Error(text);
 * ```
 */
export function nowBlock(now: NowContext): string {
  const lines = [
    "## Now",
    "",
    `- Time: ${formatTime(now.nowMs)} (${TIME_ZONE})`,
    `- Profile: ${now.profile}`,
    `- Host role: ${now.hostRole}`,
  ];
  if (now.budgetLine !== undefined) lines.push(`- ${now.budgetLine}`);
  return lines.join("\n");
}

/** This machine's role line for the owner's channels: `local machine (<hostname>)` or the cloud container. */
export function localHostRole(env: Readonly<Record<string, string | undefined>>): string {
  let host = "";
  try {
    host = Deno.hostname();
  } catch { /* no sys permission: leave the name out */ }
  const where = env.AGENT_MODE === "cloud" ? "cloud container" : "local machine";
  return host ? `${where} (${host})` : where;
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
