/**
 * `agent jobs list [--json] [--cloud] | add NAME --schedule EXPR --prompt TEXT [...] | run NAME |
 * pause [NAME | --all] | resume [NAME | --all] | remove NAME | log [NAME] [--json] [--cloud]`:
 * scheduled jobs, read from `persona/jobs/` and the job store directly (no hub needed);
 * a running hub sees every change at its next look at the folder and the store.
 * `log --cloud` and `list --cloud` read the cloud brain's job log from the spine (`AGENT_SPINE_URL`,
 * `AGENT_SPINE_TOKEN`), as `agent spend --cloud` reads its ledger.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import { UsageError } from "../command.ts";
import { catalogue, cloudTarget } from "@agent/hub/base";
import { errorMessage } from "@agent/net/common";
import { plainSubcommandArgs, type PlainTable } from "../_plain_args.ts";

const t = catalogue({
  summary: "Scheduled jobs: list, add, run, pause, resume, remove, log.",
  h_list: "list the jobs: next run, last outcome, spend today and in 30 days",
  h_add: "add a job (prints its estimated cost per run and per day)",
  h_run: "run a job once now",
  h_pause: "pause a job, or every job with --all",
  h_resume: "resume a job, or every job with --all",
  h_remove: "remove a job's file (its log stays)",
  h_log: "the job log, newest first",
  o_json: "print JSON",
  o_all: "every job",
  o_cloud: "the cloud brain's log, from the spine (AGENT_SPINE_URL, AGENT_SPINE_TOKEN)",
  o_cloud_list: "the cloud brain's last outcomes and spend, from the spine",
  cloud_failed: "Cannot read the cloud job log: {detail}",
  o_schedule: "a cron expression, e.g. '0 8 * * *' (six fields: seconds first)",
  o_prompt: "what the job asks on each run",
  o_role: "the role that answers (default fast)",
  o_tz: "the schedule's time zone (default Europe/Istanbul)",
  o_run: "the most one run may cost, in dollars",
  o_day: "the most the job may cost in a day, in dollars",
  o_deliver: "messenger, events or none (default messenger)",
  o_missed: "skip or once (default once): a slot missed while no hub ran",
  o_tools: "none or tier1 (default none); tier-2 tools never run in a job",
  unknown: "Unknown jobs command '{sub}' (list, add, run, pause, resume, remove, log).",
  needs_name: "'agent jobs {sub}' needs a job name.",
  name_or_all: "'agent jobs {sub}' needs a job name or --all.",
  name_and_all: "'agent jobs {sub}' takes a job name or --all, not both.",
  needs: "'agent jobs add' needs {option}.",
  number: "{option} must be a positive number of dollars, not '{value}'.",
  ran: "Job {name}: {outcome} ({usd}).",
  not_run_paused: "Job {name} is paused; 'agent jobs resume {name}' resumes it.",
}, {
  summary: "Zamanlanmış görevler: listele, ekle, çalıştır, duraklat, sürdür, kaldır, kayıt.",
  h_list: "görevleri listeler: sonraki çalışma, son sonuç, bugün ve 30 günde harcama",
  h_add: "bir görev ekler (çalışma ve gün başına tahmini maliyeti yazar)",
  h_run: "bir görevi şimdi bir kez çalıştırır",
  h_pause: "bir görevi, --all ile tüm görevleri duraklatır",
  h_resume: "bir görevi, --all ile tüm görevleri sürdürür",
  h_remove: "bir görevin dosyasını kaldırır (kaydı kalır)",
  h_log: "görev kaydı, en yenisi önce",
  o_json: "JSON yazar",
  o_all: "tüm görevler",
  o_cloud: "bulut beyninin kaydı, spine'dan (AGENT_SPINE_URL, AGENT_SPINE_TOKEN)",
  o_cloud_list: "bulut beyninin son sonuçları ve harcaması, spine'dan",
  cloud_failed: "Bulut görev kaydı okunamıyor: {detail}",
  o_schedule: "bir cron ifadesi, ör. '0 8 * * *' (altı alan: önce saniye)",
  o_prompt: "görevin her çalışmada sorduğu",
  o_role: "yanıtlayan rol (varsayılan fast)",
  o_tz: "zamanlamanın saat dilimi (varsayılan Europe/Istanbul)",
  o_run: "bir çalışmanın en çok tutabileceği, dolar",
  o_day: "görevin bir günde en çok tutabileceği, dolar",
  o_deliver: "messenger, events ya da none (varsayılan messenger)",
  o_missed: "skip ya da once (varsayılan once): hub çalışmazken kaçan çalışma",
  o_tools: "none ya da tier1 (varsayılan none); 2. düzey araçlar bir görevde asla çalışmaz",
  unknown: "Bilinmeyen jobs komutu '{sub}' (list, add, run, pause, resume, remove, log).",
  needs_name: "'agent jobs {sub}' bir görev adı ister.",
  name_or_all: "'agent jobs {sub}' bir görev adı ya da --all ister.",
  name_and_all: "'agent jobs {sub}' bir görev adı ya da --all alır, ikisini birden değil.",
  needs: "'agent jobs add' için {option} gerekli.",
  number: "{option} pozitif bir dolar tutarı olmalı, '{value}' değil.",
  ran: "{name} görevi: {outcome} ({usd}).",
  not_run_paused: "{name} görevi duraklatılmış; 'agent jobs resume {name}' sürdürür.",
});

/** The `agent jobs` subcommands the plain path reads (checked against `configure()`). */
const JOBS_PLAIN: PlainTable = {
  list: { flags: ["--json", "--cloud"] },
  add: {
    args: ["<name>"],
    options: [
      "--schedule",
      "--prompt",
      "--role",
      "--tz",
      "--max-usd-per-run",
      "--max-usd-per-day",
      "--deliver",
      "--missed",
      "--tools",
    ],
  },
  run: { args: ["<name>"] },
  pause: { args: ["[name]"], flags: ["--all"] },
  resume: { args: ["[name]"], flags: ["--all"] },
  remove: { args: ["<name>"] },
  log: { args: ["[name]"], flags: ["--json", "--cloud"] },
};

/** `agent jobs`. */
export const command: CommandModule = {
  name: "jobs",
  summary: { en: t("en", "summary"), tr: t("tr", "summary") },
  configure(cmd, lang) {
    const d = (key: Parameters<typeof t>[1]) => t(lang, key);
    cmd.command("list").description(d("h_list")).option("--json", d("o_json"))
      .option("--cloud", d("o_cloud_list"));
    cmd.command("add").description(d("h_add")).argument("<name>")
      .option("--schedule <expr>", d("o_schedule"))
      .option("--prompt <text>", d("o_prompt"))
      .option("--role <role>", d("o_role"))
      .option("--tz <tz>", d("o_tz"))
      .option("--max-usd-per-run <usd>", d("o_run"))
      .option("--max-usd-per-day <usd>", d("o_day"))
      .option("--deliver <where>", d("o_deliver"))
      .option("--missed <what>", d("o_missed"))
      .option("--tools <tools>", d("o_tools"));
    cmd.command("run").description(d("h_run")).argument("<name>");
    cmd.command("pause").description(d("h_pause")).argument("[name]").option("--all", d("o_all"));
    cmd.command("resume").description(d("h_resume")).argument("[name]").option("--all", d("o_all"));
    cmd.command("remove").description(d("h_remove")).argument("<name>");
    cmd.command("log").description(d("h_log")).argument("[name]").option("--json", d("o_json"))
      .option("--cloud", d("o_cloud"));
  },
  plainArgs: (words) => plainSubcommandArgs(words, JOBS_PLAIN),
  async run(ctx, args, opts) {
    const [sub = "list", name] = args;
    const lang = ctx.lang;
    const jobs = await import("@agent/hub/jobs");
    const scope = { paths: ctx.paths, config: await ctx.config(), lang, env: ctx.env };
    /** The cloud brain's log on the spine `.env` names (`--cloud`). */
    const cloudOutbox = () => new jobs.SpineOutbox(cloudTarget(ctx.env, lang));
    switch (sub) {
      case "list": {
        let cloudLog;
        if (opts.cloud === true) {
          const now = Date.now();
          const { dayStart } = await import("@agent/hub/money");
          const outbox = cloudOutbox(); // a missing variable is a usage error, not a spine's failure
          try {
            cloudLog = await outbox.summary(dayStart(now), now - 30 * 86_400_000);
          } catch (error) {
            ctx.err(t(lang, "cloud_failed", { detail: errorMessage(error) }));
            return 1;
          }
        }
        const listing = await jobs.listJobs(scope, cloudLog);
        // A terminal's width; a pipe gets the 80-column layout.
        const columns = Deno.stdout.isTerminal() ? Deno.consoleSize().columns : undefined;
        if (opts.json === true) ctx.out(JSON.stringify(listing, null, 2));
        else for (const line of jobs.listLines(listing, lang, { columns })) ctx.out(line);
        return 0;
      }
      case "add": {
        if (name === undefined) throw new UsageError(t(lang, "needs_name", { sub }));
        const text = (key: string) =>
          typeof opts[key] === "string" ? opts[key] as string : undefined;
        const schedule = text("schedule");
        const prompt = text("prompt");
        if (schedule === undefined) {
          throw new UsageError(t(lang, "needs", { option: "--schedule" }));
        }
        if (prompt === undefined) throw new UsageError(t(lang, "needs", { option: "--prompt" }));
        const money = (key: string, option: string) => {
          const raw = text(key);
          if (raw === undefined) return undefined;
          const n = jobs.parseUsd(raw, lang) ?? Number.NaN;
          if (!Number.isFinite(n) || n <= 0) {
            throw new UsageError(t(lang, "number", { option, value: raw }));
          }
          return n;
        };
        const run = money("maxUsdPerRun", "--max-usd-per-run");
        const day = money("maxUsdPerDay", "--max-usd-per-day");
        const lines = await jobs.addJob(scope, {
          name,
          schedule,
          prompt,
          ...(text("role") ? { role: text("role")! } : {}),
          ...(text("tz") ? { tz: text("tz")! } : {}),
          ...(run === undefined ? {} : { max_usd_per_run: run }),
          ...(day === undefined ? {} : { max_usd_per_day: day }),
          ...(text("deliver") ? { deliver: text("deliver") as "messenger" } : {}),
          ...(text("missed") ? { missed: text("missed") as "once" } : {}),
          ...(text("tools") ? { tools: text("tools") as "none" } : {}),
        });
        for (const line of lines) ctx.out(line);
        return 0;
      }
      case "run": {
        if (name === undefined) throw new UsageError(t(lang, "needs_name", { sub }));
        const { runJobNow } = await import("@agent/hub/run");
        const outcome = await runJobNow({ ...scope, env: ctx.env, logger: ctx.logger }, name);
        if (outcome.kind === "paused" || outcome.kind === "taken") {
          // The pause's own sentence says when the job can run again.
          ctx.err(outcome.kind === "paused" && outcome.text || t(lang, "not_run_paused", { name }));
          return 1;
        }
        // The answer on stdout; why a run did not go (a ceiling, a run still going) on stderr.
        if (outcome.text !== undefined) (outcome.kind === "ok" ? ctx.out : ctx.err)(outcome.text);
        const said = jobs.stateWord(outcome.kind, lang);
        ctx.out(t(lang, "ran", { name, outcome: said, usd: jobs.usd(outcome.usd, lang) }));
        return outcome.kind === "ok" ? 0 : 1;
      }
      case "pause":
      case "resume": {
        const all = opts.all === true;
        if (all === (name !== undefined)) {
          throw new UsageError(t(lang, all ? "name_and_all" : "name_or_all", { sub }));
        }
        const act = sub === "pause" ? jobs.pauseJobs : jobs.resumeJobs;
        ctx.out(await act(scope, all ? undefined : name));
        return 0;
      }
      case "remove": {
        if (name === undefined) throw new UsageError(t(lang, "needs_name", { sub }));
        ctx.out(await jobs.removeJobNamed(scope, name));
        return 0;
      }
      case "log": {
        let rows;
        if (opts.cloud === true) {
          const outbox = cloudOutbox();
          try {
            rows = await outbox.runs(name, 50);
          } catch (error) {
            ctx.err(t(lang, "cloud_failed", { detail: errorMessage(error) }));
            return 1;
          }
        } else rows = await jobs.jobLog(scope, name);
        if (opts.json === true) ctx.out(JSON.stringify(rows, null, 2));
        else for (const line of jobs.logLines(rows, lang)) ctx.out(line);
        return 0;
      }
      default:
        throw new UsageError(t(lang, "unknown", { sub }));
    }
  },
};
