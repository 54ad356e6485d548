/**
 * The files `agent cloud` moves, as they are in `AGENT_HOME`: `agent.toml`,
 * `persona/persona.md`, `persona/user.md` (only when asked), `persona/net.md`, and the
 * sub-agent files directly in `persona/subs/` and the job files directly in
 * `persona/jobs/`, with plain names. Folders, symbolic links and other names there are
 * skipped and named. `.env` is never one of them.
 *
 * @module
 */
import { CLOUD_FOLDERS, FIXED_CLOUD_FILES, SUB_FILE_PATTERN, SUBS_PREFIX } from "@agent/net";

/** A local file of the set. */
export interface LocalFile {
  /** Its cloud name, e.g. `persona/subs/writer.md`. */
  name: string;
  /** Its path on disk. */
  path: string;
  size: number;
}

/** Why an entry of `persona/subs/` is not moved. */
export type CloudSkipReason = "folder" | "link" | "name";

/** The set as found on disk. */
export interface LocalFileSet {
  /** Present files, user.md included when present (the caller decides). */
  files: LocalFile[];
  /** Entries of `persona/subs/` that are not moved. */
  skipped: { name: string; why: CloudSkipReason }[];
  /** Whether `persona/subs/` exists (then sub-agent files gone locally are deleted remotely). */
  subsFolder: boolean;
  /** The folders of {@linkcode CLOUD_FOLDERS} that exist (`persona/subs/`, `persona/jobs/`). */
  folders: string[];
}

/** The cloud name of the private profile. */
export const USER_FILE = "persona/user.md";

/** Reads the set from `home`. */
export async function localFileSet(home: string): Promise<LocalFileSet> {
  const files: LocalFile[] = [];
  for (const name of FIXED_CLOUD_FILES) {
    const path = `${home}/${name}`;
    const info = await lstat(path);
    if (info?.isFile) files.push({ name, path, size: info.size });
  }
  const skipped: LocalFileSet["skipped"] = [];
  const folders: string[] = [];
  for (const prefix of CLOUD_FOLDERS) {
    const dir = `${home}/${prefix.slice(0, -1)}`;
    if ((await lstat(dir))?.isDirectory !== true) continue;
    folders.push(prefix);
    const entries = [];
    for await (const entry of Deno.readDir(dir)) entries.push(entry);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const name = `${prefix}${entry.name}`;
      if (entry.isSymlink) skipped.push({ name, why: "link" });
      else if (entry.isDirectory) skipped.push({ name: `${name}/`, why: "folder" });
      else if (!SUB_FILE_PATTERN.test(entry.name)) {
        // Dot files and other notes beside the definitions are the owner's business.
        skipped.push({ name, why: "name" });
      } else {
        const path = `${dir}/${entry.name}`;
        files.push({ name, path, size: (await Deno.lstat(path)).size });
      }
    }
  }
  return { files, skipped, subsFolder: folders.includes(SUBS_PREFIX), folders };
}

async function lstat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** What a push uploads and deletes, given the set, the spine's names and the user choice. */
export function planPush(
  local: LocalFileSet,
  remoteNames: readonly string[],
  includeUser: boolean,
): { upload: LocalFile[]; remove: string[] } {
  const upload = local.files.filter((f) => f.name !== USER_FILE || includeUser);
  const localNames = new Set(local.files.map((f) => f.name));
  // Files gone from a folder that exists here go from the spine too.
  const remove = remoteNames.filter((n) =>
    local.folders.some((prefix) => n.startsWith(prefix)) && !localNames.has(n)
  );
  return { upload, remove };
}
