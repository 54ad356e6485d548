/**
 * Whether a home's data folder can be written, asked before a hub, chat or the TUI opens
 * anything. Apart from `run.ts` (the hub's loop, which loads the control API and the
 * dashboard) so `agent chat` can ask without loading them.
 *
 * @module
 */
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";

/** Whether `error` says a folder cannot be written (a read-only file system, no permission). */
export function cannotWrite(error: unknown): boolean {
  if (error instanceof Deno.errors.PermissionDenied) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EROFS" || code === "EACCES" || code === "EPERM") return true;
  return /read-only file system|os error 30|permission denied|os error 13/i.test(
    error instanceof Error ? error.message : "",
  );
}

/**
 * The sentence for a home whose data folder cannot be written (a read-only home), or
 * `undefined` when it can: checked before a hub (or chat, or the TUI: `command`) opens
 * anything, so the owner reads one sentence rather than an OS error per file.
 */
export function unwritableHome(
  paths: AgentPaths,
  lang: Lang,
  command?: "agent chat" | "agent tui",
): string | undefined {
  const probe = `${paths.dataDir}/.write-check-${Deno.pid}`;
  try {
    Deno.mkdirSync(paths.dataDir, { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(probe, "");
    Deno.removeSync(probe);
    return undefined;
  } catch (error) {
    if (!cannotWrite(error)) throw error;
    return command === undefined
      ? t(lang, "read_only", { dir: paths.dataDir })
      : t(lang, "read_only_chat", { dir: paths.dataDir, command });
  }
}
