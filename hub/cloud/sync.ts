/**
 * `agent cloud push` and `agent cloud pull`: the file set between `AGENT_HOME` and the
 * spine's file routes.
 *
 * @module
 */
import { CLOUD_FOLDERS, isCloudFileName } from "@agent/net";
import { readTextIfAny, writeFileAtomic } from "../atomic_file.ts";
import { formatTime, type Lang } from "../i18n.ts";
import { UserError } from "../user_error.ts";
import { t } from "./_messages.ts";
import { withSeparators } from "../spend/usd_format.ts";
import { localFileSet, planPush, USER_FILE } from "./file_set.ts";
import type { CloudSpine } from "./spine_files.ts";

/** Options of {@linkcode pushFiles}. */
export interface PushOptions {
  spine: CloudSpine;
  home: string;
  lang: Lang;
  /** `--include-user`. */
  includeUser: boolean;
  /** `-y/--yes`: no questions. */
  yes: boolean;
  /** Asks a yes/no question; `undefined` without a terminal. */
  ask: ((question: string) => Promise<boolean>) | undefined;
  out(line: string): void;
}

/** Pushes the set; returns the exit code (0, or 1 when nothing was pushed on a "no"). */
export async function pushFiles(options: PushOptions): Promise<number> {
  const { spine, lang, out } = options;
  const local = await localFileSet(options.home);
  for (const skip of local.skipped) {
    out(t(lang, "push_skipped", { name: skip.name, why: t(lang, `skip_${skip.why}`) }));
  }
  if (local.files.filter((f) => f.name !== USER_FILE).length === 0) {
    throw new UserError(t(lang, "push_nothing", { home: options.home }));
  }
  if (!options.yes && options.ask === undefined) throw new UserError(t(lang, "no_terminal"), 2);
  let includeUser = options.includeUser;
  const hasUser = local.files.some((f) => f.name === USER_FILE);
  if (hasUser && !includeUser && !options.yes && options.ask) {
    includeUser = await options.ask(t(lang, "ask_user"));
  }
  const remote = (await spine.files()).files.map((f) => f.name);
  const plan = planPush(local, remote, includeUser);
  out(t(lang, "push_heading", { url: spine.url }));
  for (const line of fileLines(plan.upload, lang)) out(line);
  if (plan.remove.length > 0) {
    out(t(lang, "push_delete_heading"));
    for (const name of plan.remove) out(`  ${name}`);
  }
  if (hasUser && !includeUser) out(t(lang, "push_user_left"));
  if (!options.yes && options.ask && !(await options.ask(t(lang, "ask_go")))) {
    out(t(lang, "cancelled"));
    return 1;
  }
  for (const file of plan.upload) {
    await spine.write(file.name, await Deno.readTextFile(file.path));
  }
  for (const name of plan.remove) await spine.remove(name);
  out(t(lang, "pushed", {
    count: plan.upload.length,
    deleted: plan.remove.length > 0 ? t(lang, "pushed_deleted", { count: plan.remove.length }) : "",
  }));
  return 0;
}

/** Options of {@linkcode pullFiles}. */
export interface PullOptions {
  spine: CloudSpine;
  home: string;
  lang: Lang;
  /** Replace differing local files. */
  force: boolean;
  /** Remove local sub-agent files the spine no longer holds (`agent cloud run`). */
  removeGoneSubs?: boolean;
  out(line: string): void;
}

/** What a pull did. */
export interface PullReport {
  written: string[];
  kept: string[];
  removed: string[];
  /** The spine's files (its `agent.toml` text among them, when it holds one). */
  texts: Map<string, string>;
}

/** Pulls the set into `home`; never deletes unless `removeGoneSubs`. */
export async function pullFiles(options: PullOptions): Promise<PullReport> {
  const { spine, lang, out, home } = options;
  const { files, outside } = await spine.files();
  for (const name of outside) out(t(lang, "pull_outside", { name }));
  const report: PullReport = { written: [], kept: [], removed: [], texts: new Map() };
  for (const file of files) {
    const text = await spine.read(file.name);
    if (text === undefined) continue;
    report.texts.set(file.name, text);
    const path = `${home}/${file.name}`;
    const mine = await readTextIfAny(path);
    if (mine === text) {
      out(t(lang, "pull_same", { name: file.name }));
      continue;
    }
    if (mine !== undefined && !options.force) {
      report.kept.push(file.name);
      out(t(lang, "pull_kept", { name: file.name }));
      continue;
    }
    await writeFileAtomic(path, text, { mode: 0o600, dirMode: 0o700 });
    report.written.push(file.name);
    out(t(lang, "pull_written", { name: file.name }));
  }
  if (options.removeGoneSubs) {
    const held = new Set(files.map((f) => f.name));
    for (const local of (await localFileSet(home)).files) {
      if (
        CLOUD_FOLDERS.some((prefix) => local.name.startsWith(prefix)) &&
        !held.has(local.name) && isCloudFileName(local.name)
      ) {
        await Deno.remove(local.path);
        report.removed.push(local.name);
        out(t(lang, "pull_removed", { name: local.name }));
      }
    }
  }
  out(t(lang, "pull_done", { count: report.written.length, home }));
  return report;
}

/** The brain's `/health` in one line: its version and whether its hub runs. */
function brainLine(health: unknown, lang: Lang): string {
  const h = (health ?? {}) as { version?: unknown; hub?: { uptime_seconds?: unknown } | null };
  const uptime = h.hub?.uptime_seconds;
  return t(lang, typeof uptime === "number" ? "brain_running" : "brain_starting", {
    version: String(h.version ?? "?"),
    uptime: typeof uptime === "number" ? uptime : 0,
  });
}

/** Lines of `name  size` with the names padded to one width. */
export function fileLines(
  files: readonly { name: string; size: number }[],
  lang: Lang,
): string[] {
  const width = Math.max(0, ...files.map((f) => f.name.length));
  return files.map((f) => `  ${f.name.padEnd(width)}  ${size(f.size, lang)}`);
}

/** A size for people, in `lang`'s separators: bytes, KiB or MiB (`1,5 KiB` in Turkish). */
export function size(bytes: number, lang: Lang): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${withSeparators((bytes / 1024).toFixed(1), lang)} KiB`;
  return `${withSeparators((bytes / 1024 / 1024).toFixed(1), lang)} MiB`;
}

/** `agent cloud status`: the spine's health and mode, its files, the brain's health. */
export async function cloudStatus(
  spine: CloudSpine,
  lang: Lang,
  out: (line: string) => void,
): Promise<number> {
  const health = await spine.health();
  out(t(lang, "status_spine", {
    url: spine.url,
    mode: health.mode,
    address: health.address,
    version: health.version,
  }));
  if (health.mode !== "cloud") {
    out(t(lang, "not_cloud", { url: spine.url, mode: health.mode }));
    return 1;
  }
  const { files } = await spine.files();
  if (files.length === 0) out(t(lang, "status_no_files"));
  else {
    out(t(lang, "status_files"));
    const lines = fileLines(files, lang);
    files.forEach((file, i) => out(`${lines[i]}  ${formatTime(file.updated_at * 1000)}`));
  }
  out(t(lang, "status_brain_waiting"));
  const brain = await spine.brain();
  out(t(lang, "status_brain", { detail: brain.ok ? brainLine(brain.health, lang) : brain.detail }));
  return 0;
}
