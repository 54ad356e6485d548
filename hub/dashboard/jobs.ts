/**
 * The Jobs page's routes: the jobs with their next run, last outcome and spend, the
 * job log, and the buttons, each the same call as its `agent jobs` command (`list`,
 * `log`, `pause`, `resume`, `run`), so the job store and the runner decide, never this
 * page. A refusal (no such job) answers the command's own sentence.
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET jobs` | `agent jobs list --json` and the newest 50 rows of the log |
 * | `GET jobs/log?name=` | `agent jobs log NAME --json` |
 * | `POST jobs/pause` `{name}` or `{all: true}` | `agent jobs pause NAME` / `--all` |
 * | `POST jobs/resume` `{name}` or `{all: true}` | `agent jobs resume NAME` / `--all` |
 * | `POST jobs/run` `{name}` | `agent jobs run NAME`: `{kind, usd, text}` |
 *
 * @module
 */
import { HttpError, json, methodNotAllowed } from "@agent/net";
import {
  answerPreview,
  JOB_NAME_PATTERN,
  jobLog,
  type JobsScope,
  listJobs,
  pauseJobs,
  resumeJobs,
  type RunOutcome,
  type RunRow,
} from "../jobs/mod.ts";
import { UserError } from "../user_error.ts";
import { jsonBody, pageLang } from "./body.ts";
import type { DashboardChat } from "./types.ts";

/** What the Jobs page reads and acts through. */
export interface JobsSources {
  /** The paths, the configuration the hub runs with now, and the language. */
  scope(): JobsScope;
  /** `agent jobs run NAME`: one run now, as the hub runs a slot. */
  runNow?(name: string): Promise<RunOutcome>;
}

/** The Jobs page's routes. */
export function dashboardJobs(sources: JobsSources): DashboardChat {
  return {
    async route(name, request, url) {
      if (name !== "jobs" && !name.startsWith("jobs/")) return undefined;
      const base = sources.scope();
      const lang = pageLang(request, base.lang);
      // The pause's sentence names the page's own button, not the CLI command.
      const resumeAll = lang === "tr" ? "'Tümünü sürdür'" : "'Resume all'";
      const scope = { ...base, lang, nowMs: Date.now(), resumeAll };
      if (name === "jobs" || name === "jobs/log") {
        if (request.method !== "GET" && request.method !== "HEAD") {
          methodNotAllowed(["GET", "HEAD"]);
        }
        if (name === "jobs/log") {
          const job = url.searchParams.get("name") ?? undefined;
          if (job !== undefined) jobName(job);
          return json({ log: withPreviews(await jobLog(scope, job)) });
        }
        const [listing, log] = await Promise.all([listJobs(scope), jobLog(scope, undefined)]);
        return json({ ...listing, log: withPreviews(log), can_run: sources.runNow !== undefined });
      }
      if (request.method !== "POST") methodNotAllowed(["POST"]);
      const body = await jsonBody(request);
      const all = body.all === true;
      const job = body.name === undefined ? undefined : jobName(body.name);
      try {
        switch (name) {
          case "jobs/pause":
          case "jobs/resume": {
            if (all === (job !== undefined)) {
              throw new HttpError(400, "bad_request", { detail: "name or all: one of them" });
            }
            const act = name === "jobs/pause" ? pauseJobs : resumeJobs;
            return json({ said: await act(scope, job) });
          }
          case "jobs/run": {
            if (job === undefined) throw new HttpError(400, "bad_request", { detail: "name" });
            if (sources.runNow === undefined) throw new HttpError(409, "not_available");
            const outcome = await sources.runNow(job);
            return json({
              kind: outcome.kind,
              usd: "usd" in outcome ? outcome.usd : 0,
              text: "text" in outcome ? outcome.text ?? null : null,
            });
          }
        }
      } catch (error) {
        // No such job: the command's sentence, as the command says it.
        if (error instanceof UserError) {
          throw new HttpError(400, "bad_request", { detail: error.message });
        }
        throw error;
      }
      throw new HttpError(404, "not_found");
    },
  };
}

function jobName(value: unknown): string {
  if (typeof value !== "string" || !JOB_NAME_PATTERN.test(value)) {
    throw new HttpError(400, "bad_request", { detail: "name: not a job name" });
  }
  return value;
}

/** The log's rows, an answer's with `preview`: its words without its Markdown marks. */
function withPreviews(rows: RunRow[]): (RunRow & { preview?: string })[] {
  return rows.map((row) =>
    row.state === "ok" && row.detail !== null
      ? { ...row, preview: answerPreview(row.detail, 160) }
      : row
  );
}
