/**
 * A sub-agent's derived persona: the header `You are /<name>, a specialist of your
 * owner's agent: <about>.` then the persona text of its definition. Network turns of
 * the sub-agent use it in place of `persona/persona.md`.
 *
 * @module
 */
import type { AgentPaths } from "../paths.ts";
import { cleanText, personaBody } from "./definition.ts";
import type { SubAgent } from "./directory.ts";

/**
 * The derived persona text of `sub`, given the text of its persona file.
 *
 * @example
 * ```ts
 * import { derivedPersona } from "./persona.ts";
 * const text = derivedPersona(
 *   { name: "chess", about: "Chess openings" },
 *   "---\npublic: true\n---\nYou know chess.",
 * );
 * if (text !== "You are /chess, a specialist of your owner's agent: Chess openings.\n\nYou know chess.\n") {
 *   throw new Error(text);
 * }
 * ```
 */
export function derivedPersona(sub: Pick<SubAgent, "name" | "about">, personaText: string): string {
  // A trailing full stop in `about` would double the header's own.
  const about = cleanText(sub.about).replace(/[.\s]+$/, "");
  const header = about === ""
    ? `You are /${sub.name}, a specialist of your owner's agent.`
    : `You are /${sub.name}, a specialist of your owner's agent: ${about}.`;
  const body = personaBody(personaText);
  return body === "" ? `${header}\n` : `${header}\n\n${body}\n`;
}

/**
 * Writes the derived persona of `sub` to `<dataDir>/subs/<name>.persona.md` (mode
 * 0600, directory 0700, replaced atomically and only when it changed) and returns
 * the file, for the prompt builder to read.
 */
export async function writeDerivedPersona(sub: SubAgent, paths: AgentPaths): Promise<string> {
  const text = derivedPersona(sub, await Deno.readTextFile(sub.persona_file));
  const dir = `${paths.dataDir}/subs`;
  const file = `${dir}/${sub.name}.persona.md`;
  let current: string | undefined;
  try {
    current = await Deno.readTextFile(file);
  } catch { /* first turn of this sub-agent */ }
  if (current === text) return file;
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
    await Deno.rename(temp, file);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  return file;
}
