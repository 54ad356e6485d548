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
 * | `POST jobs/resume` `{name}` or `{all: true}` | `agent jobs resume NAME`; with `all`, lifts the global pause only (each job's own pause stays) |
 * | `POST jobs/run` `{name}` | `agent jobs run NAME`: `{kind, usd, text}` |
 *
 * @module
 */
import { HttpError, json, Router } from "@agent/net";
import {
  answerPreview,
  JOB_NAME_PATTERN,
  jobLog,
  type JobsScope,
  listJobs,
  pauseJobs,
  reasonIn,
  resumeJobs,
  type RunOutcome,
  type RunRow,
} from "../jobs/mod.ts";
import type { Lang } from "../i18n.ts";
import { oneLine } from "../text.ts";
import { UserError } from "../user_error.ts";
import { jsonBody, pageLang } from "./body.ts";
import type { DashboardSession } from "./auth.ts";
import type { DashboardRoutes } from "./types.ts";

/** What the Jobs page reads and acts through. */
export interface JobsSources {
  /** The paths, the configuration the hub runs with now, and the language. */
  scope(): JobsScope;
  /** `agent jobs run NAME`: one run now, as the hub runs a slot. */
  runNow?(name: string): Promise<RunOutcome>;
}

/** The Jobs page's routes. */
export function dashboardJobs(sources: JobsSources): DashboardRoutes {
  const scopeFor = (request: Request) => {
    const base = sources.scope();
    const lang = pageLang(request, base.lang);
    // The pause's sentence names the page's own button, not the CLI command.
    const resumeAll = lang === "tr" ? "'Tümünü sürdür'" : "'Resume all'";
    return { ...base, lang, nowMs: Date.now(), resumeAll };
  };
  // No such job: the command's sentence, as the command says it.
  const commandSentence = async (work: () => Promise<Response>): Promise<Response> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof UserError) {
        throw new HttpError(400, "bad_request", { detail: error.message });
      }
      throw error;
    }
  };
  const pauseOrResume = (act: typeof pauseJobs) => async (request: Request) => {
    const scope = scopeFor(request);
    const body = await jsonBody(request);
    const job = body.name === undefined ? undefined : jobName(body.name);
    if ((body.all === true) === (job !== undefined)) {
      throw new HttpError(400, "bad_request", { detail: "name or all: one of them" });
    }
    return await commandSentence(async () => json({ said: await act(scope, job) }));
  };
  return new Router<DashboardSession>()
    .get("/jobs", async (request) => {
      const scope = scopeFor(request);
      const [listing, log] = await Promise.all([listJobs(scope), jobLog(scope, undefined)]);
      return json({
        ...listing,
        log: withPreviews(log, scope.lang),
        can_run: sources.runNow !== undefined,
      });
    })
    .get("/jobs/log", async (request, { url }) => {
      const job = url.searchParams.get("name") ?? undefined;
      if (job !== undefined) jobName(job);
      const scope = scopeFor(request);
      return json({ log: withPreviews(await jobLog(scope, job), scope.lang) });
    })
    .post("/jobs/pause", pauseOrResume(pauseJobs))
    // "Resume all" undoes "Pause all": a job paused on its own stays paused.
    .post("/jobs/resume", pauseOrResume((scope, job) => resumeJobs(scope, job, { keepOwn: true })))
    .post("/jobs/run", async (request) => {
      const body = await jsonBody(request);
      const job = body.name === undefined ? undefined : jobName(body.name);
      if (job === undefined) throw new HttpError(400, "bad_request", { detail: "name" });
      const runNow = sources.runNow;
      if (runNow === undefined) throw new HttpError(409, "not_available");
      return await commandSentence(async () => {
        const outcome = await runNow(job);
        return json({
          kind: outcome.kind,
          usd: "usd" in outcome ? outcome.usd : 0,
          text: "text" in outcome ? outcome.text ?? null : null,
        });
      });
    });
}

function jobName(value: unknown): string {
  if (typeof value !== "string" || !JOB_NAME_PATTERN.test(value)) {
    throw new HttpError(400, "bad_request", { detail: "name: not a job name" });
  }
  return value;
}

/**
 * The log's rows, each with `preview`, what the page shows of its detail: an answer's
 * words without its Markdown marks, a reason in the page's language (`detail` keeps
 * what was stored).
 */
function withPreviews(rows: RunRow[], lang: Lang): (RunRow & { preview?: string })[] {
  return rows.map((row) =>
    row.detail === null
      ? row
      : row.state === "ok"
      ? { ...row, preview: answerPreview(row.detail, 160) }
      : { ...row, preview: oneLine(reasonIn(row.detail, lang), { max: 160, ellipsis: true }) }
  );
}
