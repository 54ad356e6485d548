/**
 * Guards `persona/user.md`: it never enters a network turn's prompt, so a persona or
 * public note that is that file (by name, symbolic link or hard link) is refused.
 *
 * @module
 */
import type { AgentPaths } from "../paths.ts";

/** The owner's private `persona/user.md`. */
export function userFileOf(paths: AgentPaths): string {
  return `${paths.personaDir}/user.md`;
}

/**
 * Whether `file` is `persona/user.md`: the same path once both are resolved, or the
 * same file on disk (a symbolic or hard link to it).
 *
 * @example
 * ```ts
 * import { isUserFile } from "./user_file.ts";
 * import { resolvePaths } from "../paths.ts";
 * const home = await Deno.makeTempDir();
 * const paths = resolvePaths({ home, env: {} });
 * await Deno.mkdir(paths.personaDir, { recursive: true });
 * await Deno.writeTextFile(`${paths.personaDir}/user.md`, "private");
 * await Deno.writeTextFile(`${paths.personaDir}/net.md`, "public");
 * const user = await isUserFile(`${paths.personaDir}/subs/../user.md`, paths);
 * const net = await isUserFile(`${paths.personaDir}/net.md`, paths);
 * await Deno.remove(home, { recursive: true });
 * if (!user || net) throw new Error();
 * ```
 */
export async function isUserFile(file: string, paths: AgentPaths): Promise<boolean> {
  const user = userFileOf(paths);
  if (normalise(file) === normalise(user)) return true;
  const [a, b] = await Promise.all([statOrUndefined(file), statOrUndefined(user)]);
  if (a === undefined || b === undefined) return false;
  if (a.ino !== null && b.ino !== null && a.dev === b.dev && a.ino === b.ino) return true;
  const [ra, rb] = await Promise.all([realOrSame(file), realOrSame(user)]);
  return ra === rb;
}

async function statOrUndefined(file: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(file);
  } catch {
    return undefined;
  }
}

async function realOrSame(file: string): Promise<string> {
  try {
    return await Deno.realPath(file);
  } catch {
    return normalise(file);
  }
}

/** Resolves `.` and `..` segments and repeated slashes without touching the disk. */
function normalise(file: string): string {
  const out: string[] = [];
  for (const part of file.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return (file.startsWith("/") ? "/" : "") + out.join("/");
}
