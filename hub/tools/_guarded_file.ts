/**
 * The one door through which model-callable tools read, write and list files. Every
 * path goes through {@linkcode checkPath}; then, since Deno cannot open with
 * `O_NOFOLLOW`, the file is opened and its `fstat` compared with the `lstat` the check
 * saw: a file swapped for a link (or given a second name) between check and open is
 * refused, and the bytes come through that one handle. A file whose text holds one of
 * the keys in `.env` (a value of 12 characters or more) is refused too, whatever its
 * name: secrets are kept by content, not only by name. Writes go to a fresh temporary
 * file (`O_EXCL`, which never follows a link) renamed over the target, and the result is
 * checked to be that file.
 *
 * @module
 */
import {
  asRefusal,
  type CheckedPath,
  checkPath,
  FileRefusedError,
  type FileScope,
  type FileVerb,
  type RefusalReason,
  refuseUnlessPlain,
  sameFile,
} from "./_guarded_path.ts";
import { readEnvFile } from "../env_file.ts";

/** Values of `.env` at least this long are looked for in what a tool reads. */
export const SECRET_VALUE_MIN = 12;

export { type CheckedPath, checkPath, FileRefusedError, type FileScope } from "./_guarded_path.ts";

/** A file's text, cut to a cap. */
export interface ReadText {
  text: string;
  truncated: boolean;
}

/**
 * Reads `path` for a tool of `scope`: at most `maxBytes` bytes, through a handle whose
 * file is the one the checks passed. Refused when the text (read up to one byte past
 * the cap) holds a value of `.env` of {@linkcode SECRET_VALUE_MIN} characters or more.
 *
 * @example
 * ```ts
 * import { readGuarded } from "./_guarded_file.ts";
 * import { resolvePaths } from "../paths.ts";
 * const home = await Deno.makeTempDir();
 * try {
 *   await Deno.writeTextFile(`${home}/a.md`, "hello\n");
 *   const scope = { paths: resolvePaths({ home, env: {} }), folder: "", name: "home" } as const;
 *   const read = await readGuarded("./a.md", scope, 3);
 *   if (read.text !== "hel" || !read.truncated) throw new Error(JSON.stringify(read));
 * } finally {
 *   await Deno.remove(home, { recursive: true });
 * }
 * ```
 */
export async function readGuarded(
  path: string,
  scope: FileScope,
  maxBytes: number,
): Promise<ReadText> {
  const checked = await checkPath(path, scope);
  const secrets = await secretValues(scope);
  // Past the cap by the longest value, so a key cut in two at the cap is still found.
  const over = Math.max(0, ...secrets.map((value) => new TextEncoder().encode(value).length));
  const bytes = await readChecked(checked, { verb: "read", maxBytes: maxBytes + over });
  if (holdsAny(new TextDecoder().decode(bytes), secrets)) {
    throw refuser(checked, "read")("secret");
  }
  const truncated = bytes.length > maxBytes;
  return { text: new TextDecoder().decode(bytes.subarray(0, maxBytes)), truncated };
}

/** The values of `.env` long enough to be looked for (read once per call). */
async function secretValues(scope: FileScope): Promise<string[]> {
  let env: Record<string, string>;
  try {
    env = await readEnvFile(scope.paths.envFile);
  } catch {
    // An unreadable `.env` has no values to protect from this tool's reads.
    return [];
  }
  return Object.values(env).filter((value) => value.length >= SECRET_VALUE_MIN);
}

/**
 * Whether `text` holds any of `values`. Every value is looked for, a match or not, so
 * the time taken says nothing about which one matched or where.
 */
function holdsAny(text: string, values: readonly string[]): boolean {
  let found = false;
  for (const value of values) found = text.includes(value) || found;
  return found;
}

/** Options for {@linkcode readChecked}. */
export interface ReadCheckedOptions {
  /** The verb of refusals. @default "read" */
  verb?: FileVerb;
  /** Reads at most one byte more than this (to tell a cut). @default Infinity */
  maxBytes?: number;
}

/**
 * Opens a checked file and reads it, refusing it when the opened file is not the one
 * `lstat` saw (swapped for a link, given a second link, replaced) or is protected.
 */
export async function readChecked(
  checked: CheckedPath,
  options: ReadCheckedOptions = {},
): Promise<Uint8Array> {
  const refuse = refuser(checked, options.verb ?? "read");
  const limit = (options.maxBytes ?? Infinity) + 1;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(checked.path, { read: true });
  } catch (error) {
    throw asRefusal(error, refuse);
  }
  try {
    const opened = await file.stat();
    if (checked.info === undefined || !sameFile(opened, checked.info)) throw refuse("changed");
    refuseUnlessPlain(opened, refuse, checked.guard);
    const chunks: Uint8Array[] = [];
    let total = 0;
    const buffer = new Uint8Array(64 * 1024);
    while (total < limit) {
      const n = await file.read(buffer.subarray(0, Math.min(buffer.length, limit - total)));
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
      total += n;
    }
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return bytes;
  } catch (error) {
    throw asRefusal(error, refuse);
  } finally {
    file.close();
  }
}

/** Options for {@linkcode writeGuarded}. */
export interface WriteGuardedOptions {
  /** Add to the end of the current text (a missing file counts as empty). @default false */
  append?: boolean;
}

/**
 * Creates or replaces `path` (its folder is created, mode 0700, when missing) with
 * `text` through a temporary file renamed over it, mode 0600. With `append`, the current
 * text is read through {@linkcode readChecked} first and joined on one newline.
 */
export async function writeGuarded(
  path: string,
  scope: FileScope,
  text: string,
  options: WriteGuardedOptions = {},
): Promise<void> {
  const verb = options.append ? "append" : "write";
  await ensureFolder(scope, verb);
  const checked = await checkPath(path, scope, { verb, mayBeMissing: true });
  const refuse = refuser(checked, verb);
  let content = text;
  if (options.append && checked.info !== undefined) {
    const before = new TextDecoder().decode(await readChecked(checked, { verb }));
    if (before !== "") content = `${before.replace(/\n*$/, "\n")}${text}`;
  }
  if (!content.endsWith("\n")) content += "\n";
  const temp = `${checked.path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  let written: Deno.FileInfo;
  try {
    const file = await Deno.open(temp, { write: true, createNew: true, mode: 0o600 });
    try {
      const bytes = new TextEncoder().encode(content);
      let at = 0;
      while (at < bytes.length) at += await file.write(bytes.subarray(at));
      await file.sync();
      written = await file.stat();
    } finally {
      file.close();
    }
    // rename() replaces whatever name is there (a link planted since the check is
    // replaced, never followed); what lands must be the file just written.
    await Deno.rename(temp, checked.path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw asRefusal(error, refuse);
  }
  const landed = await Deno.lstat(checked.path).catch(() => undefined);
  if (landed === undefined || !sameFile(landed, written)) throw refuse("changed");
  refuseUnlessPlain(landed, refuse, checked.guard);
}

/** One plain file of a folder, as {@linkcode listGuarded} reports it. */
export interface ListedFile {
  name: string;
  bytes: number;
  mtime: Date | null;
}

/**
 * The plain files (regular, one link, not protected) directly in the scope's folder;
 * links, folders and anything else are left out. A missing folder lists as empty.
 */
export async function listGuarded(scope: FileScope): Promise<ListedFile[]> {
  const folder = await checkPath(scope.folder === "" ? "." : scope.folder, scope, {
    verb: "list",
    mayBeMissing: true,
    directory: true,
  });
  if (folder.info === undefined) return [];
  const files: ListedFile[] = [];
  try {
    for await (const entry of Deno.readDir(folder.path)) {
      let info: Deno.FileInfo;
      try {
        info = await Deno.lstat(`${folder.path}/${entry.name}`);
        refuseUnlessPlain(
          info,
          (reason) => new FileRefusedError(reason, place(folder, "list")),
          folder.guard,
        );
      } catch {
        continue;
      }
      files.push({ name: entry.name, bytes: info.size, mtime: info.mtime });
    }
  } catch (error) {
    throw asRefusal(error, refuser(folder, "list"));
  }
  return files;
}

/** Creates the scope's folder (0700) when it is missing; refuses one that is a link. */
async function ensureFolder(scope: FileScope, verb: FileVerb): Promise<void> {
  if (scope.folder === "") return;
  const folder = await checkPath(scope.folder, scope, {
    verb,
    mayBeMissing: true,
    directory: true,
  });
  if (folder.info !== undefined) return;
  try {
    await Deno.mkdir(folder.path, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      throw asRefusal(error, refuser(folder, verb));
    }
  }
}

function place(checked: CheckedPath, verb: FileVerb) {
  return { verb, label: checked.label, scope: checked.scope.name, lang: checked.scope.lang };
}

function refuser(checked: CheckedPath, verb: FileVerb): (reason: RefusalReason) => Error {
  return (reason) => new FileRefusedError(reason, place(checked, verb));
}
