/**
 * The job files in `persona/jobs/`: read them all (a file that cannot be used is
 * reported by its sentence and left out), write one, remove one. No job exists
 * until the owner adds a file.
 *
 * @module
 */
import { writeFileAtomic } from "../atomic_file.ts";
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { AgentPaths } from "../paths.ts";
import { type JobDefinition, JobFileError, jobFileText, parseJobFile } from "./definition.ts";

/** `<home>/persona/jobs`. */
export function jobsDir(paths: AgentPaths): string {
  return `${paths.personaDir}/jobs`;
}

/** `<home>/persona/jobs/<name>.md`. */
export function jobFile(paths: AgentPaths, name: string): string {
  return `${jobsDir(paths)}/${name}.md`;
}

/** The `<data>/jobs.sqlite3` job store. */
export function jobStoreFile(paths: AgentPaths): string {
  return `${paths.dataDir}/jobs.sqlite3`;
}

/** What {@linkcode loadJobs} found. */
export interface LoadedJobs {
  /** The usable jobs, by name order. */
  jobs: JobDefinition[];
  /** One sentence per file that cannot be used. */
  errors: string[];
}

/** Reads every `*.md` in `persona/jobs/` (none when the folder does not exist). */
export async function loadJobs(
  paths: AgentPaths,
  config: AgentConfig,
  lang: Lang,
): Promise<LoadedJobs> {
  const jobs: JobDefinition[] = [];
  const errors: string[] = [];
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(jobsDir(paths))) {
      if (entry.isFile && entry.name.endsWith(".md")) names.push(entry.name.slice(0, -3));
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { jobs, errors };
    throw error;
  }
  names.sort();
  const roles = Object.keys(config.models.roles);
  for (const name of names) {
    const file = `persona/jobs/${name}.md`;
    try {
      const text = await Deno.readTextFile(jobFile(paths, name));
      jobs.push(parseJobFile(name, text, { file, roles, lang }));
    } catch (error) {
      errors.push(
        error instanceof JobFileError
          ? error.message
          : `${file}: cannot be read: ${error instanceof Error ? error.message : error}.`,
      );
    }
  }
  return { jobs, errors };
}

/** Writes `job`'s file (mode 0600, atomically). */
export async function writeJob(paths: AgentPaths, job: JobDefinition): Promise<void> {
  await Deno.mkdir(jobsDir(paths), { recursive: true, mode: 0o700 });
  await writeFileAtomic(jobFile(paths, job.name), jobFileText(job), { mode: 0o600 });
}

/** Removes `name`'s file; `false` when there was none. */
export async function removeJob(paths: AgentPaths, name: string): Promise<boolean> {
  try {
    await Deno.remove(jobFile(paths, name));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Whether `name` has a file. */
export async function jobExists(paths: AgentPaths, name: string): Promise<boolean> {
  try {
    await Deno.stat(jobFile(paths, name));
    return true;
  } catch {
    return false;
  }
}
