/**
 * The Jobs page: every job with its schedule, next run (DD.MM.YYYY HH:MM in Istanbul,
 * and in the job's own zone as `agent jobs list` shows it when that differs), last
 * outcome and spend today and in 30
 * days; Pause / Resume and Run now per job, Pause all / Resume all, and the job log
 * (of every job, or of the one chosen). Each button is the same call as its `agent
 * jobs` command; the page draws again when a `job.*` owner event arrives. Answers and
 * details are the model's text: shown as text only.
 *
 * @module
 */
import { failureText, get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { t, time, usd } from "./i18n.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const REASONS = ["owner", "day", "run", "budget", "all"];
const STATES = ["ok", "failed", "missed", "refused", "running", "interrupted", "taken"];

/** Renders the page into `main` and keeps it live; `arg` names the job whose log shows. */
export async function jobs(main: HTMLElement, arg: string, live: EventTarget): Promise<void> {
  const said = h("p", { role: "status", id: "jobs-said", "aria-live": "polite" });
  const logOf = arg === "" ? undefined : arg;
  let note: { text: string; bad: boolean } | undefined;
  const say = (text: string, bad = false) => {
    note = { text, bad };
    said.textContent = text;
    said.className = bad ? "bad" : "ok";
  };
  const failed = (error: unknown) =>
    say(
      failureText(error, (e) => t("error", { detail: String(e) })),
      true,
    );
  const act = async (path: string, body: Record<string, unknown>) => {
    try {
      say((await post<{ said: string }>(path, body)).said);
      await draw();
    } catch (error) {
      failed(error);
    }
  };
  const runNow = async (name: string, button: HTMLButtonElement) => {
    button.disabled = true;
    say(t("job_running", { name }));
    try {
      const outcome = await post<Json>("jobs/run", { name });
      if (outcome.kind === "paused" || outcome.kind === "taken") {
        say(t("job_not_run", { name }), true);
      } else {
        say(
          t("job_ran", { name, outcome: stateWord(outcome.kind), usd: usd(outcome.usd) }),
          outcome.kind !== "ok",
        );
      }
      await draw();
    } catch (error) {
      failed(error);
    } finally {
      button.disabled = false;
    }
  };

  async function draw(): Promise<void> {
    const data = await get<Json>("jobs");
    const log: Json[] = logOf === undefined
      ? data.log
      : (await get<Json>(`jobs/log?name=${encodeURIComponent(logOf)}`)).log;
    if (note) {
      said.textContent = note.text;
      said.className = note.bad ? "bad" : "ok";
    }
    const row = (j: Json) => {
      const runButton = h("button", {
        type: "button",
        "data-action": "run",
        disabled: !data.can_run,
        "aria-label": `${t("run_now")}: ${j.name}`,
        onclick: () => runNow(j.name, runButton),
      }, t("run_now"));
      return h(
        "tr",
        { "data-job": j.name },
        h("th", { scope: "row" }, j.name, h("br"), h("span", { class: "tag" }, j.role)),
        h(
          "td",
          { "data-label": t("col_schedule") },
          h("code", {}, j.schedule),
          h("br"),
          h("span", { class: "muted" }, j.tz),
        ),
        h(
          "td",
          { class: "num", "data-label": t("col_next") },
          // Istanbul time like every date on the page; the job's own zone's time too
          // when it runs on another (as `agent jobs list` shows it).
          j.next_ms === null ? "-" : time(j.next_ms),
          j.next_ms !== null && j.tz !== "Europe/Istanbul" ? h("br") : null,
          j.next_ms !== null && j.tz !== "Europe/Istanbul"
            ? h("span", { class: "muted" }, `${j.next} (${j.tz})`)
            : null,
        ),
        h(
          "td",
          { "data-label": t("col_last") },
          j.last_state === null ? "-" : stateWord(j.last_state),
          j.last_ms === null ? null : h("br"),
          j.last_ms === null ? null : h("span", { class: "muted" }, time(j.last_ms)),
        ),
        h("td", { class: "num", "data-label": t("col_today") }, `$${usd(j.spent_today_usd)}`),
        h("td", { class: "num", "data-label": t("col_30d") }, `$${usd(j.spent_30d_usd)}`),
        h(
          "td",
          {
            // Paused on its own, or by Pause all (which a row says too: it will not run).
            "data-status": j.paused !== null ? "paused" : data.all_paused ? "paused-all" : "active",
            "data-label": t("col_status"),
          },
          j.paused === null && !data.all_paused ? t("job_active") : h(
            "span",
            { class: "job-paused" },
            t("job_paused", { reason: reasonWord(j.paused ?? "all") }),
          ),
        ),
        h(
          "td",
          { class: "actions" },
          j.paused === null
            ? h("button", {
              type: "button",
              "data-action": "pause",
              "aria-label": `${t("pause")}: ${j.name}`,
              onclick: () => act("jobs/pause", { name: j.name }),
            }, t("pause"))
            : h("button", {
              type: "button",
              class: "primary",
              "data-action": "resume",
              "aria-label": `${t("resume")}: ${j.name}`,
              onclick: () => act("jobs/resume", { name: j.name }),
            }, t("resume")),
          runButton,
          h("a", {
            class: "button",
            href: `#/jobs/${encodeURIComponent(j.name)}`,
            "aria-label": `${t("log")}: ${j.name}`,
          }, t("log")),
        ),
      );
    };
    const head = [
      t("col_job"),
      t("col_schedule"),
      t("col_next"),
      t("col_last"),
      t("col_today"),
      t("col_30d"),
      t("col_status"),
      t("actions"),
    ];
    replace(
      main,
      h("h1", {}, t("nav_jobs")),
      h(
        "div",
        { class: "toolbar" },
        h("button", {
          type: "button",
          id: "pause-all",
          onclick: () => act("jobs/pause", { all: true }),
        }, t("pause_all")),
        h("button", {
          type: "button",
          id: "resume-all",
          onclick: () => act("jobs/resume", { all: true }),
        }, t("resume_all")),
      ),
      data.all_paused ? h("p", { class: "warn", id: "all-paused" }, t("jobs_all_paused")) : null,
      // The spine both hubs share did not answer: the pauses shown are this hub's.
      data.stale_detail
        ? h(
          "p",
          { class: "warn", id: "pauses-stale" },
          t("jobs_pauses_stale", {
            detail: String(data.stale_detail),
          }),
        )
        : null,
      said,
      h(
        "section",
        { class: "card wide", "aria-labelledby": "j-list" },
        h("h2", { id: "j-list" }, t("nav_jobs"), " ", h("span", { class: "badge" }, t("live"))),
        data.jobs.length === 0 ? h("p", { class: "muted" }, t("jobs_none")) : h(
          "div",
          { class: "table-wrap", tabindex: 0, role: "region", "aria-labelledby": "j-list" },
          h(
            "table",
            { class: "jobs" },
            h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
            h("tbody", {}, data.jobs.map(row)),
          ),
        ),
        data.errors.map((e: string) => h("p", { class: "bad" }, e)),
      ),
      logSection(log, logOf),
    );
  }

  await draw();
  let pending: ReturnType<typeof setTimeout> | undefined;
  const onOwner = (ev: Event) => {
    const type = String((ev as CustomEvent).detail?.type ?? "");
    if (!type.startsWith("job.")) return;
    // A burst of events (a run's result and its notice) draws once.
    clearTimeout(pending);
    pending = setTimeout(() => void draw().catch(failed), 150);
  };
  live.addEventListener("owner-event", onOwner);
  addEventListener("hashchange", () => {
    clearTimeout(pending);
    live.removeEventListener("owner-event", onOwner);
  }, { once: true });
}

function logSection(log: Json[], logOf: string | undefined): HTMLElement {
  const title = logOf === undefined ? t("job_log_all") : t("job_log_of", { name: logOf });
  return h(
    "section",
    { class: "card wide", "aria-labelledby": "j-log" },
    h(
      "div",
      { class: "section-head" },
      h("h2", { id: "j-log" }, title),
      logOf === undefined ? null : h("a", { class: "button", href: "#/jobs" }, t("job_log_every")),
    ),
    log.length === 0 ? h("p", { class: "muted" }, t("no_runs")) : h(
      "div",
      { class: "table-wrap", tabindex: 0, role: "region", "aria-labelledby": "j-log" },
      h(
        "table",
        { class: "job-log" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            [t("col_slot"), t("col_job"), t("col_outcome"), t("col_cost"), t("col_detail")].map(
              (c) => h("th", { scope: "col" }, c),
            ),
          ),
        ),
        h(
          "tbody",
          {},
          log.map((r) =>
            h(
              "tr",
              { "data-slot": r.slot_id },
              h("th", { scope: "row", class: "num" }, time(r.slot_ms)),
              h("td", { "data-label": t("col_job") }, r.job),
              h(
                "td",
                { "data-label": t("col_outcome") },
                stateWord(r.state),
                r.missed ? ` (${t("job_missed")})` : "",
              ),
              h("td", { class: "num", "data-label": t("col_cost") }, `$${usd(r.usd)}`),
              h(
                "td",
                { class: "detail", "data-label": t("col_detail") },
                r.preview ?? clip(r.detail ?? ""),
              ),
            )
          ),
        ),
      ),
    ),
  );
}

function stateWord(state: string): string {
  return STATES.includes(state) ? t(`run_${state}` as "run_ok") : state;
}

function reasonWord(reason: string): string {
  return REASONS.includes(reason) ? t(`reason_${reason}` as "reason_owner") : reason;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
