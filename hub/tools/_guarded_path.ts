/**
 * Where a model-chosen path may lead. A prompt-injected model picks the paths the file
 * tools use, so every path is checked the same way whatever its spelling: resolved
 * against the home without touching the disk, kept inside the tool's own folder, never
 * a secret (`.env` and its copies, the identity) or the data directory by name, then
 * walked from the home's real path one component at a time with `lstat`, refusing
 * symbolic links, files with more than one hard link and anything whose device and
 * inode are those of a protected file or folder (which catches bind mounts and
 * case-insensitive spellings). {@linkcode checkPath} returns the `lstat` identity of
 * the file; the opener compares it with the opened file's (Deno has no `O_NOFOLLOW`).
 *
 * A refusal is one sentence in the owner's language naming the path as the model
 * spelt it (relative to the home): never an OS error, never the home's absolute path.
 *
 * @module
 */
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import { refusals, shown } from "./_messages.ts";
import { isSecretName } from "./_secret_name.ts";

/** Why a path was refused; each reason has one sentence, whatever the spelling. */
export type RefusalReason =
  | "outside"
  | "secret"
  | "data"
  | "symlink"
  | "hardlink"
  | "directory"
  | "special"
  | "missing"
  | "changed"
  | "denied"
  | "too_long"
  | "failed";

/** What a file tool was doing when it was refused. */
export type FileVerb = "read" | "write" | "append" | "list";

/** The folders file tools work in: the agent's home, or its `notes/`. */
export type ScopeName = "home" | "notes";

/** How long a path may be in a refusal (the model's own text, cut with "…"). */
const LABEL_MAX = 160;

/** A file tool refused a path; the message names the path as spelt inside the home. */
export class FileRefusedError extends Error {
  override name = "FileRefusedError";
  /** Why. */
  readonly reason: RefusalReason;
  /** The path, normalised: relative to the home when inside it, else as the model spelt it. */
  readonly label: string;

  /** `Cannot <verb> <label>: <sentence>` (in Turkish: `<label> okunamıyor: <sentence>`). */
  constructor(reason: RefusalReason, where: RefusalPlace) {
    const lang = where.lang ?? "en";
    const why = reason === "outside"
      ? refusals(lang, "outside", { scope: refusals(lang, `scope_${where.scope}`) })
      : refusals(lang, reason);
    super(refusals(lang, `refuse_${where.verb}`, { label: shown(where.label, LABEL_MAX), why }));
    this.reason = reason;
    this.label = where.label;
  }
}

/** What a refusal names. */
export interface RefusalPlace {
  verb: FileVerb;
  /** The path, normalised. */
  label: string;
  /** The tool's folder. */
  scope: ScopeName;
  /** @default "en" */
  lang?: Lang | undefined;
}

/** The folder a tool may use. */
export interface FileScope {
  paths: AgentPaths;
  /** The folder relative to the home: `""` for the home itself, `"notes"`. */
  folder: string;
  /** Which folder it is, for refusals (`the agent's home`, `the notes folder`). */
  name: ScopeName;
  /** The language of refusals. @default "en" */
  lang?: Lang | undefined;
}

/** A path that passed every check, with the identity `lstat` saw. */
export interface CheckedPath {
  /** The absolute path under the home's real path. */
  path: string;
  /** Relative to the home, for messages. */
  label: string;
  /** The `lstat` of the file; `undefined` when it does not exist yet (writes only). */
  info: Deno.FileInfo | undefined;
  /** Protected identities, to check the opened file against too. */
  guard: ProtectedSet;
  scope: FileScope;
}

/** Options for {@linkcode checkPath}. */
export interface CheckPathOptions {
  /** The verb of refusals. @default "read" */
  verb?: FileVerb;
  /** A missing last component passes (a note about to be created). @default false */
  mayBeMissing?: boolean;
  /** The path must be a directory rather than a file. @default false */
  directory?: boolean;
}

/**
 * Checks `path` (relative to the home, or absolute) for a tool of `scope`; throws a
 * {@linkcode FileRefusedError} naming the first check that failed.
 *
 * @example
 * ```ts
 * import { checkPath, FileRefusedError } from "./_guarded_path.ts";
 * import { resolvePaths } from "../paths.ts";
 * const home = await Deno.makeTempDir();
 * try {
 *   await Deno.writeTextFile(`${home}/.env`, "KEY=x\n");
 *   const scope = { paths: resolvePaths({ home, env: {} }), folder: "", name: "home" } as const;
 *   const refused = await checkPath("notes/../.env/", scope).catch((e) => e);
 *   if (!(refused instanceof FileRefusedError)) throw new Error(String(refused));
 *   if (refused.message !== "Cannot read .env: it holds secrets") throw refused;
 * } finally {
 *   await Deno.remove(home, { recursive: true });
 * }
 * ```
 */
export async function checkPath(
  path: string,
  scope: FileScope,
  options: CheckPathOptions = {},
): Promise<CheckedPath> {
  const verb = options.verb ?? "read";
  const home = scope.paths.home;
  const homeReal = await realOr(home, home);
  const wanted = normalise(path.startsWith("/") ? path : `${home}/${path}`);
  const rel = relativeTo(wanted, home) ?? relativeTo(wanted, homeReal);
  // Outside the home, the path as the model gave it: resolving a relative one would
  // tell the model where the home is.
  const label = rel === undefined
    ? (path.startsWith("/") ? wanted : normaliseRelative(path))
    : rel === ""
    ? "."
    : rel;
  const refuse = (reason: RefusalReason) =>
    new FileRefusedError(reason, { verb, label, scope: scope.name, lang: scope.lang });
  if (path.includes("\0")) throw refuse("missing");
  if (rel === undefined) throw refuse("outside");
  if (relativeTo(rel, scope.folder) === undefined) throw refuse("outside");
  const parts = rel === "" ? [] : rel.split("/");
  if (parts.some(isSecretName)) throw refuse("secret");
  const dataReal = await realOr(scope.paths.dataDir, scope.paths.dataDir);
  const real = parts.length === 0 ? homeReal : `${homeReal}/${rel}`;
  for (const data of [scope.paths.dataDir, dataReal]) {
    if (relativeTo(wanted, data) !== undefined || relativeTo(real, data) !== undefined) {
      throw refuse("data");
    }
  }
  const guard = await protectedSet(scope.paths);
  let info: Deno.FileInfo | undefined;
  try {
    info = await Deno.lstat(homeReal);
    for (let i = 0; i < parts.length; i++) {
      const last = i === parts.length - 1;
      try {
        info = await Deno.lstat(`${homeReal}/${parts.slice(0, i + 1).join("/")}`);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound) && !isNotADirectory(error)) throw error;
        if (last && options.mayBeMissing) {
          return { path: real, label, info: undefined, guard, scope };
        }
        throw refuse("missing");
      }
      if (info.isSymlink) throw refuse("symlink");
      const held = guard.reasonFor(info);
      if (held !== undefined) throw refuse(held);
      if (!last && !info.isDirectory) throw refuse("missing");
    }
  } catch (error) {
    throw asRefusal(error, refuse);
  }
  if (options.directory) {
    if (!info.isDirectory) throw refuse("missing");
  } else {
    refuseUnlessPlain(info, refuse);
  }
  // No component is a link, so the real path is `real`; resolving it again costs one
  // call and holds even where the walk's reasoning would not (a mount, a case fold).
  const resolved = await realOr(real, real);
  const folderReal = scope.folder === "" ? homeReal : `${homeReal}/${scope.folder}`;
  if (relativeTo(resolved, folderReal) === undefined) throw refuse("outside");
  if (relativeTo(resolved, dataReal) !== undefined) throw refuse("data");
  return { path: real, label, info, guard, scope };
}

/** Throws unless `info` is a regular file with one link and not a protected one. */
export function refuseUnlessPlain(
  info: Deno.FileInfo,
  refuse: (reason: RefusalReason) => Error,
  guard?: ProtectedSet,
): void {
  if (info.isSymlink) throw refuse("symlink");
  if (info.isDirectory) throw refuse("directory");
  if (!info.isFile || info.nlink === null || info.ino === null) throw refuse("special");
  if (info.nlink > 1) throw refuse("hardlink");
  const held = guard?.reasonFor(info);
  if (held !== undefined) throw refuse(held);
}

/** Whether two infos are the same file on disk. */
export function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.ino !== null && a.dev === b.dev && a.ino === b.ino;
}

/** The device and inode of every protected file and folder, with the reason each gives. */
export interface ProtectedSet {
  reasonFor(info: Deno.FileInfo): "secret" | "data" | undefined;
}

/**
 * `.env` and its siblings but `.env.example`, the identity, the data directory, the
 * folders and files directly in it (the ledger with its `-wal` and `-shm`, the hub's
 * token and lock) and in its `net/` folder. Followed through links: what counts is
 * the file the name leads to.
 */
async function protectedSet(paths: AgentPaths): Promise<ProtectedSet> {
  const ids = new Map<string, "secret" | "data">();
  const add = async (file: string, reason: "secret" | "data") => {
    try {
      const info = await Deno.stat(file);
      if (info.ino !== null) ids.set(`${info.dev}:${info.ino}`, reason);
    } catch { /* absent or unreadable: nothing to protect */ }
  };
  const names = async (dir: string) => {
    const found: string[] = [];
    try {
      for await (const entry of Deno.readDir(dir)) found.push(entry.name);
    } catch { /* absent */ }
    return found;
  };
  for (const name of await names(paths.home)) {
    if (isSecretName(name)) await add(`${paths.home}/${name}`, "secret");
  }
  await add(paths.envFile, "secret");
  await add(`${paths.netDir}/identity.json`, "secret");
  for (const suffix of ["", "-wal", "-shm", "-journal"]) {
    await add(`${paths.ledgerFile}${suffix}`, "data");
  }
  await add(paths.dataDir, "data");
  for (const name of await names(paths.dataDir)) await add(`${paths.dataDir}/${name}`, "data");
  for (const name of await names(paths.netDir)) {
    await add(`${paths.netDir}/${name}`, name === "identity.json" ? "secret" : "data");
  }
  return {
    reasonFor: (info) => info.ino === null ? undefined : ids.get(`${info.dev}:${info.ino}`),
  };
}

/**
 * The refusal for any error of the walk, the open or the write: an OS error's text
 * names the absolute path, so none reaches the model; it gets the sentence of the
 * reason instead (`failed` for one without its own).
 */
export function asRefusal(error: unknown, refuse: (reason: RefusalReason) => Error): Error {
  if (error instanceof FileRefusedError) return error;
  if (error instanceof Deno.errors.NotFound || isNotADirectory(error)) return refuse("missing");
  if (error instanceof Deno.errors.IsADirectory) return refuse("directory");
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return refuse("denied");
  }
  if (error instanceof Deno.errors.FilesystemLoop) return refuse("symlink");
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENAMETOOLONG") return refuse("too_long");
  if (code === "ELOOP") return refuse("symlink");
  return refuse("failed");
}

function isNotADirectory(error: unknown): boolean {
  return error instanceof Deno.errors.NotADirectory ||
    (error instanceof Error && /not a directory/i.test(error.message));
}

async function realOr(path: string, fallback: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return fallback;
  }
}

/** `path` relative to `dir` (`""` when equal), or `undefined` when outside it. */
function relativeTo(path: string, dir: string): string | undefined {
  if (dir === "" && !path.startsWith("/")) return path;
  if (path === dir) return "";
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

/**
 * A relative path with `.`, repeated slashes and `dir/..` pairs resolved, the leading
 * `..` kept: `../x/./y` stays `../x/y`.
 */
function normaliseRelative(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out.at(-1) !== "..") out.pop();
    else out.push(part);
  }
  return out.join("/") || ".";
}

/** Resolves `.`, `..`, repeated and trailing slashes without touching the disk. */
function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}
